package task

import (
	"math"
	"reflect"
	"strings"
	"testing"
)

func TestSynthesize(t *testing.T) {
	shapes := []Shape{
		// Counts and task-seconds.
		{ID: 7, Arrival: 1, User: "u", Queue: "q", Weight: 2, MapTasks: 50, ReduceTasks: 5, MapSeconds: 500, ReduceSeconds: 100},
		// Task-seconds without counts: ⌈300/60⌉ = 5 maps.
		{Arrival: 2, MapSeconds: 300},
		// Size with counts: one mean duration 1000 / (10·1 + 5·2) = 50 s.
		{Arrival: 3, MapTasks: 10, ReduceTasks: 5, Size: 1000},
		// Size only: round(1000/60) = 17 maps of 1000/17 s.
		{Arrival: 4, Size: 1000},
		// Counts without work: zero-length tasks; nothing at all: no stages.
		{Arrival: 5, MapTasks: 3},
		{Arrival: 6},
	}
	jobs, err := Synthesize(shapes, SynthOptions{Skew: 0.5, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		maps, reds int
		mapS, redS float64
		work       float64
	}
	for i, w := range []want{
		{50, 5, 500, 100, 700},
		{5, 0, 300, 0, 300},
		{10, 5, 500, 250, 1000},
		{17, 0, 1000, 0, 1000},
		{3, 0, 0, 0, 0},
		{0, 0, 0, 0, 0},
	} {
		j := jobs[i]
		if j.Arrival != shapes[i].Arrival || j.ID != shapes[i].ID || j.User != shapes[i].User || j.Queue != shapes[i].Queue || j.Weight != shapes[i].Weight {
			t.Errorf("job %d: fields not carried over: %+v", i+1, j)
		}
		if !near(j.Work(), w.work, 1e-12) || j.Estimate != j.Work() {
			t.Errorf("job %d: work %v (estimate %v), want %v", i+1, j.Work(), j.Estimate, w.work)
		}
		var got want
		for s, st := range j.Stages {
			sum := 0.0
			for _, k := range st.Tasks {
				sum += k.Duration
				if want := []int{1, 2}[s]; k.Containers != want {
					t.Errorf("job %d stage %d: %d containers per task, want %d", i+1, s+1, k.Containers, want)
				}
			}
			if s == 0 {
				got.maps, got.mapS = len(st.Tasks), sum
			} else {
				got.reds, got.redS = len(st.Tasks), sum
			}
		}
		if got.maps != w.maps || got.reds != w.reds || !near(got.mapS, w.mapS, 1e-12) || !near(got.redS, w.redS, 1e-12) {
			t.Errorf("job %d: %d maps (%v s), %d reduces (%v s); want %d (%v s), %d (%v s)", i+1, got.maps, got.mapS, got.reds, got.redS, w.maps, w.mapS, w.reds, w.redS)
		}
	}
	if len(jobs[5].Stages) != 0 {
		t.Errorf("job 6: %d stages, want none", len(jobs[5].Stages))
	}
	// Skew: the tasks differ, with a coefficient of variation near
	// √(e^σ² − 1) = 0.53 for σ = 0.5; σ = 0 gives equal tasks.
	d := jobs[0].Stages[0].Tasks
	m, v := 0.0, 0.0
	for _, k := range d {
		m += k.Duration / float64(len(d))
	}
	for _, k := range d {
		v += (k.Duration - m) * (k.Duration - m) / float64(len(d)-1)
	}
	if cv := math.Sqrt(v) / m; cv < 0.3 || cv > 0.8 {
		t.Errorf("skew 0.5: CV of durations %.2f, want about 0.53", cv)
	}
	flat, _ := Synthesize(shapes[:1], SynthOptions{})
	for _, k := range flat[0].Stages[0].Tasks {
		if !near(k.Duration, 10, 1e-12) {
			t.Fatalf("skew 0: duration %v, want 10", k.Duration)
		}
	}
	// Reproducible by seed, and a job's tasks do not depend on the others.
	again, _ := Synthesize(shapes, SynthOptions{Skew: 0.5, Seed: 3})
	alone, _ := Synthesize(shapes[:1], SynthOptions{Skew: 0.5, Seed: 3})
	other, _ := Synthesize(shapes, SynthOptions{Skew: 0.5, Seed: 4})
	if !reflect.DeepEqual(jobs, again) || !reflect.DeepEqual(jobs[0], alone[0]) || reflect.DeepEqual(jobs[0], other[0]) {
		t.Error("synthesis is not a function of the seed and the job alone")
	}
}

// Bad shapes are errors that name the job; nothing huge is allocated.
func TestSynthesizeErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		sh   Shape
		opt  SynthOptions
	}{
		{"NaN seconds", Shape{MapSeconds: math.NaN()}, SynthOptions{}},
		{"infinite size", Shape{Size: math.Inf(1)}, SynthOptions{}},
		{"negative size", Shape{Size: -1}, SynthOptions{}},
		{"negative count", Shape{MapTasks: -1}, SynthOptions{}},
		{"huge size", Shape{Size: 1e307}, SynthOptions{}},
		{"huge seconds", Shape{ReduceSeconds: 1e300}, SynthOptions{}},
		{"too many tasks", Shape{MapTasks: 200000}, SynthOptions{}},
		{"bad skew", Shape{}, SynthOptions{Skew: math.NaN()}},
		{"bad task seconds", Shape{}, SynthOptions{TaskSeconds: -1}},
	} {
		_, err := Synthesize([]Shape{{Size: 10}, tc.sh}, tc.opt)
		if err == nil {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		if tc.opt == (SynthOptions{}) && !strings.Contains(err.Error(), "job 2") {
			t.Errorf("%s: %v does not name job 2", tc.name, err)
		}
	}
}

// Jobs and clusters that cannot run are errors naming the row.
func TestCheckJobsErrors(t *testing.T) {
	ok := mr(0, 1, 1, 0, 0, 0)
	bad := func(f func(j *Job)) []Job {
		j := mr(1, 2, 1, 1, 1, 2)
		f(&j)
		return []Job{ok, j}
	}
	cl := Uniform(1, 2)
	for _, tc := range []struct {
		name string
		jobs []Job
	}{
		{"unsorted", []Job{mr(5, 1, 1, 0, 0, 0), mr(1, 1, 1, 0, 0, 0)}},
		{"NaN arrival", bad(func(j *Job) { j.Arrival = math.NaN() })},
		{"infinite duration", bad(func(j *Job) { j.Stages[0].Tasks[1].Duration = math.Inf(1) })},
		{"negative duration", bad(func(j *Job) { j.Stages[0].Tasks[1].Duration = -1 })},
		{"no containers", bad(func(j *Job) { j.Stages[1].Tasks[0].Containers = 0 })},
		{"too many containers", bad(func(j *Job) { j.Stages[1].Tasks[0].Containers = 3 })},
		{"NaN estimate", bad(func(j *Job) { j.Estimate = math.NaN() })},
		{"infinite weight", bad(func(j *Job) { j.Weight = math.Inf(-1) })},
	} {
		_, err := Simulate(tc.jobs, cl, &FIFO{}, Options{})
		if err == nil || !strings.Contains(err.Error(), "job 2") {
			t.Errorf("%s: error %v, want one naming job 2", tc.name, err)
		}
	}
	for _, tc := range []struct {
		name string
		cl   Cluster
		opt  Options
	}{
		{"no types", Cluster{}, Options{}},
		{"no machines", Cluster{Types: []MachineType{{Count: 0, Containers: 2, ExecRate: 1}}}, Options{}},
		{"zero rate", Cluster{Types: []MachineType{{Count: 1, Containers: 2}}}, Options{}},
		{"NaN rate", Cluster{Types: []MachineType{{Count: 1, Containers: 2, ExecRate: math.NaN()}}}, Options{}},
		{"too many machines", Cluster{Types: []MachineType{{Count: MaxNodes, Containers: 2, ExecRate: 1}, {Count: 1, Containers: 2, ExecRate: 1}}}, Options{}},
		{"infinite heartbeat", Cluster{Types: []MachineType{{Count: 1, Containers: 2, ExecRate: 1}}, Heartbeat: math.Inf(1)}, Options{}},
		{"slow start above 1", *cl, Options{SlowStart: 1.5}},
		{"NaN slow start", *cl, Options{SlowStart: math.NaN()}},
		{"negative admission limit", *cl, Options{AdmitLimit: -1}},
		{"reduce ramp-up above 1", *cl, Options{SlowStart: 0.5, ReduceRampup: 1.5}},
		{"NaN reduce ramp-up", *cl, Options{SlowStart: 0.5, ReduceRampup: math.NaN()}},
	} {
		if _, err := Simulate([]Job{ok}, &tc.cl, &FIFO{}, tc.opt); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}

// TestSynthesizeAllocatesPerCall checks that Synthesize carves every job's
// stages and tasks from shared arrays and reuses one random source: a
// constant number of allocations per call, not several per job (a
// validation window at 1 M jobs held 12 MB of per-job slices).
func TestSynthesizeAllocatesPerCall(t *testing.T) {
	shapes := make([]Shape, 2000)
	for i := range shapes {
		shapes[i] = Shape{Arrival: float64(i), MapTasks: 1 + i%5, ReduceTasks: i % 3, MapSeconds: 100, ReduceSeconds: float64(i % 3 * 50)}
	}
	var jobs []Job
	allocs := testing.AllocsPerRun(3, func() {
		var err error
		if jobs, err = Synthesize(shapes, SynthOptions{Skew: 0.5, Seed: 3}); err != nil {
			t.Fatal(err)
		}
	})
	if allocs > 10 {
		t.Errorf("Synthesize of %d jobs made %.0f allocations, want a few per call", len(shapes), allocs)
	}
	// A caller's append to a job's stages must not write over the next
	// job's.
	next := jobs[1].Stages[0]
	jobs[0].Stages = append(jobs[0].Stages, Stage{})
	if got := jobs[1].Stages[0]; len(got.Tasks) != len(next.Tasks) || &got.Tasks[0] != &next.Tasks[0] {
		t.Errorf("appending to job 1's stages changed job 2's")
	}
}
