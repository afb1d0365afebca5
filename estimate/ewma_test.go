package estimate_test

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/schedplan/schedplan/estimate"
)

// stageRun runs the tasks of one stage of a job (durations d, in seconds)
// on p slots from time t0, greedily in task order, reporting each running
// task's progress (linear in time: noise-free) every h seconds at the
// multiples of h, and calls after(k, t) after the k-th task finish.
// It returns the time the last task finishes.
func stageRun(t *testing.T, e *estimate.ProgressEstimator, job, stage int, d []float64, p int, h, t0 float64, after func(k int, now float64)) float64 {
	t.Helper()
	start := make([]float64, len(d))
	running := []int{}
	next, now, finished := 0, t0, 0
	launch := func() {
		for len(running) < p && next < len(d) {
			start[next] = now
			if err := e.TaskStarted(job, stage, next, now); err != nil {
				t.Fatal(err)
			}
			running = append(running, next)
			next++
		}
	}
	launch()
	hb := (math.Floor(t0/h) + 1) * h
	for len(running) > 0 {
		// The earliest finish, ties to the lower task.
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
			for i, k := range running {
				if k == first {
					running = append(running[:i], running[i+1:]...)
					break
				}
			}
			finished++
			if after != nil {
				after(finished, now)
			}
			launch()
			continue
		}
		now = hb
		for _, k := range running {
			if err := e.ObserveProgress(job, stage, k, (now-start[k])/d[k], now); err != nil {
				t.Fatal(err)
			}
		}
		hb += h
	}
	return now
}

func newEstimator(t *testing.T, cfg estimate.ProgressConfig, n int) *estimate.ProgressEstimator {
	t.Helper()
	e, err := estimate.NewProgressEstimator(cfg, n)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func near(a, b, rel float64) bool {
	return math.Abs(a-b) <= rel*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

// Seed 002 eq. 1–5 with noise-free progress: all tasks of a stage take the
// same time, progress is linear, so every sample is that time and, from
// the first finished task on, the estimate is exact, and so is eq. 5's
// remaining time.
func TestProgressNoiseFree(t *testing.T) {
	const mapT, redT, slots, h = 7.0, 23.0, 3, 2.5
	mapD := []float64{mapT, mapT, mapT, mapT, mapT, mapT, mapT, mapT, mapT, mapT}
	redD := []float64{redT, redT, redT, redT}
	e := newEstimator(t, estimate.ProgressConfig{Default: []float64{100, 200}, Slots: []float64{slots, slots}}, 1)
	if err := e.AddJob(0, []int{len(mapD), len(redD)}); err != nil {
		t.Fatal(err)
	}
	// Before any report: eq. 18 with the defaults.
	if w := e.Remaining(0); w != 10*100/3.0+4*200/3.0 {
		t.Errorf("default remaining %v", w)
	}
	mapEnd := stageRun(t, e, 0, 0, mapD, slots, h, 0, func(k int, now float64) {
		if got := e.TaskTime(0, 0); !near(got, mapT, 1e-12) {
			t.Errorf("after %d map tasks: map task time %v, want %v", k, got, mapT)
		}
		// Before the reduce stage runs, its estimate is the map stage's
		// (seed 002 §II.B).
		if got := e.TaskTime(0, 1); !near(got, mapT, 1e-12) {
			t.Errorf("after %d map tasks: reduce task time %v, want the map's %v", k, got, mapT)
		}
		// At a finish time every task of the wave has run the same time:
		// the remaining work of the running ones is in P.
		if k%slots == 0 {
			want := (float64(len(mapD)-k)*mapT + float64(len(redD))*mapT) / slots
			if got := e.Remaining(0); !near(got, want, 1e-12) {
				t.Errorf("after %d map tasks: remaining %v, want %v", k, got, want)
			}
		}
	})
	stageRun(t, e, 0, 1, redD, slots, h, mapEnd, func(k int, now float64) {
		if got := e.TaskTime(0, 1); !near(got, redT, 1e-12) {
			t.Errorf("after %d reduce tasks: reduce task time %v, want %v", k, got, redT)
		}
	})
	if w := e.Remaining(0); w != 0 {
		t.Errorf("finished job: remaining %v", w)
	}
	if got := e.StageProgress(0, 1); got != 1 {
		t.Errorf("finished reduce stage: progress %v", got)
	}
}

// Eq. 5 between finishes: with the exact task time, the remaining time is
// the true remaining work (running tasks' remaining parts included) over
// the slots.
func TestProgressRemainingMidStage(t *testing.T) {
	e := newEstimator(t, estimate.ProgressConfig{Slots: []float64{2}}, 1)
	if err := e.AddJob(0, []int{4}); err != nil {
		t.Fatal(err)
	}
	// Tasks 0 and 1 run from 0 (10 s each); at 4 s both are at 0.4 and
	// make a sample of 8 s busy / 0.8 task = 10 s.
	for k := 0; k < 2; k++ {
		if err := e.TaskStarted(0, 0, k, 0); err != nil {
			t.Fatal(err)
		}
	}
	for k := 0; k < 2; k++ {
		if err := e.ObserveProgress(0, 0, k, 0.4, 4); err != nil {
			t.Fatal(err)
		}
	}
	if got := e.TaskTime(0, 0); got != 10 {
		t.Errorf("task time %v, want 10", got)
	}
	// Remaining: 4 tasks × (1 − 0.2) × 10 s / 2 slots = 16 s; truly 2 ×
	// 6 s + 2 × 10 s = 32 task-seconds over 2 slots.
	if got := e.Remaining(0); !near(got, 16, 1e-15) {
		t.Errorf("remaining %v, want 16", got)
	}
	if got := e.StageProgress(0, 0); !near(got, 0.2, 1e-15) {
		t.Errorf("progress %v, want 0.2", got)
	}
}

// With noisy task times (seed 002 Fig. 5: N(10, 2.236) seconds), the
// error of the EWMA estimate of a job's task time shrinks as its tasks
// finish, from the error of the default (eq. 18) down to the EWMA's floor.
func TestProgressNoisyConverges(t *testing.T) {
	const jobs, tasks, slots, mu, sd = 400, 60, 4, 10.0, 2.236
	checkpoints := []int{1, 4, 12, 40}
	errSum := make([]float64, len(checkpoints))
	signed := make([]float64, len(checkpoints))
	defErr := 0.0
	rng := rand.New(rand.NewPCG(2, 2013))
	e := newEstimator(t, estimate.ProgressConfig{Default: []float64{25}}, jobs)
	for j := 0; j < jobs; j++ {
		d := make([]float64, tasks)
		for k := range d {
			d[k] = math.Max(0.5, mu+sd*rng.NormFloat64())
		}
		if err := e.AddJob(j, []int{tasks}); err != nil {
			t.Fatal(err)
		}
		defErr += math.Abs(e.TaskTime(j, 0)-mu) / mu
		stageRun(t, e, j, 0, d, slots, 1, 1000*float64(j), func(k int, _ float64) {
			for c, at := range checkpoints {
				if k == at {
					rel := (e.TaskTime(j, 0) - mu) / mu
					errSum[c] += math.Abs(rel)
					signed[c] += rel
				}
			}
		})
		// The default pool only changes with removed jobs: keep the first
		// jobs' defaults at the configured 25 s.
	}
	prev := defErr / jobs
	t.Logf("mean relative error of the task time: default %.4f", prev)
	for c, at := range checkpoints {
		m := errSum[c] / jobs
		t.Logf("after %d finished tasks: %.4f (mean signed %+.4f)", at, m, signed[c]/jobs)
		if at >= 12 && math.Abs(signed[c]/jobs) > 0.01 {
			t.Errorf("after %d finished tasks the estimate is biased by %+.4f", at, signed[c]/jobs)
		}
		if !(m < prev) {
			t.Errorf("error after %d finished tasks %.4f is not below the previous %.4f", at, m, prev)
		}
		prev = m
	}
	// The floor: a sample spans about 1.2 tasks of progress of the 4
	// running ones, the EWMA weighs about 9 samples; a single task's
	// relative sd is 0.22.
	if prev > 0.06 {
		t.Errorf("error after %d tasks %.4f, want ≤ 0.06", checkpoints[len(checkpoints)-1], prev)
	}
}

// Eq. 18 by hand: a job without samples gets N(T)·Avg_Def/N(S) per stage;
// the defaults come from the configuration until a job finishes, then
// from the mean duration of the finished jobs' tasks.
func TestProgressDefaultEq18(t *testing.T) {
	e := newEstimator(t, estimate.ProgressConfig{Default: []float64{4, 9}, Slots: []float64{2, 3}, MinRemaining: 0.5}, 3)
	for j := 0; j < 3; j++ {
		if err := e.AddJob(j, []int{10, 6}); err != nil {
			t.Fatal(err)
		}
	}
	if got := e.Remaining(0); got != 10*4/2.0+6*9/3.0 {
		t.Errorf("eq. 18 with configured defaults: %v, want 38", got)
	}
	// Job 0 finishes two map tasks (2 s and 4 s) and one reduce task (6 s)
	// and leaves.
	steps := []struct {
		stage, task int
		start, end  float64
	}{{0, 0, 0, 2}, {0, 1, 0, 4}, {1, 0, 4, 10}}
	for _, s := range steps {
		if err := e.TaskStarted(0, s.stage, s.task, s.start); err != nil {
			t.Fatal(err)
		}
		if err := e.TaskFinished(0, s.stage, s.task, s.end); err != nil {
			t.Fatal(err)
		}
	}
	e.RemoveJob(0)
	if got := e.DefaultTaskTime(0); got != 3 {
		t.Errorf("map default %v, want 3", got)
	}
	if got := e.DefaultTaskTime(1); got != 6 {
		t.Errorf("reduce default %v, want 6", got)
	}
	if got := e.Remaining(1); got != 10*3/2.0+6*6/3.0 {
		t.Errorf("eq. 18 with the finished job's tasks: %v, want 27", got)
	}
	// A stage without a configured default and without finished jobs
	// counts 0; w_min floors the estimate (eq. 5).
	e2 := newEstimator(t, estimate.ProgressConfig{MinRemaining: 0.5}, 1)
	if err := e2.AddJob(0, []int{3}); err != nil {
		t.Fatal(err)
	}
	if got := e2.Remaining(0); got != 0.5 {
		t.Errorf("no default: remaining %v, want w_min 0.5", got)
	}
}

// A reduce task launched before the map stage ends (slow start) waits in
// the shuffle: its reports make no sample until every map task has
// finished and it has reported once more (seed 002 §II.B).
func TestProgressSlowStartReduce(t *testing.T) {
	e := newEstimator(t, estimate.ProgressConfig{}, 1)
	if err := e.AddJob(0, []int{1, 1}); err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(e.TaskStarted(0, 0, 0, 0))
	must(e.TaskStarted(0, 1, 0, 1))
	must(e.ObserveProgress(0, 1, 0, 0.2, 5)) // shuffle: 0.2 in 4 s
	must(e.ObserveProgress(0, 0, 0, 0.5, 5)) // map: 10 s a task
	if got := e.Samples(0, 1); got != 0 {
		t.Errorf("reduce samples during the map stage: %d", got)
	}
	if got := e.TaskTime(0, 1); got != 10 {
		t.Errorf("reduce task time during the map stage %v, want the map's 10", got)
	}
	must(e.TaskFinished(0, 0, 0, 10))
	must(e.ObserveProgress(0, 1, 0, 0.3, 12)) // rebase
	if got := e.Samples(0, 1); got != 0 {
		t.Errorf("reduce samples at the rebase: %d", got)
	}
	must(e.ObserveProgress(0, 1, 0, 0.5, 16)) // 0.2 in 4 s: 20 s a task
	if got := e.TaskTime(0, 1); got != 20 {
		t.Errorf("reduce task time %v, want 20", got)
	}
	// A restart takes the lost progress back without a sample.
	must(e.ObserveProgress(0, 1, 0, 0, 17))
	if got, n := e.StageProgress(0, 1), e.Samples(0, 1); got != 0 || n != 1 {
		t.Errorf("after a restart: progress %v, samples %d", got, n)
	}
}

// A stage samples only once ΔP reaches MinDelta of its tasks.
func TestProgressMinDelta(t *testing.T) {
	e := newEstimator(t, estimate.ProgressConfig{MinDelta: 0.02}, 1)
	if err := e.AddJob(0, []int{200}); err != nil { // 4 tasks of progress a sample
		t.Fatal(err)
	}
	for k := 0; k < 2; k++ {
		if err := e.TaskStarted(0, 0, k, 0); err != nil {
			t.Fatal(err)
		}
	}
	for k := 0; k < 2; k++ {
		if err := e.TaskFinished(0, 0, k, 5); err != nil {
			t.Fatal(err)
		}
	}
	if n := e.Samples(0, 0); n != 0 {
		t.Errorf("2 tasks of progress made %d samples, want 0", n)
	}
	for k := 2; k < 4; k++ {
		if err := e.TaskStarted(0, 0, k, 5); err != nil {
			t.Fatal(err)
		}
		if err := e.TaskFinished(0, 0, k, 12); err != nil {
			t.Fatal(err)
		}
	}
	if n, got := e.Samples(0, 0), e.TaskTime(0, 0); n != 1 || got != 6 {
		t.Errorf("4 tasks of progress: %d samples, task time %v, want 1 and 6", n, got)
	}
}

func TestProgressBadInput(t *testing.T) {
	for _, tc := range []struct {
		cfg  estimate.ProgressConfig
		want string
	}{
		{estimate.ProgressConfig{Alpha: 1}, "alpha 1"},
		{estimate.ProgressConfig{Alpha: math.NaN()}, "alpha NaN"},
		{estimate.ProgressConfig{MinDelta: 2}, "min delta 2"},
		{estimate.ProgressConfig{MinRemaining: math.Inf(1)}, "min remaining +Inf"},
		{estimate.ProgressConfig{Slots: []float64{4, 0}}, "stage 1: slots 0"},
		{estimate.ProgressConfig{Default: []float64{-1}}, "stage 0: default task time -1"},
	} {
		if _, err := estimate.NewProgressEstimator(tc.cfg, 1); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want %q", tc.cfg, err, tc.want)
		}
	}
	e := newEstimator(t, estimate.ProgressConfig{}, 2)
	if err := e.AddJob(0, []int{2}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		err  error
		want string
	}{
		{e.AddJob(0, []int{1}), "job 0 added twice"},
		{e.AddJob(2, []int{1}), "job 2 is not in 0..1"},
		{e.AddJob(1, nil), "job 1 has no stage"},
		{e.AddJob(1, []int{-3}), "stage 0 has -3 tasks"},
		{e.TaskStarted(1, 0, 0, 0), "job 1 is not registered"},
		{e.TaskStarted(0, 1, 0, 0), "stage 1 is not in 0..0"},
		{e.TaskStarted(0, 0, 2, 0), "task 2 is not in 0..1"},
		{e.TaskStarted(0, 0, 0, math.NaN()), "report time NaN"},
		{e.ObserveProgress(0, 0, 0, 1.5, 1), "progress 1.5 is not in [0, 1]"},
		{e.TaskFinished(0, 0, 1, 3), "finished without being started"},
	} {
		if tc.err == nil || !strings.Contains(tc.err.Error(), tc.want) {
			t.Errorf("error %v, want %q", tc.err, tc.want)
		}
	}
	if err := e.TaskStarted(0, 0, 0, 10); err != nil {
		t.Fatal(err)
	}
	if err := e.ObserveProgress(0, 0, 0, 0.5, 9); err == nil || !strings.Contains(err.Error(), "before the previous one") {
		t.Errorf("report back in time: %v", err)
	}
	if err := e.TaskFinished(0, 0, 0, 12); err != nil {
		t.Fatal(err)
	}
	if err := e.TaskFinished(0, 0, 0, 13); err == nil || !strings.Contains(err.Error(), "finished twice") {
		t.Errorf("double finish: %v", err)
	}
	if err := e.ObserveProgress(0, 0, 0, 0.5, 14); err == nil || !strings.Contains(err.Error(), "after the task finished") {
		t.Errorf("report after finish: %v", err)
	}
	if !math.IsNaN(e.Remaining(1)) || !math.IsNaN(e.TaskTime(0, 5)) || !math.IsNaN(e.StageProgress(-1, 0)) {
		t.Error("unknown job or stage did not give NaN")
	}
}

// BenchmarkProgressEstimator measures one heartbeat report of a running
// task plus the job's eq. 5 remaining time (ns/report), with 1,000 jobs
// of 200 map and 50 reduce tasks.
func BenchmarkProgressEstimator(b *testing.B) {
	const jobs, maps, reds = 1000, 200, 50
	e, err := estimate.NewProgressEstimator(estimate.ProgressConfig{Default: []float64{10, 30}, Slots: []float64{400, 400}}, jobs)
	if err != nil {
		b.Fatal(err)
	}
	for j := 0; j < jobs; j++ {
		if err := e.AddJob(j, []int{maps, reds}); err != nil {
			b.Fatal(err)
		}
		for k := 0; k < maps; k++ {
			if err := e.TaskStarted(j, 0, k, 0); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ResetTimer()
	w := 0.0
	for i := 0; i < b.N; i++ {
		j, k := i%jobs, (i/jobs)%maps
		now := float64(1 + i/(jobs*maps))
		if err := e.ObserveProgress(j, 0, k, math.Min(now/1e6, 1), now); err != nil {
			b.Fatal(err)
		}
		w += e.Remaining(j)
	}
	if math.IsNaN(w) {
		b.Fatal("NaN remaining time")
	}
}
