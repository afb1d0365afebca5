package sim

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestScratchSharedByPolicies runs every policy in turn on one Simulator,
// each run's policy reused from the last round or parsed afresh, on job
// sets of growing and shrinking length, with estimates from a column or
// not, rate caps or not, and compares every completion bit for bit with
// the same run on a Simulator of its own: the per-job arrays the
// policies borrow from their Simulator (scratch) carry what another
// policy left there, and no policy may read it.
func TestScratchSharedByPolicies(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	var shared Simulator
	kept := map[string]Policy{}
	for round := 0; round < 6; round++ {
		n := []int{300, 50, 400, 400, 120, 5}[round]
		c := []float64{1, 3.5}[round%2]
		jobs := randomJobs(rng, n, c, []float64{0, 1}[round%2])
		if round >= 4 {
			for i := range jobs {
				if i%3 == 0 {
					jobs[i].Cap = c / 4 // caps: fifo, ps, gps and las_mq run capped
				}
			}
		}
		est := make([]float64, n)
		for i, j := range jobs {
			est[i] = j.Size * math.Exp(0.5*rng.NormFloat64())
		}
		for _, spec := range allSpecs {
			p := kept[spec]
			if p == nil || round%3 == 2 {
				var err error
				if p, err = ParsePolicy(spec); err != nil {
					t.Fatal(err)
				}
				kept[spec] = p
			}
			for _, column := range []bool{false, true} {
				run := func(s *Simulator, p Policy) (*Result, error) {
					if column {
						return s.RunEstimates(jobs, est, c, p)
					}
					return s.Run(jobs, c, p)
				}
				got, err := run(&shared, p)
				if err != nil {
					if round >= 4 { // a policy without caps refuses them
						continue
					}
					t.Fatalf("round %d %s: %v", round, spec, err)
				}
				gotC := append([]float64(nil), got.Completion...)
				fresh, _ := ParsePolicy(spec)
				var own Simulator
				want, err := run(&own, fresh)
				if err != nil {
					t.Fatal(err)
				}
				for i := range want.Completion {
					if math.Float64bits(gotC[i]) != math.Float64bits(want.Completion[i]) {
						t.Fatalf("round %d %s (column %v): job %d completes at %v on the shared simulator, %v on its own", round, spec, column, i, gotC[i], want.Completion[i])
					}
				}
			}
		}
	}
}

// TestScratchLent checks that the policies that keep per-job arrays take
// them from the Simulator that runs them (one set for all), and keep their
// own when run by Simulate.
func TestScratchLent(t *testing.T) {
	jobs := randomJobs(rand.New(rand.NewPCG(1, 1)), 1000, 1, 0.5)
	var s Simulator
	var first *float64
	for _, spec := range []string{"pfsp", "fsp+ps", "srpt", "las"} {
		p, _ := ParsePolicy(spec)
		if _, err := s.Run(jobs, 1, p); err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = &s.sc.f[0][0]
		} else if &s.sc.f[0][0] != first {
			t.Errorf("%s: the simulator's first float slot was reallocated for a run of the same length", spec)
		}
		if _, ok := p.(borrower); !ok {
			t.Errorf("%s does not borrow its arrays", spec)
		}
	}
	p, _ := ParsePolicy("srpt")
	if _, err := Simulate(jobs, 1, p); err != nil {
		t.Fatal(err)
	}
	if p.(*SRPT).sc != nil || len(p.(*SRPT).rem) != len(jobs) {
		t.Error("a policy run by Simulate does not keep its own arrays")
	}
}
