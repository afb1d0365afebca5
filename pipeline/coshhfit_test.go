package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/schedplan/schedplan/classify"
	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/cluster/task"
	"github.com/schedplan/schedplan/cluster/task/coshh"
	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/estimate"
	"github.com/schedplan/schedplan/pipeline/bundle"
	"github.com/schedplan/schedplan/pipeline/capacity"
	"github.com/schedplan/schedplan/pipeline/runreport"
	"github.com/schedplan/schedplan/pipeline/tasklevel"
	"github.com/schedplan/schedplan/pipeline/validation"
)

// phasedWorkload draws n jobs of seed 003's Table 4 classes (user U{c+1}
// submits class c): the first half from classes first, the second half
// from classes second.
func phasedWorkload(n int, gap float64, first, second []int, seed uint64) *data.Jobs {
	rng := rand.New(rand.NewPCG(seed, 5))
	j := &data.Jobs{Source: "phased"}
	for k := range fbTable4 {
		j.User.Values = append(j.User.Values, fmt.Sprintf("U%d", k+1))
	}
	t := 0.0
	for i := 0; i < n; i++ {
		from := first
		if i >= n/2 {
			from = second
		}
		c := from[rng.IntN(len(from))]
		cl := fbTable4[c]
		j.ID.Append(fmt.Sprintf("j%d", i))
		j.Submit = append(j.Submit, t)
		t += rng.ExpFloat64() * gap
		j.User.Codes = append(j.User.Codes, int32(c))
		j.InputBytes.Values = append(j.InputBytes.Values, cl.input)
		j.ShuffleBytes.Values = append(j.ShuffleBytes.Values, cl.shuffle)
		j.OutputBytes.Values = append(j.OutputBytes.Values, cl.output)
		j.MapTaskSeconds.Values = append(j.MapTaskSeconds.Values, cl.mapSec)
		j.ReduceTaskSeconds.Values = append(j.ReduceTaskSeconds.Values, cl.redSec)
	}
	return j
}

// phasedWindow fits COSHH (k classes) on the first half of a phased
// workload and returns the task-level window of its second half.
func phasedWindow(t *testing.T, first, second []int, k int) (*validation.COSHHWindow, *validation.COSHHFit) {
	t.Helper()
	const n = 160
	spec := cluster.DefaultSpec()
	j := phasedWorkload(n, 600, first, second, 3)
	sizes, _, err := estimate.Sizes(j, estimate.SizeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	fit, err := validation.FitCOSHH(j, sizes, spec, n/2, k, 0.5, 1, "")
	if err != nil {
		t.Fatal(err)
	}
	var shapes []task.Shape
	for i := n / 2; i < n; i++ {
		ms, _ := j.MapTaskSeconds.At(i)
		rs, _ := j.ReduceTaskSeconds.At(i)
		shapes = append(shapes, task.Shape{ID: i, Arrival: j.Submit[i], User: j.UserAt(i), MapSeconds: ms, ReduceSeconds: rs})
	}
	jobs, err := task.Synthesize(shapes, task.SynthOptions{Skew: 0.5, Seed: 1, TaskSeconds: 300, MapContainers: 1, ReduceContainers: 1})
	if err != nil {
		t.Fatal(err)
	}
	idx := tasklevel.WindowRows(n/2, n/2)
	if err := tasklevel.COSHHTypeScales(jobs, j.Subset(idx), sizes[n/2:], spec, 1, 0); err != nil {
		t.Fatal(err)
	}
	return &validation.COSHHWindow{J: j, Sizes: sizes, Spec: spec, Cluster: tasklevel.COSHHTaskCluster(spec), Lo: n / 2, Jobs: jobs, Seed: 1}, fit
}

// Seed 003 Alg. 1: when the second half of the workload brings a class the
// plan has never seen (huge data loads and data summaries after small jobs
// and fast aggregates), its first job fits no class: the jobs seen so far
// are re-classified (k-means warm-started from the centres plus the new
// job), the LP re-solved and the plan swapped; the new jobs get a class of
// their own, which no job of the first half shares. Without the new class
// nothing is re-classified.
func TestCOSHHReclassifiesNewClass(t *testing.T) {
	w, fit := phasedWindow(t, []int{0, 5}, []int{0, 5, 4, 9}, 2)
	if k := len(fit.Plan.Secondary.Centres); k != 2 {
		t.Fatalf("fit has %d classes, want 2", k)
	}
	c, q, err := w.COSHHPolicyOf(fit, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	r, err := w.Run(context.Background(), c, q)
	if err != nil {
		t.Fatal(err)
	}
	o := r.Metrics.Overhead
	t.Logf("re-classifications %d (calls %d), LP solves %d in %v, re-plan time %v, classes %d → %d, mean completion %.0f s",
		r.Replans, o.ReplanCalls, r.LPSolves, r.LPTime, o.ReplanTime, len(fit.Plan.Secondary.Centres), len(r.Fit.Secondary.Classes), r.Metrics.MeanCompletion)
	if r.Replans < 1 || o.Replans != r.Replans || r.LPSolves < r.Replans || o.ReplanTime <= 0 {
		t.Fatalf("re-classifications %d, router's %d, LP solves %d, time %v: want at least one, counted as overhead", r.Replans, o.Replans, r.LPSolves, o.ReplanTime)
	}
	final := c.Router().Plan()
	if len(final.Secondary.Centres) <= 2 || len(r.Fit.Secondary.Classes) != len(final.Secondary.Centres) {
		t.Fatalf("the plan in force has %d classes (replanner's %d): the new class was not added", len(final.Secondary.Centres), len(r.Fit.Secondary.Classes))
	}
	if r.Fit.Secondary.KRule != "refit" || r.Fit.Secondary.Jobs() <= fit.Rows {
		t.Errorf("final classification %q of %d jobs: want a refit on more than the %d fitted jobs", r.Fit.Secondary.KRule, r.Fit.Secondary.Jobs(), fit.Rows)
	}
	// The new jobs' classes hold no job of the first half.
	x, err := fit.Secondary.ScaledRows(w.J, w.Sizes, nil)
	if err != nil {
		t.Fatal(err)
	}
	old := map[int]bool{}
	for i := 0; i < fit.Rows; i++ {
		c, _ := coshh.NearestCentre(final.Secondary.Centres, x[i])
		old[int(c)] = true
	}
	for i := fit.Rows; i < w.J.Len(); i++ {
		if u := w.J.UserAt(i); u == "U5" || u == "U10" {
			if cl, _ := coshh.NearestCentre(final.Secondary.Centres, x[i]); old[int(cl)] {
				t.Errorf("row %d (%s, a new kind of job) is in class %d, which first-half jobs share", i, u, cl)
			}
		}
	}
	if r.Metrics.Overhead.Arrivals != len(w.Jobs) {
		t.Errorf("Alg. 1 ran %d times for %d jobs", r.Metrics.Overhead.Arrivals, len(w.Jobs))
	}

	// The same classes in both halves: nothing to re-classify.
	w2, fit2 := phasedWindow(t, []int{0, 5}, []int{0, 5}, 2)
	c2, q2, err := w2.COSHHPolicyOf(fit2, nil, true)
	if err != nil {
		t.Fatal(err)
	}
	r2, err := w2.Run(context.Background(), c2, q2)
	if err != nil {
		t.Fatal(err)
	}
	if r2.Replans != 0 || r2.Metrics.Overhead.ReplanCalls != 0 {
		t.Errorf("no new class, yet %d re-classifications (%d calls)", r2.Replans, r2.Metrics.Overhead.ReplanCalls)
	}
}

// checkCOSHHRun checks a run's COSHH outputs: the bundle's coshh section
// (k from the grid, a plan), the metrics of COSHH, FIFO and Fair in
// summary.json and the task-level table, and coshh.parquet's rows.
func checkCOSHHRun(t *testing.T, res *runreport.RunResult, b *bundle.Bundle, dir string) {
	t.Helper()
	c, v := b.COSHH, res.COSHH
	if c == nil || v == nil || len(v.Runs) != 3 {
		t.Fatalf("COSHH: bundle section %v, summary %+v", c, v)
	}
	if c.K != v.K || len(v.Grid) != len(validation.COSHHKGrid)*len(validation.COSHHToleranceGrid) || len(c.Secondary.Classes) == 0 || len(c.Secondary.Suggested) != len(b.Cluster.Resources) {
		t.Errorf("COSHH: bundle k %d, summary k %d, grid %d points, %d classes", c.K, v.K, len(v.Grid), len(c.Secondary.Classes))
	}
	if _, err := c.Plan(); err != nil {
		t.Error(err)
	}
	for k, name := range []string{"coshh", "fifo", "fair"} {
		r := v.Runs[k]
		if r.Config != name || r.Jobs != res.Split.ValidJobs || !(r.MeanCompletion > 0) || r.MapTasks == 0 {
			t.Errorf("COSHH comparison row %d: %+v", k, r)
		}
	}
	if co := v.Runs[0]; co.Alg1Runs != res.Split.ValidJobs || co.Alg2Decisions == 0 {
		t.Errorf("COSHH overhead: %d Alg. 1 runs for %d jobs, %d Alg. 2 decisions", co.Alg1Runs, res.Split.ValidJobs, co.Alg2Decisions)
	}
	n := 0
	for _, r := range res.TaskValidation.Rows {
		for k := range validation.COSHHRowNames {
			if r.Name == v.TaskRowName(k) && r.Mean > 0 {
				n++
			}
		}
	}
	if n != 3 {
		t.Errorf("the task-level table has %d of COSHH's 3 rows", n)
	}
	tab, err := data.ReadTable(filepath.Join(dir, "coshh.parquet"), "")
	if err != nil {
		t.Fatal(err)
	}
	if want := len(v.Runs) + len(v.Users) + len(v.Classes); tab.Len() != want || len(tab.Names) != len(strings.Split(validation.COSHHTableColumns, ", ")) {
		t.Errorf("coshh.parquet: %d rows × %d columns %v, want %d rows and the columns %s", tab.Len(), len(tab.Names), tab.Names, want, validation.COSHHTableColumns)
	}
}

// BenchmarkCOSHHRefit times seed 003 Alg. 1's re-classification as the
// simulation does it (coshhReplanner): k-means on 1,000 jobs of the Table
// 4 mix warm-started from a k = 10 plan's centres plus one new centre, in
// ms/refit, and the LP re-solve of the refitted classes (a cold solve:
// package lp has no warm start), in ms/lp-solve.
func BenchmarkCOSHHRefit(b *testing.B) {
	spec := cluster.DefaultSpec()
	j := fbWorkload(1000, 2000, 1)
	sizes, _, err := estimate.Sizes(j, estimate.SizeOptions{})
	if err != nil {
		b.Fatal(err)
	}
	fit, err := validation.FitCOSHH(j, sizes, spec, 500, 10, 0.5, 1, "")
	if err != nil {
		b.Fatal(err)
	}
	x, err := fit.Secondary.ScaledRows(j, sizes, nil)
	if err != nil {
		b.Fatal(err)
	}
	start := append(fit.Secondary.Centres(), x[999])
	rows := tasklevel.WindowRows(0, 1000)
	var refitNs, lpNs int64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		res, err := fit.Secondary.Refit(j, sizes, rows, start, classify.Options{Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		f := validation.COSHHFit{Primary: fit.Primary, Secondary: res}
		if err := f.Solve(spec, ""); err != nil {
			b.Fatal(err)
		}
		refitNs += t1.Sub(t0).Nanoseconds()
		lpNs += time.Since(t1).Nanoseconds()
	}
	b.ReportMetric(float64(refitNs)/1e6/float64(b.N), "ms/refit")
	b.ReportMetric(float64(lpNs)/1e6/float64(b.N), "ms/lp-solves")
}

// capacity --what-if re-solves the LP on the changed cluster and simulates
// COSHH there: two more machines of the type the Table 4 mix needs most
// (R3: fast, with the memory every class fits) shorten the mean
// completion time; the as-specified row is the baseline of the change.
func TestCOSHHWhatIfSimulated(t *testing.T) {
	j := fbWorkload(100, 2000, 1)
	sizes, src, err := estimate.Sizes(j, estimate.SizeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := capacity.AnalyseCapacity(context.Background(), capacity.CapacityRequest{Jobs: j, Sizes: sizes, Source: src, Spec: cluster.DefaultSpec(), K: 4, Seed: 1,
		Options: capacity.CapacityOptions{WhatIfs: []string{"R3=+2"}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.COSHH) != 2 {
		t.Fatalf("%d COSHH what-ifs, want the spec and R3=+2", len(rep.COSHH))
	}
	before, after := rep.COSHH[0], rep.COSHH[1]
	t.Logf("as specified: %d machines, λ %.4g, mean completion %.0f s; R3=+2: %d machines, λ %.4g, mean completion %.0f s (%+.1f%%)",
		before.Machines, before.Lambda, before.MeanCompletion, after.Machines, after.Lambda, after.MeanCompletion, 100*after.Delta)
	if before.Change != "" || after.Change != "R3=+2" || after.Machines != before.Machines+2 {
		t.Errorf("what-ifs %+v", rep.COSHH)
	}
	if !(after.Lambda >= before.Lambda) || !(after.MeanCompletion < before.MeanCompletion) || after.Delta >= 0 {
		t.Errorf("R3=+2: λ %v → %v, mean completion %v → %v s (%+v): want more capacity and shorter completions", before.Lambda, after.Lambda, before.MeanCompletion, after.MeanCompletion, after.Delta)
	}
	var buf strings.Builder
	rep.WriteText(&buf)
	if !strings.Contains(buf.String(), "COSHH simulated at task level") {
		t.Errorf("capacity's text lacks the COSHH what-ifs:\n%s", buf.String())
	}
}

// TestFitCOSHHScaled: the fit of the log's sizes read at a scale
// (FitCOSHHScaled: tune-coshh's fit on the whole tuning window, without a
// copy of every size) is the fit of their scaled copy (COSHHSizes's
// bits), field for field.
func TestFitCOSHHScaled(t *testing.T) {
	const n, scale = 400, 37.5
	spec := cluster.DefaultSpec()
	j := phasedWorkload(n, 600, []int{0, 1, 2}, []int{3, 4}, 5)
	sizes, _, err := estimate.Sizes(j, estimate.SizeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	scaled := make([]float64, len(sizes))
	for i, s := range sizes {
		scaled[i] = s * scale
	}
	want, err := validation.FitCOSHH(j, scaled, spec, 300, 4, 0.5, 1, "")
	if err != nil {
		t.Fatal(err)
	}
	got, err := validation.FitCOSHHScaled(j, sizes, scale, spec, 300, 4, 0.5, 1, "")
	if err != nil {
		t.Fatal(err)
	}
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if !bytes.Equal(g, w) || len(g) < 100 {
		t.Errorf("fit at a scale:\n%s\nfit of the scaled copy:\n%s", g, w)
	}
}
