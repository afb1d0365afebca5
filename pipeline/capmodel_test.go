package pipeline

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/cluster/task"
	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/estimate"
	"github.com/schedplan/schedplan/pipeline/capacity"
	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/runreport"
	"github.com/schedplan/schedplan/pipeline/tasklevel"
)

// parseTestSpec parses a cluster spec for a test.
func parseTestSpec(t testing.TB, yaml string) *cluster.Spec {
	t.Helper()
	s, err := cluster.ParseSpec([]byte(yaml), "test.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// homogeneousSpec has one type, no memory and no retrieval rate.
const homogeneousSpec = `version: 1
name: homog
resources:
  - {name: H, count: 7, slots: 8, exec_rate: 1}
`

// threeTypeSpec has three types with memories and retrieval rates: a fast
// type with little memory, a slow one with much, and a middle one.
const threeTypeSpec = `version: 1
name: three
resources:
  - {name: A, count: 4, slots: 8, exec_rate: 2, memory: 64MB, retrieve_rate: 1Gbps}
  - {name: B, count: 6, slots: 4, exec_rate: 0.5, memory: 4TB, retrieve_rate: 10Gbps}
  - {name: C, count: 3, slots: 12, exec_rate: 1, memory: 1GB, retrieve_rate: 4Gbps}
`

// sizedEmbedded is the embedded trace sized with the defaults.
func sizedEmbedded(t testing.TB) (*data.Jobs, []float64, estimate.Source, estimate.SizeOptions) {
	t.Helper()
	j, err := data.Open("embedded", data.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	opt := estimate.DefaultSizeOptions()
	sizes, src, err := estimate.Sizes(j, opt)
	if err != nil {
		t.Fatal(err)
	}
	return j, sizes, src, opt
}

// sizedTaskSeconds is seed 003's Facebook workload, sized from its
// task-seconds (measured, not normalised).
func sizedTaskSeconds(t testing.TB) (*data.Jobs, []float64, estimate.Source, estimate.SizeOptions) {
	t.Helper()
	j := fbWorkload(400, 2000, 7)
	opt := estimate.DefaultSizeOptions()
	sizes, src, err := estimate.Sizes(j, opt)
	if err != nil {
		t.Fatal(err)
	}
	if src != estimate.FromTaskSeconds {
		t.Fatalf("sizes from %s, want task-seconds", src)
	}
	return j, sizes, src, opt
}

func capacityReport(t testing.TB, j *data.Jobs, sizes []float64, src estimate.Source, opt estimate.SizeOptions, spec *cluster.Spec) *capacity.CapacityReport {
	t.Helper()
	rep, err := capacity.AnalyseCapacity(context.Background(), capacity.CapacityRequest{Jobs: j, Sizes: sizes, Source: src, SizeOpt: opt, Spec: spec, K: 3, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Load == nil {
		t.Fatal("no load decomposition")
	}
	return rep
}

// On a homogeneous cluster without memory or retrieval rates every view is
// the plain model: the memory and data factors are 1, the execution-time
// load is the plain one, and λ × load = 1 (to 1e-6), on the embedded trace
// (sizes from bytes) and on a log with task-seconds.
func TestLoadModelHomogeneousLambdaTimesLoad(t *testing.T) {
	spec := parseTestSpec(t, homogeneousSpec)
	for name, sized := range map[string]func(testing.TB) (*data.Jobs, []float64, estimate.Source, estimate.SizeOptions){
		"embedded": sizedEmbedded, "task-seconds": sizedTaskSeconds} {
		t.Run(name, func(t *testing.T) {
			j, sizes, src, opt := sized(t)
			lm := capacityReport(t, j, sizes, src, opt, spec).Load
			if lm.MemoryFactor != 1 || lm.DataFactor != 1 || math.Abs(lm.Exec-lm.Plain) > 1e-12*lm.Plain {
				t.Errorf("factors %v, %v; exec %v, plain %v: want 1, 1 and exec = plain", lm.MemoryFactor, lm.DataFactor, lm.Exec, lm.Plain)
			}
			if got := lm.Lambda * lm.Plain; math.Abs(got-1) > 1e-6 {
				t.Errorf("λ × load = %v × %v = %v, want 1 within 1e-6", lm.Lambda, lm.Plain, got)
			}
		})
	}
}

// On heterogeneous specs (Table 3; three types with memories and retrieval
// rates) the decomposition reproduces each view: the plain load is the
// fluid views' and the task level's at exec_rate, Plain × memory × data is
// ExecTimeLoad of the task jobs with the execution-time model's type scales
// (COSHH's rows and the task-level validation), and × placement is 1/λ.
func TestLoadModelHeterogeneousReproducesViews(t *testing.T) {
	j, sizes, src, opt := sizedEmbedded(t)
	for _, spec := range []*cluster.Spec{cluster.DefaultSpec(), parseTestSpec(t, threeTypeSpec)} {
		t.Run(spec.Name, func(t *testing.T) {
			rep := capacityReport(t, j, sizes, src, opt, spec)
			lm := rep.Load
			if lm.MemoryFactor <= 1 || lm.DataFactor <= 1 {
				t.Errorf("memory factor %v, data factor %v: want both above 1 on %s", lm.MemoryFactor, lm.DataFactor, spec.Name)
			}
			if got := lm.Plain * lm.MemoryFactor * lm.DataFactor; math.Abs(got/lm.Exec-1) > 1e-9 {
				t.Errorf("plain × memory × data = %v, exec %v", got, lm.Exec)
			}
			if got := lm.Exec * lm.PlacementFactor * lm.Lambda; math.Abs(got-1) > 1e-9 {
				t.Errorf("exec × placement × λ = %v, want 1", got)
			}
			// The task level: the log's task jobs, plain and with the
			// execution-time model's scales.
			jobs, err := capacity.WhatIfJobs(j, sizes, src, opt, spec, 1)
			if err != nil {
				t.Fatal(err)
			}
			cl, err := tasklevel.TaskCluster(spec)
			if err != nil {
				t.Fatal(err)
			}
			cs := estimate.ContainerSeconds(sizes, src, opt, spec.Capacity())
			plain := experiment.OfferedLoad(task.FluidJobs(jobs), cl.Rate())
			if math.Abs(plain/lm.Plain-1) > 1e-6 {
				t.Errorf("task level at exec_rate: load %v, decomposition's plain %v", plain, lm.Plain)
			}
			if err := tasklevel.COSHHTypeScales(jobs, j, cs, spec, 0, 0); err != nil {
				t.Fatal(err)
			}
			exec, _ := tasklevel.ExecTimeLoad(jobs, cl)
			tm := tasklevel.TaskLoadModel(jobs, cl)
			if math.Abs(tm.Exec/exec-1) > 1e-9 || math.Abs(tm.Plain*tm.MemoryFactor*tm.DataFactor/exec-1) > 1e-9 {
				t.Errorf("task jobs: decomposition %v × %v × %v = %v, ExecTimeLoad %v", tm.Plain, tm.MemoryFactor, tm.DataFactor, tm.Exec, exec)
			}
			if math.Abs(exec/lm.Exec-1) > 1e-3 {
				t.Errorf("task jobs' execution-time load %v, the LP's demands' %v: one model, one load", exec, lm.Exec)
			}
			var b strings.Builder
			rep.WriteText(&b)
			for _, want := range []string{"memory rule: share of the work", "data retrieval: adds", "1/λ, the capacity LP's load", "an ASSUMPTION"} {
				if !strings.Contains(b.String(), want) {
					t.Errorf("capacity text lacks %q", want)
				}
			}
		})
	}
}

// checkCapacityHeadline checks the default run on the embedded trace
// (TestSimulatedViewsStateTheirLoad runs it): the headline's capacity
// sentence, the fluid, task-level and execution-time loads are consistent —
// 1/λ is the fluid load × the printed terms, the task-level window's load
// is its fluid load × the same named terms — and λ > 1 exactly when the
// task-level replay at today's rate keeps up.
func checkCapacityHeadline(t *testing.T, res *runreport.RunResult, dir string) {
	t.Helper()
	c := res.CapacityCheck
	if c == nil || c.Load == nil || c.Headroom == nil || len(c.Headroom.Replays) != 3 {
		t.Fatalf("no capacity check, decomposition or headroom replays: %+v", c)
	}
	lm := c.Load
	if lm.Lambda != res.Lambda {
		t.Errorf("decomposition's λ %v, the run's %v", lm.Lambda, res.Lambda)
	}
	if got := lm.Plain * lm.MemoryFactor * lm.DataFactor * lm.PlacementFactor * res.Lambda; math.Abs(got-1) > 1e-9 {
		t.Errorf("fluid × memory × data × placement × λ = %v, want 1", got)
	}
	if math.Abs(lm.Plain / *res.OfferedLoad - 1) > 1e-3 {
		t.Errorf("decomposition's plain load %v, the run's fluid load %v", lm.Plain, *res.OfferedLoad)
	}
	tv := res.TaskValidation
	if tv == nil || tv.Terms == nil {
		t.Fatal("no task-level terms")
	}
	if got := tv.Terms.Plain * tv.Terms.MemoryFactor * tv.Terms.DataFactor; math.Abs(got / *tv.OfferedLoad - 1) > 1e-9 {
		t.Errorf("window: plain × memory × data = %v, task-level load %v", got, *tv.OfferedLoad)
	}
	if math.Abs(tv.Terms.Plain / *res.ValidationLoad - 1) > 1e-3 {
		t.Errorf("window's plain load %v, the fluid validation window's %v", tv.Terms.Plain, *res.ValidationLoad)
	}
	if today := c.Headroom.Replays[0]; today.Overloaded == (res.Lambda > 1) {
		t.Errorf("λ = %v but the replay at today's rate has overloaded = %v (%.3g unfinished)", res.Lambda, today.Overloaded, today.Unfinished)
	}
	// The growth before the p99 doubles: bracketed by the replays the
	// bisection ran (within the target at or below the factor, not above).
	h := c.Headroom
	if res.Lambda > 1 && (h.P99Factor < 1 || h.P99Factor > res.Lambda || h.P99Target != capacity.P99TargetFactor*h.Replays[0].P99) {
		t.Errorf("p99 headroom: factor %v (λ %v), target %v (today's p99 %v)", h.P99Factor, res.Lambda, h.P99Target, h.Replays[0].P99)
	}
	for _, rp := range h.P99Search {
		if ok := !rp.Overloaded && rp.P99 <= h.P99Target; ok != (rp.Factor <= h.P99Factor) {
			t.Errorf("p99 search: the replay at ×%v (p99 %v, overloaded %v) is on the wrong side of ×%v", rp.Factor, rp.P99, rp.Overloaded, h.P99Factor)
		}
	}
	capacity := "capacity: the cluster is short of capacity: λ = " + fmt.Sprintf("%.4g", res.Lambda)
	if res.Lambda > 1 {
		capacity = fmt.Sprintf("capacity: today's arrival rate can grow ×%.3g before the cluster saturates (λ = %.4g); by replay, ×%.3g before ", res.Lambda, res.Lambda, h.P99Factor)
	}
	var out bytes.Buffer
	res.WriteText(&out, dir, 0)
	if tv.Terms.MemoryFactor != 1 || tv.Terms.DataFactor != 1 { // else the task-level load is the plain one
		if want := "= the window's plain load " + experiment.LoadText(tv.Terms.Plain); !strings.Contains(out.String(), want) {
			t.Errorf("the run's text lacks %q", want)
		}
	}
	for _, want := range []string{
		capacity,
		"checked by a task-level replay",
		"1/λ = " + experiment.LoadText(1/res.Lambda) + " = fluid load " + experiment.LoadText(lm.Plain),
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the run's text lacks %q", want)
		}
	}
}

// Every LP what-if on the embedded trace (Table 3) is replayed at today's
// rate beside its λ, and a what-if that λ says helps does not make the
// replay's p99 worse than the spec's.
func TestCapacityWhatIfsReplayed(t *testing.T) {
	j, sizes, src, opt := sizedEmbedded(t)
	rep := capacityReport(t, j, sizes, src, opt, cluster.DefaultSpec())
	a := rep.Classifications[len(rep.Classifications)-1]
	if rep.Headroom == nil || len(a.WhatIfs) == 0 {
		t.Fatal("no headroom or what-ifs")
	}
	base := rep.Headroom.Replays[0]
	for _, w := range a.WhatIfs {
		if w.Sim == nil {
			t.Errorf("what-if %s not replayed (%s)", w.Change, w.Note)
			continue
		}
		if w.Ratio > 1+1e-9 && w.Sim.P99 > base.P99 {
			t.Errorf("what-if %s: λ ×%.4g but the replay's p99 %v > the spec's %v", w.Change, w.Ratio, w.Sim.P99, base.P99)
		}
	}
	var b strings.Builder
	rep.WriteText(&b)
	if !strings.Contains(b.String(), "simulated at today's rate: mean (s)") || !strings.Contains(b.String(), "headroom: ") {
		t.Errorf("capacity text lacks the what-ifs' replays or the headroom:\n%s", b.String())
	}
}

// --cluster auto on a log with measured work is the smallest homogeneous
// cluster at which the log's load is at most cluster.AutoLoad; its λ is
// 1/load, above 1, and the replay at today's rate keeps up. Table 3 stays
// available by name.
func TestAutoClusterSizedToLog(t *testing.T) {
	j, sizes, src, opt := sizedTaskSeconds(t)
	spec := tasklevel.AutoClusterSpec(j, sizes, src, opt)
	n := spec.Resources[0].Count
	if len(spec.Resources) != 1 || !strings.Contains(spec.Name, fmt.Sprintf("%d machines", n)) || !strings.Contains(spec.Name, "pass --cluster") {
		t.Fatalf("auto spec %+v", spec)
	}
	rep := capacityReport(t, j, sizes, src, opt, spec)
	lm := rep.Load
	perMachine := lm.Plain * float64(n)
	if !(lm.Plain <= cluster.AutoLoad+1e-6) || !(perMachine/float64(n-1) > cluster.AutoLoad-1e-6 || n == 1) {
		t.Errorf("%d machines: load %v; want the fewest machines at load ≤ %v", n, lm.Plain, cluster.AutoLoad)
	}
	if math.Abs(lm.Lambda*lm.Plain-1) > 1e-6 {
		t.Errorf("λ × load = %v, want 1", lm.Lambda*lm.Plain)
	}
	if today := rep.Headroom.Replays[0]; today.Overloaded == (lm.Lambda > 1) {
		t.Errorf("λ = %v but the replay at today's rate: overloaded %v (%.3g unfinished)", lm.Lambda, today.Overloaded, today.Unfinished)
	}
	t3, err := cluster.LoadSpec(cluster.Table3Name)
	if err != nil || t3.Name != "coshh-table3" || len(t3.Resources) != 6 {
		t.Errorf("LoadSpec(%q) = %v, %v; want Table 3", cluster.Table3Name, t3, err)
	}
}

// SizesNote says whether the loads are measured or an assumption: sizes
// from bytes are normalised to --load (with how to calibrate it); a size
// column or task-seconds are measured and not normalised.
func TestSizesNote(t *testing.T) {
	for _, tc := range []struct {
		src  estimate.Source
		opt  estimate.SizeOptions
		want []string
	}{
		{estimate.FromBytes, estimate.SizeOptions{Load: 0.8}, []string{"normalised", "0.8 (--load)", "ASSUMPTION", "calibrate", "observed utilisation"}},
		{estimate.FromTaskSeconds, estimate.DefaultSizeOptions(), []string{"measured from the log's task_seconds", "no --load normalisation"}},
		{estimate.FromSize, estimate.DefaultSizeOptions(), []string{"measured from the log's size", "no --load normalisation"}},
		{estimate.FromSize, estimate.SizeOptions{Load: 0.5, NormaliseAll: true}, []string{"normalised to load 0.5", "an assumption"}},
	} {
		got := tasklevel.SizesNote(tc.src, tc.opt)
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("SizesNote(%s, %+v) = %q, lacks %q", tc.src, tc.opt, got, w)
			}
		}
	}
}
