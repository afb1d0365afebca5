package experiment

import (
	"context"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"
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

// TestScaledCopyDroppedBeforeTheNext runs three scaled experiments (load
// factors) on one worker and checks that when a copy is built, no earlier
// one is still live: the old worker's cached policy held the jobs it
// last ran, so the last factor's copy stayed beside the next (three
// copies live at the 10 M log's validate, 0.55 GB).
func TestScaledCopyDroppedBeforeTheNext(t *testing.T) {
	jobs := make([]sim.Job, 20000)
	for i := range jobs {
		jobs[i] = sim.Job{Arrival: float64(i), Size: 0.7, Estimate: 0.7}
	}
	built, live := watchCopies()
	defer func() { scaledCopyHook = nil }()
	var xs []*Experiment
	for _, f := range []float64{1.2, 0.9, 0.8} {
		xs = append(xs, &Experiment{Jobs: jobs, Capacity: 1, Policies: []string{"ps", "fifo"}, Runs: 1, MeanOnly: true, Scale: f})
	}
	if _, err := RunExperiments(context.Background(), RunOptions{Workers: 1}, xs...); err != nil {
		t.Fatal(err)
	}
	if built.Load() != 3 || *live != 0 {
		t.Errorf("%d copies built; %d still live when a later one was built, want 3 and 0", built.Load(), *live)
	}
}

// watchCopies sets scaledCopyHook to count the copies built and, before
// each is built, the most of the earlier ones still live (not yet
// collected; a copy built into a dropped one's array replaces it).
func watchCopies() (built *atomic.Int64, live *int) {
	built, live = new(atomic.Int64), new(int)
	var freed atomic.Int64
	var mu sync.Mutex
	arrays := map[uintptr]bool{} // the copies' arrays not collected
	scaledCopyHook = func(c, into []sim.Job, _ int) {
		if c != nil {
			built.Add(1)
			a := uintptr(unsafe.Pointer(&c[0]))
			mu.Lock()
			defer mu.Unlock()
			if arrays[a] { // a dropped copy's array, reused
				freed.Add(1)
				return
			}
			arrays[a] = true
			runtime.SetFinalizer(&c[0], func(*sim.Job) {
				mu.Lock()
				delete(arrays, a)
				mu.Unlock()
				freed.Add(1)
			})
			return
		}
		held := 0 // the dropped copy's array the copy is built into
		if into != nil {
			held = 1
		}
		for range 50 { // finalizers run after a collection, on their own goroutine
			runtime.GC()
			if built.Load()-freed.Load() <= int64(held) {
				break
			}
			time.Sleep(2 * time.Millisecond)
		}
		*live = max(*live, int(built.Load()-freed.Load())-held)
	}
	return built, live
}

// TestScaledCopiesOneAtATime runs two scaled experiments (load factors) on
// two workers: one worker runs the first factor's long unit while the
// other ends its short one and begins the second factor. That worker
// waits for the long unit to end before building the second copy, so no
// two copies are held together (before, both were: 0.36 GB at the 10 M
// log's validate peak); the results are those of one worker. Within a
// factor the policies that read estimates run first (runLongestFirst).
func TestScaledCopiesOneAtATime(t *testing.T) {
	jobs := make([]sim.Job, 200000)
	for i := range jobs {
		jobs[i] = sim.Job{Arrival: float64(i) * 0.5, Size: 0.7 + float64(i%7)*0.1, Estimate: 0.7}
	}
	var mu sync.Mutex
	most := 0
	scaledCopyHook = func(c, _ []sim.Job, others int) {
		mu.Lock()
		most = max(most, others)
		mu.Unlock()
	}
	defer func() { scaledCopyHook = nil }()
	xs := func() []*Experiment {
		return []*Experiment{
			{Jobs: jobs, Capacity: 1, Policies: []string{"ps", "fifo"}, Runs: 1, MeanOnly: true, Scale: 1.2},
			{Jobs: jobs, Capacity: 1, Policies: []string{"fifo", "las", "srpt"}, Runs: 1, MeanOnly: true, Scale: 0.8},
		}
	}
	two, err := RunExperiments(context.Background(), RunOptions{Workers: 2}, xs()...)
	if err != nil {
		t.Fatal(err)
	}
	if most != 0 {
		t.Errorf("a scaled copy was built while %d other was held", most)
	}
	one, err := RunExperiments(context.Background(), RunOptions{Workers: 1}, xs()...)
	if err != nil {
		t.Fatal(err)
	}
	for i := range one {
		for p := range one[i].Policies {
			if a, b := one[i].Policies[p].Summaries[0].Response.Mean, two[i].Policies[p].Summaries[0].Response.Mean; a != b {
				t.Errorf("experiment %d, %s: mean %v on one worker, %v on two", i, one[i].Policies[p].Policy, a, b)
			}
		}
	}
	var order []string
	units := []unit{{0, 0, 0}, {0, 1, 0}, {1, 0, 0}, {1, 1, 0}, {1, 2, 0}}
	idx := []int{0, 1, 2, 3, 4}
	s := newScaledCopies(xs(), units)
	pol := [][]string{{"ps", "fifo"}, {"fifo", "las", "srpt"}}
	runLongestFirst(idx, units, s, func(u unit) sim.Uses { return sim.Uses{Estimates: pol[u.x][u.p] == "srpt"} })
	for _, i := range idx {
		order = append(order, pol[units[i].x][units[i].p])
	}
	if want := []string{"ps", "fifo", "srpt", "fifo", "las"}; !slices.Equal(order, want) {
		t.Errorf("units in the order %v, want %v", order, want)
	}
}

// TestSinkCopyWaitedFor runs the validate stage's shape on two workers:
// an exact-size experiment with a Sink and a load factor on one Source.
// One worker ends its exact-size unit while the other's is still in the
// Sink (each sleeps there); before building the factor's copy it waits for that unit to end,
// and the window is garbage when the copy is built: the old pool did not
// wait for a copy a Sink's experiment reads (the window of the exact-size
// and σ runs was held beside the first factor's copy, 0.19 GB of the 10 M
// log's validate peak), and the worker that ran a copy's last unit kept
// it live in its simulator's cached policy until its next run, which
// waited for the lock the next copy is built under. The factor's copy is
// built into the window's array (Source.Into). The results are those of
// one worker and fresh builds.
func TestSinkCopyWaitedFor(t *testing.T) {
	jobs := make([]sim.Job, 20000)
	for i := range jobs {
		s := 0.5 + float64(i%5)*0.1
		jobs[i] = sim.Job{Arrival: float64(i) * 0.9, Size: s, Estimate: s}
	}
	fresh := &Source{N: len(jobs), Build: func() ([]sim.Job, error) { return slices.Clone(jobs), nil }}
	src := &Source{N: fresh.N, Build: fresh.Build, Into: func(buf []sim.Job) ([]sim.Job, error) { return append(buf, jobs...), nil }}
	built, live := watchCopies()
	watch := scaledCopyHook
	var arrays []*sim.Job
	scaledCopyHook = func(c, into []sim.Job, others int) {
		if c != nil {
			arrays = append(arrays, &c[0])
		}
		watch(c, into, others)
	}
	defer func() { scaledCopyHook = nil }()
	xs := func(slow time.Duration) ([]*Experiment, *[]float64) {
		var sunk []float64
		return []*Experiment{
			{Source: src, Capacity: 1, Policies: []string{"fifo", "ps"}, Runs: 1, Sink: func(rr *RunRows) error {
				// Each run in the Sink a while: the other worker's unit has
				// begun when the first ends, and is in the Sink behind it.
				time.Sleep(slow)
				sunk = append(sunk, rr.Responses()...)
				return nil
			}},
			// One unit: the worker that ran the window's last one has
			// none after it, which would drop its simulator (leave).
			{Source: src, Capacity: 1, Policies: []string{"srpt"}, Runs: 1, MeanOnly: true, Scale: 1.2},
		}, &sunk
	}
	two, sunkTwo := xs(200 * time.Millisecond)
	got, err := RunExperiments(context.Background(), RunOptions{Workers: 2}, two...)
	if err != nil {
		t.Fatal(err)
	}
	scaledCopyHook = nil
	if built.Load() != 2 || *live != 0 {
		t.Errorf("%d copies built, one while %d other was live; want 2, none live", built.Load(), *live)
	}
	if len(arrays) != 2 || arrays[0] != arrays[1] {
		t.Error("the factor's copy was not built into the window's array")
	}
	src = fresh
	one, sunkOne := xs(0)
	want, err := RunExperiments(context.Background(), RunOptions{Workers: 1}, one...)
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		for p, pr := range want[i].Policies {
			if g, w := got[i].Policies[p].Summaries[0], pr.Summaries[0]; g != w {
				t.Errorf("experiment %d, %s: %+v on two workers, %+v on one", i, pr.Policy, g, w)
			}
		}
	}
	if !slices.Equal(*sunkTwo, *sunkOne) {
		t.Error("the rows sunk on two workers differ from one worker's")
	}
}
