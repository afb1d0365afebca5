package tunedeploy

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/schedplan/schedplan/cluster/task"
	"github.com/schedplan/schedplan/cluster/yarn"
	"github.com/schedplan/schedplan/pipeline/bundle"
	"github.com/schedplan/schedplan/pipeline/inputs"
	"github.com/schedplan/schedplan/pipeline/internal/bundletest"
	"github.com/schedplan/schedplan/pipeline/tasklevel"
	"github.com/schedplan/schedplan/pipeline/tuner"
)

// tunedBundle is bundletest.Sample with the users' shares of the work and peak
// applications: alice 3/4 of the work and 8 applications at once, bob 1/4
// and 2, carol no jobs.
func tunedBundle() *bundle.Bundle {
	b := bundletest.Sample()
	b.Users[0].Work, b.Users[0].PeakApps = 0.75, 8
	b.Users[1].Work, b.Users[1].PeakApps = 0.25, 2
	b.Users = append(b.Users, bundle.UserConfig{Name: "carol", Weight: 3})
	return b
}

// A tuned fair-scheduler.xml, hand-computed: weights ∝ work are the share
// over an equal split's (alice 0.75 × 2 = 1.5, bob 0.5), ∝ 1/work their
// inverses (alice 2/3, bob 2), a user without work keeps the spec's
// weight; maxRunningApps is ceil(AppsPerPeak × peak), at least 1 (0.25 ×
// 8 = 2, 0.25 × 2 → 1). The file passes Hadoop's rules and reaches the
// task level's queues as written.
func TestFairTunedFile(t *testing.T) {
	type pool struct {
		weight  float64
		maxApps int64
	}
	for _, tc := range []struct {
		knobs *bundle.FairKnobs
		want  map[string]pool
	}{
		{nil, map[string]pool{"alice": {1, -1}, "bob_dot_smith": {2, -1}, "carol": {3, -1}}},
		{&bundle.FairKnobs{Weights: bundle.FairWeightsWork}, map[string]pool{"alice": {1.5, -1}, "bob_dot_smith": {0.5, -1}, "carol": {3, -1}}},
		{&bundle.FairKnobs{Weights: bundle.FairWeightsInverse, AppsPerPeak: 0.25}, map[string]pool{"alice": {float64(float32(2.0 / 3)), 2}, "bob_dot_smith": {2, 1}, "carol": {3, -1}}},
		{&bundle.FairKnobs{AppsPerPeak: 1}, map[string]pool{"alice": {1, 8}, "bob_dot_smith": {2, 2}, "carol": {3, -1}}},
	} {
		f, err := bundle.FairSchedulerXML(tunedBundle(), bundle.FairSchedulerOptions{Knobs: tc.knobs})
		if err != nil {
			t.Fatalf("%v: %v", tc.knobs, err)
		}
		if err := bundle.CheckFairSchedulerXML(f); err != nil {
			t.Errorf("%v: %v", tc.knobs, err)
		}
		fs, err := yarn.ParseFairScheduler(f)
		if err != nil {
			t.Fatal(err)
		}
		tree := tasklevel.FairQueue(fs, fs.Root, 1024)
		for name, w := range tc.want {
			q := fs.Queue("root." + name)
			if q == nil || math.Abs(q.Weight-w.weight) > 1e-6 || q.MaxRunningApps != w.maxApps {
				t.Errorf("%v: pool %s %+v, want %+v", tc.knobs, name, q, w)
			}
			k := slices.IndexFunc(tree.Children, func(c task.FairQueue) bool { return c.Name == name })
			if want := max(0, int(w.maxApps)); k < 0 || tree.Children[k].MaxRunningApps != want {
				t.Errorf("%v: task-level pool %s: %+v, want maxRunningApps %d", tc.knobs, name, tree.Children, want)
			}
		}
	}
	// Clamped to [0.1, 10]: 1% of the work against 99%.
	b := tunedBundle()
	b.Users[0].Work, b.Users[1].Work = 0.99, 0.01
	f, err := bundle.FairSchedulerXML(b, bundle.FairSchedulerOptions{Knobs: &bundle.FairKnobs{Weights: bundle.FairWeightsWork}})
	if err != nil {
		t.Fatal(err)
	}
	fs, _ := yarn.ParseFairScheduler(f)
	if a, s := fs.Queue("root.alice").Weight, fs.Queue("root.bob_dot_smith").Weight; math.Abs(a-1.98) > 1e-6 || math.Abs(s-bundle.FairWeightMin) > 1e-6 {
		t.Errorf("clamped weights %v, %v; want 1.98, %v", a, s, bundle.FairWeightMin)
	}
}

// Pools per log queue, hand-computed: prod has 0.6 of the work, adhoc 0.4;
// ∝ work: 1.2 and 0.8; ∝ 1/work: 1/1.2 and 1/0.8 = 1.25; spec: 1. An
// application naming prod lands in root.prod, one naming none in
// root.default (no user has a pool); a bundle without log queues is
// refused.
func TestFairTunedQueuePools(t *testing.T) {
	for _, tc := range []struct {
		weights     string
		prod, adhoc float64
	}{{bundle.FairWeightsSpec, 1, 1}, {bundle.FairWeightsWork, 1.2, 0.8}, {bundle.FairWeightsInverse, 1 / 1.2, 1.25}} {
		b := tunedBundle()
		b.Queues = []bundle.QueueConfig{{Name: "prod", Jobs: 3, Work: 0.6}, {Name: "adhoc", Jobs: 2, Work: 0.4}}
		f, err := bundle.FairSchedulerXML(b, bundle.FairSchedulerOptions{PoolPolicy: "fifo", Knobs: &bundle.FairKnobs{Layout: bundle.FairLayoutQueues, Weights: tc.weights}})
		if err != nil {
			t.Fatal(err)
		}
		if err := bundle.CheckFairSchedulerXML(f); err != nil {
			t.Error(err)
		}
		fs, _ := yarn.ParseFairScheduler(f)
		p, a, d := fs.Queue("root.prod"), fs.Queue("root.adhoc"), fs.Queue("root.default")
		if p == nil || a == nil || d == nil || math.Abs(p.Weight-tc.prod) > 1e-6 || math.Abs(a.Weight-tc.adhoc) > 1e-6 || p.SchedulingPolicy != "fifo" || fs.Queue("root.alice") != nil {
			t.Errorf("%s: pools %+v", tc.weights, fs.Root.Children)
		}
		if got, err := fs.Place("alice", nil, "prod"); err != nil || got != "root.prod" {
			t.Errorf("an application naming prod goes to %s (%v)", got, err)
		}
		if got, err := fs.Place("alice", nil, ""); err != nil || got != "root.default" {
			t.Errorf("an application naming no queue goes to %s (%v)", got, err)
		}
	}
	if _, err := bundle.FairSchedulerXML(tunedBundle(), bundle.FairSchedulerOptions{Knobs: &bundle.FairKnobs{Layout: bundle.FairLayoutQueues}}); err == nil {
		t.Error("log-queue pools rendered without log queues")
	}
}

// Knobs the renderer does not know are refused, by the renderer and when
// schedplan.yaml is read.
func TestFairKnobsRefused(t *testing.T) {
	for _, k := range []bundle.FairKnobs{{Weights: "heavy"}, {Layout: "classes"}, {Layout: bundle.FairLayoutQueues, AppsPerPeak: 1}, {AppsPerPeak: -1}, {AppsPerPeak: math.NaN()}, {AppsPerPeak: math.Inf(1)}} {
		if _, err := bundle.FairSchedulerXML(tunedBundle(), bundle.FairSchedulerOptions{Knobs: &k}); err == nil {
			t.Errorf("%+v: rendered", k)
		}
		b := tunedBundle()
		b.Deploy = &bundle.DeployRecord{Verdict: bundle.VerdictDeploy, File: FamilyFair, FairKnobs: &k}
		if err := b.Check(); err == nil {
			t.Errorf("%+v: the bundle check passes", k)
		}
	}
}

// The candidates: keep, the plain files, at most FairTunedGrid tuned ones
// (here all distinct: every knob changes the file), then the capacity
// files, simplest first; every tuned file passes Hadoop's rules, and the
// bundle's deploy section renders the same file (emit).
func TestDeployCandidatesFairTuned(t *testing.T) {
	b := tunedBundle()
	tr := &tuner.TuneReport{Best: tuner.LASMQParams{K: 3, Alpha0: 1, P: 4, Decay: 0.5}, Result: &tuner.TuneResult{}}
	cands, err := deployCandidates(tr, b, "fair:pool=user", "fair", bundle.FairSchedulerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if bundle.FairTunedGrid() != 22 {
		t.Errorf("grid %d, want 2 policies × (3 weight rules × 3 limits − the plain point + 3 weight rules of log-queue pools) = 22", bundle.FairTunedGrid())
	}
	tuned := 0
	for i, c := range cands {
		if i > 0 && c.Complexity < cands[i-1].Complexity {
			t.Errorf("%s (complexity %d) after %s (%d)", c.Name, c.Complexity, cands[i-1].Name, cands[i-1].Complexity)
		}
		if c.Complexity != 2 {
			continue
		}
		tuned++
		if c.Family != FamilyFair || c.Fair.Plain() {
			t.Errorf("%s: family %s, knobs %+v", c.Name, c.Family, c.Fair)
		}
		f, err := c.render(b, bundle.FairSchedulerOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if err := bundle.CheckFairSchedulerXML(f); err != nil {
			t.Errorf("%s: %v", c.Name, err)
		}
		b.Deploy = &bundle.DeployRecord{Verdict: bundle.VerdictDeploy, File: FamilyFair, PoolPolicy: c.PoolPolicy, FairKnobs: c.Fair}
		files, err := BundleYARN(b, 1024)
		if err != nil || !bytes.Equal(files[FamilyFair], f) {
			t.Errorf("%s: emit from the deploy section renders another file (%v)", c.Name, err)
		}
		b.Deploy = nil
	}
	if want := bundle.FairTunedGrid() - 6; tuned != want {
		t.Errorf("%d tuned candidates, want %d (a log without queues)", tuned, want)
	}
	// A log with queues: the log-queue pools too.
	b.Queues = []bundle.QueueConfig{{Name: "prod", Jobs: 3, Work: 0.6}, {Name: "adhoc", Jobs: 2, Work: 0.4}}
	cands, err = deployCandidates(tr, b, "fair:pool=user", "fair", bundle.FairSchedulerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(slices.DeleteFunc(cands, func(c DeployCandidate) bool { return c.Complexity != 2 })); n != bundle.FairTunedGrid() {
		t.Errorf("a log with queues: %d tuned candidates, want %d", n, bundle.FairTunedGrid())
	}
	// One user, no peaks: the weight rules and limits change nothing, and
	// byte-identical files are listed once.
	one := bundletest.Sample()
	one.Users = one.Users[:1]
	cands, err = deployCandidates(tr, one, "fair:pool=user", "fair", bundle.FairSchedulerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(slices.DeleteFunc(cands, func(c DeployCandidate) bool { return c.Complexity != 2 })); n != 0 {
		t.Errorf("one user without peaks: %d tuned candidates, want 0 (all are the plain file)", n)
	}
}

// The contender is the simplest kind within DeploySimplerSlack of the
// best feasible finalist, and, when the best's interval lies below 0, one
// whose interval does too.
func TestDeployPickSimplest(t *testing.T) {
	flat := func(v float64) [][]float64 { return [][]float64{{v, v}, {v, v}} }
	for _, tc := range []struct {
		name              string
		plain, tuned, cap [][]float64
		tunedFeasible     bool
		want              int // index: 1 plain, 2 tuned, 3 capacity
	}{
		{"tuned within the slack", flat(0), flat(-0.05), flat(-0.055), true, 2},
		{"plain within the slack", flat(-0.049), flat(-0.05), flat(-0.055), true, 1},
		{"tuned beyond the slack", flat(0), flat(-0.03), flat(-0.055), true, 3},
		{"tuned infeasible", flat(0), flat(-0.05), flat(-0.055), false, 3},
		// The tuned file is within 1% of the capacity file's mean but not
		// below 0 in every resample, where the capacity file is: the
		// capacity file.
		{"tuned not a sure gain", flat(0), [][]float64{{-0.02, 0.02}, {-0.02, 0.02}}, flat(-0.006), true, 3},
	} {
		cands := []DeployCandidate{
			{Name: "keep", Family: FamilyKeep, Diffs: flat(0), Feasible: true},
			{Name: "plain", Family: FamilyFair, Complexity: 1, Diffs: tc.plain, Feasible: true},
			{Name: "tuned", Family: FamilyFair, Complexity: 2, Diffs: tc.tuned, Feasible: tc.tunedFeasible, Fair: &bundle.FairKnobs{AppsPerPeak: 1}},
			{Name: "capacity", Family: FamilyCapacity, Complexity: 3, Diffs: tc.cap, Feasible: true, LASMQ: &tuner.LASMQParams{K: 2}},
		}
		for i := range cands {
			cands[i].Mean = tuner.MeanOfGroups(cands[i].Diffs)
		}
		dt := &DeployTuning{Candidates: cands, Contender: -1, Capacity: -1}
		tu := &deployTuner{in: &inputs.Inputs{Config: inputs.DefaultRunConfig()}, dt: dt}
		tu.pick([]int{1, 2, 3})
		if dt.Contender != tc.want {
			t.Errorf("%s: contender %d (%s), want %d", tc.name, dt.Contender, cands[max(dt.Contender, 0)].Name, tc.want)
		}
	}
}

// The tuned candidates are rendered into files that the task level loads
// through cluster/yarn (fair:file=): the file written by a candidate is
// the file replayed.
func TestFairTunedFileLoads(t *testing.T) {
	b := tunedBundle()
	c := DeployCandidate{Family: FamilyFair, Complexity: 2, PoolPolicy: "fifo", Fair: &bundle.FairKnobs{Weights: bundle.FairWeightsInverse, AppsPerPeak: 0.25}}
	f, err := c.render(b, bundle.FairSchedulerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), FamilyFair)
	if err := os.WriteFile(path, f, 0o644); err != nil {
		t.Fatal(err)
	}
	r := &tasklevel.TaskLevel{Cluster: nil}
	root, _, _, err := r.LoadFair(path)
	if err != nil {
		t.Fatal(err)
	}
	k := slices.IndexFunc(root.Children, func(q task.FairQueue) bool { return q.Name == "alice" })
	if k < 0 || root.Children[k].MaxRunningApps != 2 || !root.Children[k].FIFO || math.Abs(root.Children[k].Weight-2.0/3) > 1e-6 {
		t.Errorf("alice's pool at task level: %+v", root.Children)
	}
}
