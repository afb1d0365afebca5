package sim

import (
	"math"
	"math/rand/v2"
	"testing"
)

// In-level orders of LAS_MQ (seed 000 §3.3), computed by hand on seed 000
// Fig. 1's jobs A (t=0, size 4), B (t=1, size 4), C (t=2, size 1), k = 2,
// α_0 = 1.
func TestLASMQOrderHand(t *testing.T) {
	type job struct{ a, s, e, c float64 }
	fig1 := []job{{0, 4, 4, 0}, {1, 4, 4, 0}, {2, 1, 1, 0}}
	for _, tc := range []struct {
		name, spec string
		jobs       []job
		want       []float64
	}{
		// A is demoted at 1, B at 2, C runs alone 2–3; then A and B
		// share queue 1 (3 left each at 1/2): both end at 9.
		{"strict ps", "las_mq:k=2,alpha0=1,strict=true,order=ps", fig1, []float64{9, 8, 1}},
		// B's estimate is 2: once both are in queue 1 at t=3, B (1 left
		// by its estimate) runs before A (3 left): B ends at 6, A at 9.
		{"strict remaining", "las_mq:k=2,alpha0=1,strict=true,order=remaining", []job{{0, 4, 4, 0}, {1, 4, 2, 0}, {2, 1, 1, 0}}, []float64{9, 5, 1}},
		// Equal queue weights, PS inside: from 1, q0 {B} and q1 {A} get
		// 1/2 each; C joins q0 at 2 (B has 0.5): B and C get 1/4 each.
		// B reaches 1 at 4 (A has 2.5, C 0.5) and joins A in q1 (1/4
		// each); C ends at 5 (A 2.75, B 1.25); then A and B get 1/2 each:
		// A ends at 7.5, B (2.5) alone at 9.
		{"weighted ps", "las_mq:k=2,alpha0=1,order=ps", fig1, []float64{7.5, 8, 3}},
		// k = 1: PS, and SRPT.
		{"k=1 ps is ps", "las_mq:k=1,order=ps", []job{{0, 2, 2, 0}, {1, 1, 1, 0}}, []float64{3, 2}},
		{"k=1 remaining is srpt", "las_mq:k=1,order=remaining", []job{{0, 3, 3, 0}, {1, 1, 1, 0}}, []float64{4, 1}},
		// An underestimated head keeps its place: its remaining estimate
		// goes negative, below the newcomer's.
		{"remaining underestimate", "las_mq:k=1,order=remaining", []job{{0, 3, 1, 0}, {1, 1, 1, 0}}, []float64{3, 3}},
		// Containers (Alg. 1 line 10): the estimates are ignored. A (size
		// 3, 10 containers) has 10·2/3 ≈ 6.7 left at 1 when B (size 1,
		// 20 containers) arrives: A keeps the queue and ends at 3, B at 4
		// — though B is the smaller job.
		{"containers", "las_mq:k=1,order=containers", []job{{0, 3, 0.1, 10}, {1, 1, 9, 20}}, []float64{3, 3}},
		// B with 2 containers goes first (2 < 6.7): B 1–2, A ends at 4.
		{"containers newcomer first", "las_mq:k=1,order=containers", []job{{0, 3, 0.1, 10}, {1, 1, 9, 2}}, []float64{4, 1}},
		// Without container counts the order has nothing to go by: FIFO
		// (not SRPT on the sizes, whatever the estimates).
		{"containers without counts", "las_mq:k=1,order=containers", []job{{0, 3, 0.1, 0}, {1, 1, 9, 0}}, []float64{3, 3}},
		// A job without a count comes after one with a count: B (5
		// containers) takes the queue from A at 1.
		{"containers, one count", "las_mq:k=1,order=containers", []job{{0, 3, 0.1, 0}, {1, 1, 9, 5}}, []float64{4, 1}},
	} {
		jobs := make([]Job, len(tc.jobs))
		for i, j := range tc.jobs {
			jobs[i] = Job{Arrival: j.a, Size: j.s, Estimate: j.e, Weight: 1, Containers: j.c}
		}
		got := responses(t, jobs, 1, tc.spec)
		for i := range got {
			if !close(got[i], tc.want[i], 1e-12) {
				t.Errorf("%s (%s): responses %v, want %v", tc.name, tc.spec, got, tc.want)
				break
			}
		}
		// Caps at the capacity never bind: the capped code path must agree.
		for i := range jobs {
			jobs[i].Cap = 1
		}
		got = responses(t, jobs, 1, tc.spec)
		for i := range got {
			if !close(got[i], tc.want[i], 1e-12) {
				t.Errorf("%s (%s) with non-binding caps: responses %v, want %v", tc.name, tc.spec, got, tc.want)
				break
			}
		}
	}
}

// Every order, with and without caps, strict and weighted, matches the
// naive simulation that recomputes every rate at every event (caps: seed
// 000 Alg. 2, each queue's share water-filled in order, the leftover to
// the queues in priority order).
func TestLASMQOrdersMatchNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	specs := []string{
		"las_mq:k=3,alpha0=1,p=5,order=ps", "las_mq:k=4,alpha0=0.5,p=4,strict=true,order=ps", "las_mq:k=3,alpha0=2,p=3,weights=4/2/1,order=ps",
		"las_mq:k=3,alpha0=1,p=5,order=remaining", "las_mq:k=4,alpha0=0.5,p=4,strict=true,order=remaining", "las_mq:k=3,alpha0=2,p=3,weights=4/2/1,order=remaining",
		"las_mq:k=1,order=ps", "las_mq:k=1,order=remaining",
		"las_mq:k=3,alpha0=1,p=5", "las_mq:k=4,alpha0=0.5,p=4,strict=true", "las_mq:k=3,alpha0=2,p=3,weights=4/2/1", // FIFO
	}
	for inst := 0; inst < 30; inst++ {
		jobs := randomJobs(rng, 20+rng.IntN(50), 1, []float64{0, 1}[inst%2])
		capped := inst%3 != 0
		if capped {
			for i := range jobs {
				if rng.IntN(3) != 0 {
					jobs[i].Cap = math.Pow(10, -1.5*rng.Float64())
				}
			}
		}
		for _, spec := range specs {
			m := mustPolicy(t, spec).(*LASMQ)
			r, err := Simulate(jobs, 1, m)
			if err != nil {
				t.Fatalf("instance %d %s: %v", inst, spec, err)
			}
			want := naiveLASMQ(jobs, 1, m)
			for i := range jobs {
				if !close(r.Completion[i], want[i], 1e-7) {
					t.Errorf("instance %d %s (caps %v): job %d completes at %v, naive %v", inst, spec, capped, i, r.Completion[i], want[i])
					break
				}
			}
		}
	}
}

// k = 1 is the policy the in-level order names: FIFO, PS (GPS with
// weights) and SRPT; on random jobs with estimation errors too.
func TestLASMQOneLevelEquivalences(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for inst := 0; inst < 20; inst++ {
		jobs := randomJobs(rng, 200, 1, []float64{0, 0.5, 1}[inst%3])
		for _, pair := range [][2]string{{"las_mq:k=1", "fifo"}, {"las_mq:k=1,order=ps", "gps"}, {"las_mq:k=1,order=remaining", "srpt"}} {
			a := responses(t, jobs, 1, pair[0])
			b := responses(t, jobs, 1, pair[1])
			for i := range a {
				if !close(a[i], b[i], 1e-9) {
					t.Errorf("instance %d: %s gives job %d response %v, %s %v", inst, pair[0], i, a[i], pair[1], b[i])
					break
				}
			}
		}
	}
}

// Fine levels with strict priority and PS inside approach LAS (seed 000
// §3.6: LAS_MQ mimics LAS with few queues; with p → 1 the levels resolve
// attained service ever more finely).
func TestLASMQFineLevelsApproachLAS(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	jobs := randomJobs(rng, 2000, 1, 0)
	mean := func(spec string) float64 {
		s := 0.0
		for _, r := range responses(t, jobs, 1, spec) {
			s += r
		}
		return s / float64(len(jobs))
	}
	las := mean("las")
	prev := math.Inf(1)
	for _, spec := range []string{"las_mq:k=8,alpha0=0.01,p=10,strict=true,order=ps", "las_mq:k=60,alpha0=0.001,p=1.5,strict=true,order=ps", "las_mq:k=400,alpha0=0.0001,p=1.05,strict=true,order=ps"} {
		gap := math.Abs(mean(spec)/las - 1)
		t.Logf("%s: %.3f%% from LAS", spec, 100*gap)
		if gap > prev {
			t.Errorf("%s: gap to LAS %v grew from %v", spec, gap, prev)
		}
		prev = gap
	}
	if prev > 0.005 {
		t.Errorf("400 levels with p = 1.05: mean response %.3f%% from LAS's", 100*prev)
	}
}

func TestLASMQOrderSpec(t *testing.T) {
	for _, bad := range []string{"las_mq:order=srpt", "las_mq:order=PS"} {
		if _, err := ParsePolicy(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
	for _, o := range LevelOrders {
		p := mustPolicy(t, "las_mq:k=3,order="+string(o)).(*LASMQ)
		if p.Order != o {
			t.Errorf("order=%s parsed as %q", o, p.Order)
		}
	}
	if m := mustPolicy(t, "las_mq").(*LASMQ); m.Order != "" {
		t.Errorf("default order %q, want FIFO (zero value)", m.Order)
	}
	if !OrderRemaining.UsesEstimates() || OrderPS.UsesEstimates() || OrderFIFO.UsesEstimates() || OrderContainers.UsesEstimates() {
		t.Error("only the remaining-work order uses estimates")
	}
}
