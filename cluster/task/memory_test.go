package task

import (
	"fmt"
	"math"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"github.com/schedplan/schedplan/cluster/sim"
)

// TestStageStateSize guards the per-stage state's size: a simulator keeps
// one stageRT per stage of its window (hundreds of thousands) between runs,
// and the deferred and preempted tasks most stages never have are kept
// aside (stageExt) rather than as two slice headers in every stage.
func TestStageStateSize(t *testing.T) {
	if got := unsafe.Sizeof(stageRT{}); got > 80 {
		t.Errorf("stageRT is %d B, want at most 80", got)
	}
	if got := unsafe.Sizeof(jobRT{}); got > 80 {
		t.Errorf("jobRT is %d B, want at most 80", got)
	}
	// No pointers: the garbage collector need not scan a run's stages
	// (23 MB of them per worker in validate's task level at 1 M jobs).
	if typ := reflect.TypeOf(stageRT{}); hasPointers(typ) {
		t.Errorf("stageRT holds a pointer: the collector scans every stage")
	}
}

// hasPointers reports whether values of t hold pointers.
func hasPointers(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map, reflect.String, reflect.Interface, reflect.Chan, reflect.Func, reflect.UnsafePointer:
		return true
	case reflect.Array:
		return t.Len() > 0 && hasPointers(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if hasPointers(t.Field(i).Type) {
				return true
			}
		}
	}
	return false
}

// TestCheckJobsBoundsJobContainers checks that a job whose tasks need
// more containers in all than the simulator's int32 counts hold is
// refused, naming the task that passes the bound.
func TestCheckJobsBoundsJobContainers(t *testing.T) {
	cl := &Cluster{Types: []MachineType{{Name: "m", Count: 1, Containers: MaxContainers, ExecRate: 1}}}
	n := MaxJobContainers/MaxContainers + 1
	tasks := make([]TaskSpec, n)
	for i := range tasks {
		tasks[i] = TaskSpec{Duration: 1, Containers: MaxContainers}
	}
	jobs := []Job{{Stages: []Stage{{Tasks: tasks[:n-1]}}}}
	if err := CheckJobs(jobs, cl); err != nil {
		t.Fatalf("%d containers: %v", (n-1)*MaxContainers, err)
	}
	jobs[0].Stages = append(jobs[0].Stages, Stage{Tasks: tasks[n-1:]})
	err := CheckJobs(jobs, cl)
	if want := fmt.Sprintf("job 1 stage 2 task 1: more than %d containers", MaxJobContainers); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("CheckJobs = %v, want an error saying %q", err, want)
	}
}

// TestCheckJobsFluidInChunks checks that CheckJobs gives the fluid core's
// verdict and message on the jobs' fluid view, also for a job out of
// order at a chunk's first position, without converting every job at once.
func TestCheckJobsFluidInChunks(t *testing.T) {
	cl := &Cluster{Types: []MachineType{{Name: "m", Count: 2, Containers: 4, ExecRate: 1}}}
	n := 3*checkFluidChunk + 7
	good := func() []Job {
		jobs := make([]Job, n)
		for i := range jobs {
			jobs[i] = Job{Arrival: float64(i), Estimate: 1, Stages: []Stage{{Tasks: []TaskSpec{{Duration: 1, Containers: 1}}}}}
		}
		return jobs
	}
	for _, c := range []struct {
		name  string
		spoil func([]Job)
	}{
		{"valid", func([]Job) {}},
		{"out of order at a chunk's start", func(j []Job) { j[checkFluidChunk].Arrival = j[checkFluidChunk-1].Arrival - 0.5 }},
		{"out of order inside a chunk", func(j []Job) { j[2*checkFluidChunk+3].Arrival = 0 }},
		{"estimate NaN in the last chunk", func(j []Job) { j[n-1].Estimate = math.NaN() }},
		{"weight infinite first", func(j []Job) { j[0].Weight = math.Inf(1) }},
	} {
		jobs := good()
		c.spoil(jobs)
		want := sim.CheckJobs(FluidJobs(jobs))
		got := CheckJobs(jobs, cl)
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: CheckJobs = %v, want %v", c.name, got, want)
		}
	}
	jobs := good()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	if err := CheckJobs(jobs, cl); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if got, whole := after.TotalAlloc-before.TotalAlloc, uint64(n)*uint64(unsafe.Sizeof(sim.Job{})); got >= whole/2 {
		t.Errorf("CheckJobs of %d jobs allocated %d B, want well under a fluid copy of them all (%d B)", n, got, whole)
	}
}

// TestCheckJobsOfOneJobIsSmall checks that CheckJobs of a single job (what
// AloneTimes checks, once per job) converts one job, not a whole chunk's
// room: with 1,025 jobs' room a tune-deploy at 1 M jobs spent a fifth of its
// CPU clearing that memory.
func TestCheckJobsOfOneJobIsSmall(t *testing.T) {
	cl := &Cluster{Types: []MachineType{{Name: "m", Count: 2, Containers: 4, ExecRate: 1}}}
	jobs := []Job{{Arrival: 1, Estimate: 1, Stages: []Stage{{Tasks: []TaskSpec{{Duration: 1, Containers: 1}}}}}}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range 100 {
		if err := CheckJobs(jobs, cl); err != nil {
			t.Fatal(err)
		}
	}
	runtime.ReadMemStats(&after)
	if got, chunk := (after.TotalAlloc-before.TotalAlloc)/100, uint64(checkFluidChunk)*uint64(unsafe.Sizeof(sim.Job{})); got >= chunk/8 {
		t.Errorf("CheckJobs of one job allocated %d B a call, want far less than a chunk's room (%d B)", got, chunk)
	}
}
