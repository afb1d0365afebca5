package experiment

import (
	"context"
	"math"
	"runtime"
	"testing"

	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/estimate"
)

// TestSummaryRunsKeepNoPerJobMetrics runs one σ run of SRPT on a worker
// with its rows kept, handed to a Sink, and neither, and checks that the
// worker then holds no per-job slowdowns, missed flags or sorted copy
// (25 B a job on every worker: the old worker kept them through the
// validation's exact-size runs, whose rows results.parquet holds, which
// made them part of the 10 M log's validate peak), that the three
// summaries are equal, and that the rows' slowdowns and missed deadlines,
// computed from each job's response, are sim.Metrics' to the bit.
func TestSummaryRunsKeepNoPerJobMetrics(t *testing.T) {
	jobs := make([]sim.Job, 5000)
	for i := range jobs {
		s := float64(i%11) * 0.2
		jobs[i] = sim.Job{Arrival: float64(i) * 0.6, Size: s, Estimate: s}
	}
	dl, err := PSDeadlines(jobs, 1)
	if err != nil {
		t.Fatal(err)
	}
	deadlines := func(*sim.Result) ([]float64, error) { return dl, nil }
	x := &Experiment{Jobs: jobs, Capacity: 1, Deadlines: dl, Policies: []string{"srpt"}, Runs: 1, Seed: 3,
		Errors: estimate.ErrorModel{Kind: estimate.LogNormal, Sigma: 1}}
	var w worker
	kept := &JobRows{}
	sunk := &JobRows{}
	emit := func(rr *RunRows) error {
		rr.AppendTo(sunk, 0, rr.Len(), nil)
		return nil
	}
	var sums []sim.Summary
	for _, c := range []struct {
		name string
		rows *JobRows
		emit func(*RunRows) error
	}{{"rows kept", kept, nil}, {"rows sunk", nil, emit}, {"summary only", nil, nil}} {
		sum, err := w.run(context.Background(), x, jobs, "srpt", 0, c.rows, c.emit, deadlines)
		if err != nil {
			t.Fatal(err)
		}
		if w.m.Slowdown != nil || w.m.Missed != nil || w.m.Response != nil {
			t.Errorf("%s: the worker kept %d slowdowns, %d missed flags and %d responses", c.name, len(w.m.Slowdown), len(w.m.Missed), len(w.m.Response))
		}
		sums = append(sums, sum)
	}
	var m sim.Metrics
	want := m.ComputeRun(jobs, &sim.Result{Completion: kept.Completion, Response: kept.Response}, 1, dl)
	for k, sum := range sums {
		if sum != want {
			t.Errorf("summary %d: %+v, ComputeRun's %+v", k, sum, want)
		}
	}
	for _, r := range []*JobRows{kept, sunk} {
		if len(r.Job) != len(jobs) {
			t.Fatalf("%d rows, want %d", len(r.Job), len(jobs))
		}
		for i := range jobs {
			if math.Float64bits(r.Slowdown[i]) != math.Float64bits(m.Slowdown[i]) || r.Missed[i] != m.Missed[i] || r.Response[i] != m.Response[i] {
				t.Fatalf("row %d: response %v, slowdown %v, missed %v; Metrics: %v, %v, %v", i, r.Response[i], r.Slowdown[i], r.Missed[i], m.Response[i], m.Slowdown[i], m.Missed[i])
			}
		}
	}
	if missed := want.Missed; missed == 0 || missed == len(jobs) || want.ZeroSize == 0 {
		t.Errorf("%d of %d deadlines missed, %d zero sizes: the test checks too little", missed, len(jobs), want.ZeroSize)
	}
}

// TestResultsSinkDropsSortedAfterLast checks that the results sink keeps
// its buffer of sorted responses (8 B a job) only while a configuration
// is summarised, not between two (beside the next one's simulation: the
// old sink held it through the exact-size runs, part of the 10 M log's
// validate peak) nor through the runs after the last one.
func TestResultsSinkDropsSortedAfterLast(t *testing.T) {
	jobs := make([]sim.Job, 1000)
	for i := range jobs {
		jobs[i] = sim.Job{Arrival: float64(i), Size: 0.8, Estimate: 0.8}
	}
	names := []string{"fifo", "ps"}
	rs, err := NewResultsSink(nil, nil, nil, make([]int32, len(jobs)), 1, names)
	if err != nil {
		t.Fatal(err)
	}
	held := 0
	x := &Experiment{Jobs: jobs, Capacity: 1, Policies: names, Runs: 1, Sink: func(rr *RunRows) error {
		err := rs.Sink(rr)
		if rr.Policy == 0 {
			held = cap(rs.sorted)
		}
		return err
	}}
	if _, err := x.Run(context.Background(), RunOptions{Workers: 1}); err != nil {
		t.Fatal(err)
	}
	if held != 0 || rs.sorted != nil {
		t.Errorf("sorted buffer: %d after the first configuration, %d after the last; want none", held, cap(rs.sorted))
	}
	if len(rs.Cdf[1].Values) == 0 {
		t.Error("the last configuration has no CDF")
	}
}

// TestResultsSinkSortsInOneBuffer checks that summarising a
// configuration's responses allocates one buffer of their size (the old
// sink grew it by appends from empty: 62 MB held at once for 3 M jobs'
// 24 MB).
func TestResultsSinkSortsInOneBuffer(t *testing.T) {
	const n = 200000
	jobs := make([]sim.Job, n)
	for i := range jobs {
		jobs[i] = sim.Job{Arrival: float64(i), Size: 0.8, Estimate: 0.8}
	}
	var s sim.Simulator
	r, err := s.Run(jobs, 1, &sim.FIFO{})
	if err != nil {
		t.Fatal(err)
	}
	rs, err := NewResultsSink(nil, nil, nil, make([]int32, n), 1, []string{"fifo"})
	if err != nil {
		t.Fatal(err)
	}
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	if err := rs.Sink(&RunRows{Spec: "fifo", Jobs: jobs, Completion: r.Completion, Response: r.Response, Capacity: 1}); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&b)
	if got, want := b.TotalAlloc-a.TotalAlloc, uint64(8*n+64<<10); got > want {
		t.Errorf("summarising %d responses allocated %d B, want at most %d (one buffer of them)", n, got, want)
	}
}
