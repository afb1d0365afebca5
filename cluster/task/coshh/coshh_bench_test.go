package coshh

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/schedplan/schedplan/cluster/task"
	"github.com/schedplan/schedplan/cluster/task/internal/tasktest"
)

// benchRouter builds a router with 1,000 waiting jobs of 100 users (half
// with a min share) on 10 machine types, 50 secondary and 20 primary
// classes; each class is suggested on perClass types (the LP's basic
// optimum has at most classes + types non-zero δ, so 1–2 is typical), or
// on every type when perClass is 0.
func coshhBenchRouter(b *testing.B, perClass int) (*COSHHRouter, *rand.Rand) {
	const (
		users, types, k1, k2, jobs, dim = 100, 10, 20, 50, 1000, 8
	)
	rng := rand.New(rand.NewPCG(1, 2))
	cls := func(k int) COSHHClasses {
		c := COSHHClasses{Suggested: make([][]int, types)}
		for i := 0; i < k; i++ {
			centre := make([]float64, dim)
			for d := range centre {
				centre[d] = rng.NormFloat64() * 3
			}
			c.Centres = append(c.Centres, centre)
			c.Radius = append(c.Radius, 2)
			n := perClass
			if n == 0 {
				n = types
			}
			for _, t := range rng.Perm(types)[:n] {
				c.Suggested[t] = append(c.Suggested[t], i)
			}
		}
		return c
	}
	plan := &COSHHPlan{Primary: cls(k1), Secondary: cls(k2)}
	var us []COSHHUser
	for u := 0; u < users; u++ {
		us = append(us, COSHHUser{MinShare: float64((u % 2) * (1 + u%7)), Weight: float64(1 + u%3)})
	}
	r, err := NewCOSHHRouter(COSHHConfig{Users: us, Machines: slices.Repeat([]int{10}, types), Plan: plan, Tolerance: 1e9})
	if err != nil {
		b.Fatal(err)
	}
	x := make([]float64, dim)
	for j := 0; j < jobs; j++ {
		for d := range x {
			x[d] = rng.NormFloat64() * 3
		}
		if err := r.Arrive(j, rng.IntN(users), x, x); err != nil {
			b.Fatal(err)
		}
		r.Waiting(j, true)
	}
	return r, rng
}

// BenchmarkCOSHHPick measures one routing decision (Alg. 2) with 1,000
// waiting jobs and 50 classes, in a steady state: each decision starts a
// task (the user's share moves in the heaps), the oldest of 300 running
// tasks ends, and one pick in ten the job stops waiting while a job that
// had stopped waits again. It reports the median and p99 of Pick alone
// (ns/pick) besides ns/op for the whole step. Target (issue 13): median ≤
// 10 µs.
func BenchmarkCOSHHPick(b *testing.B) {
	for _, bc := range []struct {
		name     string
		perClass int
	}{{"sc=1-type", 1}, {"sc=2-types", 2}, {"sc=all-types", 0}} {
		b.Run(bc.name, func(b *testing.B) {
			r, rng := coshhBenchRouter(b, bc.perClass)
			var running, idle []int
			lat := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				t := i % 10
				t0 := time.Now()
				j, _ := r.Pick(t)
				lat = append(lat, time.Since(t0))
				if j < 0 {
					b.Fatal("no job picked")
				}
				r.Started(j, 1)
				running = append(running, j)
				if len(running) > 300 {
					r.Ended(running[0], 1)
					running = running[1:]
				}
				if rng.IntN(10) == 0 {
					r.Waiting(j, false)
					idle = append(idle, j)
					if len(idle) > 20 {
						k := rng.IntN(len(idle))
						r.Waiting(idle[k], true)
						idle = slices.Delete(idle, k, k+1)
					}
				}
			}
			b.StopTimer()
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Nanoseconds()), "ns/pick-median")
			b.ReportMetric(float64(lat[len(lat)*99/100].Nanoseconds()), "ns/pick-p99")
		})
	}
}

// BenchmarkCOSHHArrive measures Alg. 1 for one job (nearest of 20 primary
// and 50 secondary centres in 8 dimensions, then queued).
func BenchmarkCOSHHArrive(b *testing.B) {
	r, rng := coshhBenchRouter(b, 2)
	x := make([]float64, 8)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		j := 1000 + i
		for d := range x {
			x[d] = rng.NormFloat64() * 3
		}
		if err := r.Arrive(j, i%100, x, x); err != nil {
			b.Fatal(err)
		}
		r.Waiting(j, true)
		r.Done(j)
	}
}

// BenchmarkCOSHHPolicy runs the coshh policy through the task-level core:
// 1,000 jobs (10 one-container tasks each) of 100 users arrive at once on
// 10 machine types of 10 machines of 4 containers, with the 50-class plan
// of BenchmarkCOSHHPick, so about 1,000 jobs wait at each decision. It
// reports Alg. 2's mean time per decision through the policy (the
// router's timed Picks, ns/pick-mean) and the core's scheduling time per
// decision (ns/decision, Result.OverheadPerDecision).
func BenchmarkCOSHHPolicy(b *testing.B) {
	r, rng := coshhBenchRouter(b, 2)
	plan := r.Plan()
	const n, users, types = 1000, 100, 10
	cl := &task.Cluster{}
	for t := 0; t < types; t++ {
		cl.Types = append(cl.Types, task.MachineType{Name: fmt.Sprint("T", t), Count: 10, Containers: 4, ExecRate: 1})
	}
	us := map[string]COSHHUser{}
	for u := 0; u < users; u++ {
		us[fmt.Sprint("u", u)] = COSHHUser{MinShare: float64((u % 2) * (1 + u%7)), Weight: float64(1 + u%3)}
	}
	jobs := make([]task.Job, n)
	x1, x2 := make([][]float64, n), make([][]float64, n)
	for j := range jobs {
		jobs[j] = tasktest.MR(0, 10, 10+rng.Float64()*100, 0, 0, 1)
		jobs[j].User = fmt.Sprint("u", rng.IntN(users))
		x := make([]float64, 8)
		for d := range x {
			x[d] = rng.NormFloat64() * 3
		}
		x1[j], x2[j] = x, x
	}
	b.ResetTimer()
	var pickNs, decNs float64
	for i := 0; i < b.N; i++ {
		c := &COSHH{Plan: plan, Users: us, X1: x1, X2: x2, Tolerance: 1e9, TimeDecisions: true}
		res, err := task.Simulate(jobs, cl, c, task.Options{TimeRounds: true})
		if err != nil || c.Err() != nil {
			b.Fatal(err, c.Err())
		}
		o := c.Router().Overhead()
		pickNs += float64(o.PickTime.Nanoseconds()) / float64(o.Picks)
		decNs += res.OverheadPerDecision()
	}
	b.ReportMetric(pickNs/float64(b.N), "ns/pick-mean")
	b.ReportMetric(decNs/float64(b.N), "ns/decision")
}
