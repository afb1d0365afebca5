package sim

import (
	"math"
	"runtime"
	"testing"
)

// instant completes every job the moment it arrives and allocates
// nothing: what a run costs beyond its policy.
type instant struct{ waiting int }

func (p *instant) Name() string            { return "instant" }
func (p *instant) Start([]Job, float64)    { p.waiting = -1 }
func (p *instant) Arrive(_ float64, j int) { p.waiting = j }
func (p *instant) Next() float64 {
	if p.waiting >= 0 {
		return 0
	}
	return math.Inf(1)
}
func (p *instant) Advance(_ float64, done func(int)) {
	if p.waiting >= 0 {
		done(p.waiting)
		p.waiting = -1
	}
}

// TestRunAllocatesTwoFloatsPerJob checks that a Simulator's run holds its
// two result slices per job and nothing more (the arrival times on the
// run's clock live in Response until each job completes).
func TestRunAllocatesTwoFloatsPerJob(t *testing.T) {
	const n = 1 << 16
	jobs := make([]Job, n)
	for i := range jobs {
		jobs[i] = Job{Arrival: float64(i), Size: 1}
	}
	var s Simulator
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	r, err := s.Run(jobs, 1, &instant{})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := after.TotalAlloc-before.TotalAlloc, uint64(2*8*n+64<<10); got > want {
		t.Errorf("a run of %d jobs allocated %d B, want at most %d (two float64 a job)", n, got, want)
	}
	for i, v := range r.Response {
		if v != 0 || r.Completion[i] != float64(i) {
			t.Fatalf("job %d: response %v completion %v, want 0 and %d", i, v, r.Completion[i], i)
		}
	}
}

// TestComputeRunSharesResponses checks that ComputeRun's responses are
// the run's own (no copy per worker) and that a later Compute, which
// computes completion − arrival, writes them into a buffer of its own,
// never into the run's.
func TestComputeRunSharesResponses(t *testing.T) {
	jobs := []Job{{Arrival: 0, Size: 1}, {Arrival: 0.5, Size: 2}, {Arrival: 4, Size: 1}}
	var s Simulator
	r, err := s.Run(jobs, 1, &PS{})
	if err != nil {
		t.Fatal(err)
	}
	want := append([]float64(nil), r.Response...)
	var m Metrics
	m.ComputeRun(jobs, r, 1, nil)
	if &m.Response[0] != &r.Response[0] {
		t.Error("ComputeRun copied the run's responses")
	}
	other := []Job{{Arrival: 10, Size: 1}, {Arrival: 11, Size: 1}, {Arrival: 12, Size: 1}}
	m.Compute(other, []float64{13, 14, 15}, 1, nil)
	for i, v := range r.Response {
		if v != want[i] {
			t.Fatalf("Compute overwrote the run's response %d: %v, want %v", i, v, want[i])
		}
	}
	for i, v := range m.Response {
		if v != 3 {
			t.Errorf("Compute's response %d = %v, want 3", i, v)
		}
	}
}
