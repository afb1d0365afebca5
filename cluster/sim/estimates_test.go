package sim

import (
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// TestRunEstimatesSameBits checks that every policy run with an estimate
// column gives, bit for bit, what it gives on a copy of the jobs holding
// those estimates, and that a plain run afterwards reads the jobs' own
// estimates again (the column does not outlive its run).
func TestRunEstimatesSameBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	jobs := make([]Job, 400)
	at := 0.0
	for i := range jobs {
		at += rng.ExpFloat64() * 0.8
		s := math.Exp(rng.NormFloat64() * 1.5)
		jobs[i] = Job{Arrival: at, Size: s, Estimate: s, Containers: float64(1 + rng.IntN(20))}
	}
	est := make([]float64, len(jobs))
	for i, j := range jobs {
		est[i] = j.Size * math.Exp(rng.NormFloat64())
	}
	copied := slices.Clone(jobs)
	for i := range copied {
		copied[i].Estimate = est[i]
	}
	specs := append(PolicyNames(), "las_mq:order=remaining", "las_mq:order=containers")
	for _, spec := range specs {
		t.Run(strings.ReplaceAll(spec, ":", "_"), func(t *testing.T) {
			p, err := ParsePolicy(spec)
			if err != nil {
				t.Fatal(err)
			}
			var s Simulator
			want, err := Simulate(copied, 1, p)
			if err != nil {
				t.Fatal(err)
			}
			got, err := s.RunEstimates(jobs, est, 1, p)
			if err != nil {
				t.Fatal(err)
			}
			for i := range jobs {
				if math.Float64bits(got.Completion[i]) != math.Float64bits(want.Completion[i]) || math.Float64bits(got.Response[i]) != math.Float64bits(want.Response[i]) {
					t.Fatalf("job %d: completion %v response %v with the column, %v %v on the copy", i, got.Completion[i], got.Response[i], want.Completion[i], want.Response[i])
				}
			}
			exact, err := Simulate(jobs, 1, p)
			if err != nil {
				t.Fatal(err)
			}
			again, err := s.Run(jobs, 1, p)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(again.Completion, exact.Completion) {
				t.Fatal("a plain run after RunEstimates still reads the column")
			}
		})
	}
}

// TestRunEstimatesRefuses checks the column's length and values.
func TestRunEstimatesRefuses(t *testing.T) {
	jobs := []Job{{Arrival: 0, Size: 1, Estimate: 1}, {Arrival: 1, Size: 2, Estimate: 2}}
	for _, c := range []struct {
		est  []float64
		want string
	}{
		{[]float64{1}, "1 estimates for 2 jobs"},
		{[]float64{1, -1}, "job 2: estimate -1"},
		{[]float64{math.NaN(), 1}, "job 1: estimate NaN"},
		{[]float64{1, math.Inf(1)}, "job 2: estimate +Inf"},
	} {
		var s Simulator
		_, err := s.RunEstimates(jobs, c.est, 1, &SRPT{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: got %v, want %q", c.est, err, c.want)
		}
	}
}

// TestRunEstimatesAllocates checks that a run with a column allocates no
// copy of the jobs (64 B a job): after a first run has sized the
// policy's and the Simulator's buffers, a run allocates well under a job
// struct per job.
func TestRunEstimatesAllocates(t *testing.T) {
	const n = 20000
	jobs := make([]Job, n)
	est := make([]float64, n)
	for i := range jobs {
		jobs[i] = Job{Arrival: float64(i), Size: 0.5 + float64(i%7)/10, Estimate: 1}
		est[i] = 0.3 + float64(i%5)/10
	}
	p := &PFSP{}
	var s Simulator
	if _, err := s.RunEstimates(jobs, est, 1, p); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if _, err := s.RunEstimates(jobs, est, 1, p); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > n*8 {
		t.Errorf("a run with an estimate column allocated %d B for %d jobs: a copy of the jobs?", got, n)
	}
}
