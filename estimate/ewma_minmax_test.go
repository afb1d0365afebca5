package estimate

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestBuiltinMinMaxMatchMath checks where the builtin min and max, which
// ProgressEstimator uses instead of math.Min and math.Max (assembly calls
// on amd64, never inlined), give the same bits: whenever one argument is
// finite (NaN from the other side and −0 against +0 included). They differ
// only on NaN against the infinity that wins: math.Max(NaN, +Inf) is +Inf
// (math.Max's special case), max(NaN, +Inf) is NaN; likewise min with
// −Inf. Every call in the estimator has a finite argument (a count, 0, 1,
// alpha, MinRemaining, which Reset checks).
func TestBuiltinMinMaxMatchMath(t *testing.T) {
	negZero := math.Copysign(0, -1)
	vals := []float64{math.NaN(), negZero, 0, 1, -1, math.Inf(1), math.Inf(-1), math.SmallestNonzeroFloat64, -math.MaxFloat64, 0.5}
	r := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		vals = append(vals, r.NormFloat64()*1e3)
	}
	same := func(a, b float64) bool {
		return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
	}
	finite := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	for _, a := range vals {
		for _, b := range vals {
			if !finite(a) && !finite(b) {
				continue
			}
			if got, want := max(a, b), math.Max(a, b); !same(got, want) {
				t.Fatalf("max(%v, %v) = %v, math.Max = %v", a, b, got, want)
			}
			if got, want := min(a, b), math.Min(a, b); !same(got, want) {
				t.Fatalf("min(%v, %v) = %v, math.Min = %v", a, b, got, want)
			}
		}
	}
	// The one difference, pinned so that a change of either shows.
	if nan, inf := math.NaN(), math.Inf(1); !math.IsNaN(max(nan, inf)) || math.Max(nan, inf) != inf {
		t.Errorf("max(NaN, +Inf) = %v, math.Max = %v; want NaN and +Inf", max(nan, inf), math.Max(nan, inf))
	}
}

// refRemaining is Remaining before it walked the stages once: each stage's
// average through TaskTime, math.Max (the reference of
// TestRemainingMatchesReference).
func refRemaining(e *ProgressEstimator, job int) float64 {
	if job < 0 || job >= len(e.jobs) || e.jobs[job] == nil {
		return math.NaN()
	}
	w, all := 0.0, true
	for s := range e.jobs[job].stages {
		st := &e.jobs[job].stages[s]
		if st.finished < st.n {
			all = false
		}
		left := math.Max(float64(st.n)-st.done, 0)
		if left == 0 {
			continue
		}
		slots := 1.0
		if s < len(e.slots) {
			slots = e.slots[s]
		}
		w += left * e.TaskTime(job, s) / slots
	}
	if all {
		return 0
	}
	return math.Max(w, e.minRem)
}

// refStageProgress is StageProgress with math.Min and math.Max.
func refStageProgress(e *ProgressEstimator, job, stage int) float64 {
	if job < 0 || job >= len(e.jobs) || e.jobs[job] == nil || stage < 0 || stage >= len(e.jobs[job].stages) {
		return math.NaN()
	}
	st := &e.jobs[job].stages[stage]
	if st.n == 0 {
		return 1
	}
	return math.Min(math.Max(st.done/float64(st.n), 0), 1)
}

// TestRemainingMatchesReference drives estimators with random reports
// (per-task and stage-level, restarts, removals, stages without tasks and
// with several stages, slots and defaults or none) and checks after every
// report that Remaining and StageProgress give the reference's bits for
// every job and stage, unknown ones included.
func TestRemainingMatchesReference(t *testing.T) {
	same := func(a, b float64) bool {
		return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
	}
	for seed := range uint64(40) {
		r := rand.New(rand.NewPCG(seed, 7))
		const n = 6
		cfg := ProgressConfig{MinRemaining: float64(r.IntN(3))}
		if r.IntN(2) == 0 {
			cfg.Slots = []float64{1 + r.Float64()*9, 2}
		}
		if r.IntN(2) == 0 {
			cfg.Default = []float64{r.Float64() * 50}
		}
		e, err := NewProgressEstimator(cfg, n)
		if err != nil {
			t.Fatal(err)
		}
		tasks := make([][]int, n)
		agg := make([][]bool, n)
		prog := make([][][]float64, n) // last progress per task, −1 idle, 2 finished
		now := 0.0
		for step := range 3000 {
			now += r.Float64() * 3
			j := r.IntN(n)
			if tasks[j] == nil {
				tasks[j] = make([]int, 1+r.IntN(3))
				agg[j] = make([]bool, len(tasks[j]))
				prog[j] = make([][]float64, len(tasks[j]))
				for s := range tasks[j] {
					tasks[j][s] = r.IntN(5) // 0: a stage without tasks
					agg[j][s] = r.IntN(2) == 0
					prog[j][s] = make([]float64, tasks[j][s])
					for k := range prog[j][s] {
						prog[j][s][k] = -1
					}
				}
				if err := e.AddJob(j, tasks[j]); err != nil {
					t.Fatal(err)
				}
			} else if r.IntN(60) == 0 {
				e.RemoveJob(j)
				tasks[j] = nil
			} else {
				s := r.IntN(len(tasks[j]))
				if tasks[j][s] > 0 {
					k := r.IntN(tasks[j][s])
					p := &prog[j][s][k]
					switch {
					case *p < 0 || *p == 2 && r.IntN(20) == 0:
						err = e.TaskStarted(j, s, k, now)
						*p = 0
					case *p == 2:
					case r.IntN(4) == 0:
						err = e.TaskFinished(j, s, k, now)
						*p = 2
					case agg[j][s]:
						sum := 0.0
						for _, q := range prog[j][s] {
							sum += min(max(q, 0), 1)
						}
						err = e.ObserveStage(j, s, sum/float64(tasks[j][s]), now)
					default:
						*p = min(1, *p+r.Float64()*0.4)
						if r.IntN(30) == 0 {
							*p = r.Float64() * *p // a restart
						}
						err = e.ObserveProgress(j, s, k, *p, now)
					}
					if err != nil {
						t.Fatalf("seed %d step %d: %v", seed, step, err)
					}
				}
			}
			for job := -1; job <= n; job++ {
				if got, want := e.Remaining(job), refRemaining(e, job); !same(got, want) {
					t.Fatalf("seed %d step %d: Remaining(%d) = %v, reference %v", seed, step, job, got, want)
				}
				for s := -1; s <= 3; s++ {
					if got, want := e.StageProgress(job, s), refStageProgress(e, job, s); !same(got, want) {
						t.Fatalf("seed %d step %d: StageProgress(%d, %d) = %v, reference %v", seed, step, job, s, got, want)
					}
				}
			}
		}
	}
}

// BenchmarkRemaining compares Remaining and StageProgress with their
// references (math.Max and math.Min calls, TaskTime per stage) on 1,000
// two-stage jobs of 40 tasks, half sampled: run with -bench Remaining.
func BenchmarkRemaining(b *testing.B) {
	const n = 1000
	e, err := NewProgressEstimator(ProgressConfig{Default: []float64{30, 60}, Slots: []float64{100, 100}}, n)
	if err != nil {
		b.Fatal(err)
	}
	for j := range n {
		if err := e.AddJob(j, []int{30, 10}); err != nil {
			b.Fatal(err)
		}
		for k := range 30 * (j % 2) {
			if err := e.TaskStarted(j, 0, k, 0); err != nil {
				b.Fatal(err)
			}
			if err := e.TaskFinished(j, 0, k, float64(10+k)); err != nil {
				b.Fatal(err)
			}
		}
	}
	sink := 0.0
	for _, c := range []struct {
		name      string
		rem       func(int) float64
		stageProg func(int, int) float64
	}{
		{"old", func(j int) float64 { return refRemaining(e, j) }, func(j, s int) float64 { return refStageProgress(e, j, s) }},
		{"new", e.Remaining, e.StageProgress},
	} {
		b.Run(c.name, func(b *testing.B) {
			for i := range b.N {
				j := i % n
				sink += c.rem(j) + c.stageProg(j, 0) + c.stageProg(j, 1)
			}
		})
	}
	_ = sink
}
