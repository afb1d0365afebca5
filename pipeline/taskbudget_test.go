package pipeline

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedplan/schedplan/pipeline/inputs"
	"github.com/schedplan/schedplan/pipeline/tasklevel"
	"github.com/schedplan/schedplan/pipeline/tunedeploy"
	"github.com/schedplan/schedplan/pipeline/validation"
)

// Every task-level window is bounded in tasks as well as jobs: with small
// task budgets the embedded run's validation table, COSHH's comparison
// and grid, H-PFSP's tuning and tune-deploy's chunks simulate fewer jobs, their tasks within the budgets (or the jobs'
// floors), and the notes say where the validation windows were cut.
func TestTaskWindowsBoundedInTasks(t *testing.T) {
	if testing.Short() {
		t.Skip("a full run")
	}
	set := func(p *int, v int) { old := *p; *p = v; t.Cleanup(func() { *p = old }) }
	set(&validation.TaskValidateMaxTasks, 2000)
	set(&validation.TaskValidateMinJobs, 100)
	set(&validation.COSHHValidateMaxTasks, 1500)
	set(&validation.COSHHValidateMinJobs, 100)
	set(&validation.COSHHGridMaxTasks, 800)
	set(&validation.COSHHGridMinJobs, 100)
	set(&HPFSPTuneMaxTasks, 1000)
	set(&HPFSPTuneMinJobs, 100)
	set(&tunedeploy.DeployChunkTasks, 500)
	set(&tunedeploy.DeployChunkMinJobs, 100)
	cfg := inputs.DefaultRunConfig()
	cfg.Budget, cfg.Runs, cfg.Sigmas, cfg.LoadFactors = 40, 1, []float64{0}, []float64{1}
	res, in, dir := runWithVerdict(t, cfg)

	tasksOf := func(first, n int) int { // rows first.. (0-based) as the task level builds them
		t.Helper()
		cl, err := tasklevel.TaskCluster(in.Spec)
		if err != nil {
			t.Fatal(err)
		}
		win, err := in.Window(first, first+n)
		if err != nil {
			t.Fatal(err)
		}
		jobs, err := tasklevel.TaskJobs(in.Jobs, win, first, in.Capacity, cl.Rate(), 1)
		if err != nil {
			t.Fatal(err)
		}
		s := 0
		for i := range jobs {
			s += jobs[i].NumTasks()
		}
		return s
	}
	within := func(what string, jobs, tasks, budget, floor int) {
		t.Helper()
		if jobs > floor && tasks > budget {
			t.Errorf("%s: %d jobs, %d tasks over the budget %d", what, jobs, tasks, budget)
		}
	}
	lo := in.Split.TuneJobs
	if tv := res.TaskValidation; tv == nil || !strings.Contains(tv.Note, "TaskValidateMaxTasks") {
		t.Errorf("task validation note does not say it was cut: %+v", tv)
	} else {
		within("task validation", tv.Bounds.Jobs, tv.Tasks, 2000, 100)
		if !strings.Contains(tv.Note, "H-PFSP tuned on the tuning window's last") {
			t.Errorf("task validation note does not say what H-PFSP was tuned on: %s", tv.Note)
		}
	}
	if c := res.COSHH; c == nil || !strings.Contains(c.Note, "COSHHValidateMaxTasks") {
		t.Error("COSHH note does not say it was cut")
	} else {
		n := c.Runs[0].Jobs
		within("COSHH comparison", n, tasksOf(lo, n), 1500, 100)
		within("COSHH grid", c.SimJobs, tasksOf(lo-c.SimJobs, c.SimJobs), 800, 100)
	}
	for _, ch := range append(res.DeployTuning.Chunks, res.Deploy.Chunks...) {
		within("deploy chunk", ch.Jobs, tasksOf(ch.FirstRow-1, ch.Jobs), 500, 100)
	}
	var hp struct {
		State struct {
			State struct {
				Jobs  int `json:"jobs"`
				Tasks int `json:"tasks"`
			} `json:"state"`
		} `json:"state"`
	}
	raw, err := os.ReadFile(filepath.Join(dir, ".schedplan", "tune-hpfsp.json"))
	if err == nil {
		err = json.Unmarshal(raw, &hp)
	}
	if err != nil {
		t.Fatal(err)
	}
	if h := hp.State.State; h.Jobs == 0 || h.Jobs >= lo {
		t.Errorf("H-PFSP tuned on %d of %d jobs", h.Jobs, lo)
	} else {
		within("H-PFSP tuning", h.Jobs, h.Tasks, 1000, 100)
	}
}
