package task

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/schedplan/schedplan/cluster/sim"
)

// A name both registries hold names one policy at two resolutions: its
// task-level entry is a fluid form of the fluid policy, it reads
// estimates exactly when the fluid one does, and the two read LAS_MQ's
// queue parameters alike. A task-level entry that is not a fluid form has
// a name the fluid registry does not know; every entry builds a policy of
// its own name.
func TestRegistriesAgree(t *testing.T) {
	var shared []string
	for _, name := range PolicyNames() {
		info, ok := LookupPolicy(name)
		if !ok || info.Name != name || info.Doc != PolicyDoc(name) || info.Doc == "" {
			t.Errorf("%s: LookupPolicy gives %+v, %v", name, info, ok)
		}
		p, err := ParsePolicy(name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if p.Name() != name {
			t.Errorf("task-level %s builds a policy named %s", name, p.Name())
		}
		fluid, err := sim.LookupPolicy(name)
		if err != nil {
			if registry[name].fluid {
				t.Errorf("%s is a fluid form, but the fluid registry has no such policy (%v)", name, err)
			}
			continue
		}
		shared = append(shared, name)
		if !registry[name].fluid {
			t.Errorf("%s is in both registries but its task-level entry is not a fluid form", name)
		}
		if info.Uses.Estimates != fluid.Uses.Estimates {
			t.Errorf("%s: the task level reads estimates: %v; the fluid level: %v", name, info.Uses.Estimates, fluid.Uses.Estimates)
		}
		if _, err := sim.ParsePolicy(name); err != nil {
			t.Errorf("fluid %s: %v", name, err)
		}
	}
	if want := []string{"fifo", "fsp", "las", "las_mq", "srpt"}; !slices.Equal(shared, want) {
		t.Errorf("names in both registries: %v, want %v", shared, want)
	}
	for _, spec := range []string{"las_mq", "las_mq:k=4,alpha0=0.5,p=3", "las_mq:k=4,alpha0=2,p=3,decay=0.5",
		"las_mq:k=3,alpha0=2,p=4,weights=4/2/1,strict=true", "las_mq:k=3,alpha0=50,decay=0"} {
		f, err := sim.ParsePolicy(spec)
		if err != nil {
			t.Fatalf("fluid %s: %v", spec, err)
		}
		p, err := ParsePolicy(spec)
		if err != nil {
			t.Fatalf("task-level %s: %v", spec, err)
		}
		fm, tm := f.(*sim.LASMQ), p.(*LASMQ)
		if fm.K != tm.K || fm.Alpha0 != tm.Alpha0 || fm.P != tm.P || !reflect.DeepEqual(fm.Weights, tm.Weights) || fm.Strict != tm.Strict {
			t.Errorf("%s: fluid queues %+v, task-level %+v", spec, fm, tm)
		}
	}
	for _, k := range sim.LASMQQueueParams() {
		if slices.Contains(lasmqOwnParams, k) {
			t.Errorf("las_mq parameter %s is both the queue shape's and the task level's own", k)
		}
	}
}

// What the task registry says a policy reads of estimates is what it does
// on random workloads: a policy that declares no estimates completes the
// same jobs at the same times whatever the estimates (exact or log-normal
// errors, σ = 1); one that declares them differs on some workload. COSHH
// is left out: it runs on the plan the pipeline gives it.
func TestDeclaredEstimatesMatchBehaviour(t *testing.T) {
	cl := &Cluster{Types: []MachineType{{Name: "a", Count: 3, Containers: 3, ExecRate: 1}, {Name: "b", Count: 2, Containers: 2, ExecRate: 1.5}}}
	for _, name := range PolicyNames() {
		if name == "coshh" {
			continue
		}
		info, _ := LookupPolicy(name)
		differs := false
		for seed := uint64(1); seed <= 4 && !differs; seed++ {
			jobs := randomWorkload(rand.New(rand.NewPCG(seed, 11)), 60, cl, 1.1)
			noisy := append([]Job(nil), jobs...)
			rng := rand.New(rand.NewPCG(seed, 12))
			for i := range noisy {
				noisy[i].Estimate *= math.Exp(rng.NormFloat64())
			}
			var done [2][]float64
			for k, js := range [][]Job{jobs, noisy} {
				p, err := ParsePolicy(name)
				if err != nil {
					t.Fatal(err)
				}
				done[k] = run(t, forPolicy(p, js), cl, p, Options{}).Completion
			}
			differs = !slices.Equal(done[0], done[1])
		}
		if differs != info.Uses.Estimates {
			t.Errorf("%s declares estimates %v, but estimation errors change its completions: %v", name, info.Uses.Estimates, differs)
		}
	}
}

// The fluid default's specification (Hu et al.'s queues, order=containers)
// is a task-level specification too: containers and remaining name the
// task level's order by remaining containers, fifo the entry order.
func TestLASMQOrderNames(t *testing.T) {
	for _, tc := range []struct {
		spec string
		fifo bool
	}{
		{sim.DefaultLASMQ().Spec(), false},
		{"las_mq:order=containers", false},
		{"las_mq:order=remaining", false},
		{"las_mq:order=fifo", true},
		{"las_mq", false},
	} {
		p, err := ParsePolicy(tc.spec)
		if err != nil {
			t.Errorf("%s: %v", tc.spec, err)
			continue
		}
		if m := p.(*LASMQ); m.InQueueFIFO != tc.fifo {
			t.Errorf("%s: InQueueFIFO %v, want %v", tc.spec, m.InQueueFIFO, tc.fifo)
		}
	}
	if _, err := ParsePolicy("las_mq:order=ps"); err == nil {
		t.Error("las_mq:order=ps parsed at task level")
	}
}
