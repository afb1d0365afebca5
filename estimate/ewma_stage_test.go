package estimate_test

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/schedplan/schedplan/estimate"
)

// stageRunAgg runs one stage's tasks (durations d, s) on p slots from t0
// as stageRun does, but reports the stage's progress (the mean of its
// tasks' done fractions, linear in time: noise-free) by ObserveStage after
// every task start and finish and every h seconds at the multiples of h,
// calling report(now) after each heartbeat report and after(k, now) after
// the k-th finish. It returns the time the last task finishes.
func stageRunAgg(t *testing.T, e *estimate.ProgressEstimator, job, stage int, d []float64, p int, h, t0 float64,
	report func(now float64), after func(k int, now float64)) float64 {
	t.Helper()
	start := make([]float64, len(d))
	done := make([]bool, len(d))
	running := []int{}
	next, now, finished := 0, t0, 0
	progress := func() float64 {
		s := 0.0
		for k := 0; k < next; k++ {
			if done[k] {
				s++
			} else {
				s += (now - start[k]) / d[k]
			}
		}
		return s / float64(len(d))
	}
	obs := func() {
		if err := e.ObserveStage(job, stage, progress(), now); err != nil {
			t.Fatal(err)
		}
	}
	launch := func() {
		for len(running) < p && next < len(d) {
			start[next] = now
			if err := e.TaskStarted(job, stage, next, now); err != nil {
				t.Fatal(err)
			}
			running = append(running, next)
			next++
			obs()
		}
	}
	launch()
	hb := (math.Floor(t0/h) + 1) * h
	for len(running) > 0 {
		first := -1
		for _, k := range running {
			if first < 0 || start[k]+d[k] < start[first]+d[first] {
				first = k
			}
		}
		if f := start[first] + d[first]; f <= hb {
			now = f
			if err := e.TaskFinished(job, stage, first, now); err != nil {
				t.Fatal(err)
			}
			done[first] = true
			for i, k := range running {
				if k == first {
					running = append(running[:i], running[i+1:]...)
					break
				}
			}
			obs()
			finished++
			if after != nil {
				after(finished, now)
			}
			launch()
			continue
		}
		now = hb
		obs()
		if report != nil {
			report(now)
		}
		hb += h
	}
	return now
}

// Stage-level reports with noise-free progress (issue 14): the estimate
// equals the true task time after the first heartbeat report, long before
// the first task finishes, and eq. 5's remaining time is then the true
// remaining work over the slots.
func TestStageReportsNoiseFree(t *testing.T) {
	const mapT, redT, slots, h = 50.0, 80.0, 4, 3.0
	mapD := make([]float64, 12)
	for k := range mapD {
		mapD[k] = mapT
	}
	redD := []float64{redT, redT, redT}
	e := newEstimator(t, estimate.ProgressConfig{Default: []float64{5, 5}, Slots: []float64{slots, slots}}, 1)
	if err := e.AddJob(0, []int{len(mapD), len(redD)}); err != nil {
		t.Fatal(err)
	}
	reports := 0
	mapEnd := stageRunAgg(t, e, 0, 0, mapD, slots, h, 0, func(now float64) {
		reports++
		if got := e.TaskTime(0, 0); !near(got, mapT, 1e-9) {
			t.Errorf("map report at %v s: task time %v s, want %v s", now, got, mapT)
		}
		// Every running task has run as long as the others of its wave.
		want := (float64(len(mapD))*(1-e.StageProgress(0, 0))*mapT + float64(len(redD))*mapT) / slots
		if got := e.Remaining(0); !near(got, want, 1e-9) {
			t.Errorf("map report at %v s: remaining %v s, want %v s", now, got, want)
		}
	}, nil)
	if reports < 10 {
		t.Fatalf("%d map reports", reports)
	}
	// The reduce stage: its own estimate from its first report on.
	first := true
	stageRunAgg(t, e, 0, 1, redD, slots, h, mapEnd, func(now float64) {
		if got := e.TaskTime(0, 1); first && !near(got, redT, 1e-9) {
			t.Errorf("first reduce report at %v s: task time %v s, want %v s", now, got, redT)
		}
		first = false
	}, nil)
	if w := e.Remaining(0); w != 0 {
		t.Errorf("finished job: remaining %v", w)
	}
}

// Stage-level reports with noisy task times: the EWMA's error shrinks as
// the stage's tasks finish (mean over 30 jobs of the absolute relative
// error of the task time against the true mean, at the first heartbeat
// report against after all but the last wave).
func TestStageReportsNoisyConverge(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 2))
	const n, slots, h = 60, 6, 3.0
	early, late := 0.0, 0.0
	const jobs = 30
	e := newEstimator(t, estimate.ProgressConfig{Default: []float64{1}, Slots: []float64{slots}}, jobs)
	for j := 0; j < jobs; j++ {
		mu := 20 + 80*rng.Float64()
		d := make([]float64, n)
		for k := range d {
			d[k] = max(mu*(1+0.3*rng.NormFloat64()), 0.1*mu)
		}
		if err := e.AddJob(j, []int{n}); err != nil {
			t.Fatal(err)
		}
		mean := 0.0
		for _, x := range d {
			mean += x / n
		}
		first := true
		stageRunAgg(t, e, j, 0, d, slots, h, float64(j)*1e5, func(float64) {
			if first && e.Samples(j, 0) > 0 {
				early += math.Abs(e.TaskTime(j, 0)-mean) / mean / jobs
				first = false
			}
		}, func(k int, now float64) {
			if k == n-slots {
				late += math.Abs(e.TaskTime(j, 0)-mean) / mean / jobs
			}
		})
	}
	t.Logf("mean relative error of the task time at the first sample: %.3f, after %d tasks: %.3f", early, n-slots, late)
	if !(late < 0.8*early) || late > 0.1 {
		t.Errorf("error %.3f at the first sample, %.3f after %d tasks: want it to shrink by 20%% or more, below 0.1", early, late, n-slots)
	}
}

// A later stage's stage reports make no sample while the stage before
// runs; after it finishes the first report is a baseline. Per-task
// progress is refused once the stage reports as a whole; reports do not go
// back in time.
func TestStageReportsRules(t *testing.T) {
	e := newEstimator(t, estimate.ProgressConfig{Default: []float64{10, 10}}, 1)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(e.AddJob(0, []int{1, 1}))
	must(e.TaskStarted(0, 0, 0, 0))
	must(e.TaskStarted(0, 1, 0, 0)) // slow start: the reduce waits in the shuffle
	must(e.ObserveStage(0, 0, 0, 0))
	must(e.ObserveStage(0, 1, 0, 0))
	must(e.ObserveStage(0, 0, 0.5, 5)) // the map: 10 s a task
	must(e.ObserveStage(0, 1, 0.1, 5)) // the shuffle: no sample
	if got := e.Samples(0, 1); got != 0 {
		t.Errorf("reduce samples while the map runs: %d", got)
	}
	if got := e.TaskTime(0, 0); got != 10 {
		t.Errorf("map task time %v, want 10", got)
	}
	must(e.TaskFinished(0, 0, 0, 10))
	must(e.ObserveStage(0, 0, 1, 10))
	must(e.ObserveStage(0, 1, 0.2, 12)) // baseline
	must(e.ObserveStage(0, 1, 0.4, 16)) // 0.2 task in 4 s: 20 s a task
	if got := e.TaskTime(0, 1); got != 20 {
		t.Errorf("reduce task time %v, want 20", got)
	}
	for _, c := range []struct {
		err  error
		want string
	}{
		{e.ObserveProgress(0, 1, 0, 0.5, 17), "per-task progress 0.5 refused"},
		{e.ObserveStage(0, 1, 0.5, 15), "before the previous one"},
		{e.ObserveStage(0, 1, 1.5, 18), "progress 1.5 is not in [0, 1]"},
		{e.ObserveStage(0, 1, 0.5, math.NaN()), "not finite"},
		{e.ObserveStage(0, 2, 0.5, 18), "stage 2 is not in 0..1"},
		{e.ObserveStage(3, 0, 0.5, 18), "job 3 is not registered"},
	} {
		if c.err == nil || !strings.Contains(c.err.Error(), c.want) {
			t.Errorf("error %v, want one with %q", c.err, c.want)
		}
	}
}
