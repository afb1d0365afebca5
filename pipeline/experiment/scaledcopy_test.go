package experiment

import (
	"context"
	"runtime"
	"testing"
	"unsafe"

	"github.com/schedplan/schedplan/cluster/sim"
)

// TestScaledRunsShareOneCopy runs the policies of a scaled experiment (a
// load factor) on two workers and checks that they allocate one scaled
// copy of the jobs between them, not one each (the old workers each
// scaled a copy of their own: 0.38 GB at the 10 M log's 3 M validation
// jobs), and that the summaries are those of the jobs scaled by hand.
func TestScaledRunsShareOneCopy(t *testing.T) {
	const n = 100000
	jobs := make([]sim.Job, n)
	for i := range jobs {
		s := 0.5 + float64(i%7)/10
		jobs[i] = sim.Job{Arrival: float64(i), Size: s, Estimate: s}
	}
	policies := []string{"fifo", "ps", "srpt", "las", "fsp", "gps"}
	run := func(x *Experiment) ([]*ExperimentResult, uint64) {
		t.Helper()
		runtime.GC()
		var a, b runtime.MemStats
		runtime.ReadMemStats(&a)
		out, err := RunExperiments(context.Background(), RunOptions{Workers: 2}, x)
		if err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&b)
		return out, b.TotalAlloc - a.TotalAlloc
	}
	byHand := make([]sim.Job, n)
	for i, j := range jobs {
		j.Size *= 1.2
		j.Estimate *= 1.2
		byHand[i] = j
	}
	want, plain := run(&Experiment{Jobs: byHand, Capacity: 1.5, Policies: policies, Runs: 1, MeanOnly: true})
	got, scaled := run(&Experiment{Jobs: jobs, Capacity: 1.5, Policies: policies, Runs: 1, MeanOnly: true, Scale: 1.2})
	for p := range policies {
		if g, w := got[0].Policies[p].Summaries[0], want[0].Policies[p].Summaries[0]; g != w {
			t.Errorf("%s: scaled run %+v, by hand %+v", policies[p], g, w)
		}
	}
	copyBytes := uint64(n) * uint64(unsafe.Sizeof(sim.Job{}))
	if extra := int64(scaled) - int64(plain); extra > int64(copyBytes*3/2) {
		t.Errorf("scaled runs allocated %d B more than unscaled ones: more than one %d-B copy of the jobs", extra, copyBytes)
	}
}
