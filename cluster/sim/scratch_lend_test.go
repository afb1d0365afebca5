package sim

import (
	"math/rand/v2"
	"reflect"
	"testing"
)

// TestLentArraysNotKept runs every policy on a Simulator (which lends it
// its per-job arrays) and then outside it, through the package-level
// Simulate or by a Start of its own, and checks that the policy then
// holds none of the Simulator's arrays: a policy that kept them as its
// "own" would write the Simulator's scratch while the Simulator runs
// another of its policies, on another goroutine (a data race, and wrong
// schedules for both).
func TestLentArraysNotKept(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 9))
	plain := randomJobs(rng, 200, 1, 0.5)
	capped := append([]Job(nil), plain...)
	for i := range capped {
		if i%3 == 0 {
			capped[i].Cap = 0.25
		}
	}
	for _, spec := range allSpecs {
		for _, jobs := range [][]Job{plain, capped} {
			for _, outside := range []string{"Simulate", "Start"} {
				var s Simulator
				p, err := ParsePolicy(spec)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := s.Run(jobs, 1, p); err != nil {
					continue // a policy without caps refuses them
				}
				if outside == "Simulate" {
					if _, err := Simulate(jobs, 1, p); err != nil {
						t.Fatal(err)
					}
				} else {
					p.Start(jobs, 1)
					p.Arrive(jobs[0].Arrival, 0)
				}
				if f := sharedArray(reflect.ValueOf(p), lentArrays(&s.sc)); f != "" {
					t.Errorf("%s (caps %v): after a %s of its own it still holds the Simulator's array in %s", spec, &jobs[0] == &capped[0], outside, f)
				}
			}
		}
	}
}

// lentArrays are the first elements' addresses of sc's arrays.
func lentArrays(sc *scratch) map[uintptr]bool {
	m := map[uintptr]bool{}
	for _, v := range []reflect.Value{reflect.ValueOf(sc.f[:]), reflect.ValueOf(sc.i[:])} {
		for k := 0; k < v.Len(); k++ {
			if s := v.Index(k); s.Cap() > 0 {
				m[s.Pointer()] = true
			}
		}
	}
	if cap(sc.s) > 0 {
		m[reflect.ValueOf(sc.s).Pointer()] = true
	}
	return m
}

// sharedArray returns the path of a slice reachable from v (through
// structs and pointers to structs, not following the scratch itself)
// whose array is one of lent, or "".
func sharedArray(v reflect.Value, lent map[uintptr]bool) string {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() || v.Type() == reflect.TypeOf(&scratch{}) {
			return ""
		}
		return sharedArray(v.Elem(), lent)
	case reflect.Struct:
		for k := 0; k < v.NumField(); k++ {
			if f := sharedArray(v.Field(k), lent); f != "" {
				return v.Type().Field(k).Name + "." + f
			}
		}
	case reflect.Slice:
		if v.Cap() > 0 && lent[v.Pointer()] {
			return "[]"
		}
	}
	return ""
}
