package pipeline

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/cluster/yarn"
	"github.com/schedplan/schedplan/pipeline/bundle"
	"github.com/schedplan/schedplan/pipeline/inputs"
	"github.com/schedplan/schedplan/pipeline/runreport"
	"github.com/schedplan/schedplan/pipeline/tasklevel"
	"github.com/schedplan/schedplan/pipeline/tunedeploy"
	"github.com/schedplan/schedplan/pipeline/tuner"
	"github.com/schedplan/schedplan/pipeline/validation"
)

// The bootstrap interval by hand: a constant sample's is the constant; a
// sample {0, 1} of one chunk has bootstrap means 0, ½ and 1 with
// probabilities ¼, ½, ¼, so its 95% interval is [0, 1] and its 40%
// interval [½, ½]; the same seed gives the same interval.
func TestPairedBootstrap(t *testing.T) {
	for _, tc := range []struct {
		name   string
		groups [][]float64
		level  float64
		lo, hi float64
	}{
		{"constant", [][]float64{{-0.1, -0.1}, {-0.1}}, 0.95, -0.1, -0.1},
		{"two points, 95%", [][]float64{{0, 1}}, 0.95, 0, 1},
		{"two points, 40%", [][]float64{{0, 1}}, 0.4, 0.5, 0.5},
		{"idle cluster", [][]float64{{0, 0, 0}, {0, 0, 0}}, 0.95, 0, 0},
		{"empty groups ignored", [][]float64{{}, {2, 2}}, 0.95, 2, 2},
	} {
		iv := tuner.PairedBootstrap(tc.groups, tc.level, 4000, 7)
		if !iv.Available || math.Abs(iv.Lo-tc.lo) > 1e-12 || math.Abs(iv.Hi-tc.hi) > 1e-12 {
			t.Errorf("%s: interval %+v, want [%v, %v]", tc.name, iv, tc.lo, tc.hi)
		}
		if again := tuner.PairedBootstrap(tc.groups, tc.level, 4000, 7); again != iv {
			t.Errorf("%s: not reproducible: %+v then %+v", tc.name, iv, again)
		}
	}
	if iv := tuner.PairedBootstrap(nil, 0.95, 100, 1); iv.Available {
		t.Errorf("no difference: interval %+v, want none", iv)
	}
	// Chunks are resampled whole: two chunks of opposite sign give an
	// interval that reaches both, far wider than the pooled differences'.
	iv := tuner.PairedBootstrap([][]float64{{-1, -1, -1, -1}, {1, 1, 1, 1}}, 0.95, 4000, 3)
	if iv.Lo > -0.99 || iv.Hi < 0.99 {
		t.Errorf("two opposite chunks: interval %+v, want about [−1, 1]", iv)
	}
}

func TestSpearman(t *testing.T) {
	for _, tc := range []struct {
		x, y []float64
		want float64
	}{
		{[]float64{1, 2, 3, 4}, []float64{10, 20, 30, 40}, 1},
		{[]float64{1, 2, 3, 4}, []float64{4, 3, 2, 1}, -1},
		{[]float64{1, 2, 3}, []float64{1, 3, 2}, 0.5},
		{[]float64{1, 1, 2}, []float64{5, 5, 9}, 1},
	} {
		if got := tuner.Spearman(tc.x, tc.y); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("Spearman(%v, %v) = %v, want %v", tc.x, tc.y, got, tc.want)
		}
	}
	if got := tuner.Spearman([]float64{1, 2}, []float64{1, 2}); !math.IsNaN(got) {
		t.Errorf("two pairs: %v, want NaN", got)
	}
}

// The chunks of a window: at most count, each at most maxJobs contiguous
// rows, the last ending at the window's end, never overlapping.
func TestDeployChunks(t *testing.T) {
	for _, tc := range []struct {
		lo, n, count, max int
		want              []tunedeploy.DeployChunk
	}{
		{0, 100_000, 4, 4000, []tunedeploy.DeployChunk{{FirstRow: 1, Jobs: 4000}, {FirstRow: 32001, Jobs: 4000}, {FirstRow: 64001, Jobs: 4000}, {FirstRow: 96001, Jobs: 4000}}},
		{10, 1000, 4, 4000, []tunedeploy.DeployChunk{{FirstRow: 11, Jobs: 333}, {FirstRow: 344, Jobs: 333}, {FirstRow: 678, Jobs: 333}}},
		{0, 200, 4, 4000, []tunedeploy.DeployChunk{{FirstRow: 1, Jobs: 200}}},
		{0, 0, 4, 4000, nil},
	} {
		got := tunedeploy.DeployChunksOf(tc.lo, tc.n, tc.count, tc.max)
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("deployChunks(%d, %d, %d, %d) = %v, want %v", tc.lo, tc.n, tc.count, tc.max, got, tc.want)
		}
		if len(got) > 0 && got[len(got)-1].FirstRow-1+got[len(got)-1].Jobs != tc.lo+tc.n && tc.n/len(got) <= tc.max {
			t.Errorf("last chunk %v does not end at the window's end %d", got[len(got)-1], tc.lo+tc.n)
		}
	}
	if a, b := tunedeploy.DeploySeed(1, "tune", 0), tunedeploy.DeploySeed(1, "validate", 0); a == b || a == tunedeploy.DeploySeed(1, "tune", 1) || a == tunedeploy.DeploySeed(2, "tune", 0) {
		t.Error("derived seeds collide")
	}
}

// writeSizedLog writes a CSV log of n jobs of users U1 and U2 (the default
// spec's) with sizes from size (container-seconds, mean meanSize), Poisson
// arrivals at an offered load of about load on the default cluster.
func writeSizedLog(t testing.TB, path string, n int, load, meanSize float64, seed uint64, size func(*rand.Rand) float64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 2))
	var b strings.Builder
	b.WriteString("job_id,submit_time,user,size\n")
	at := 0.0
	for i := 0; i < n; i++ {
		at += rng.ExpFloat64() * meanSize / (load * 48.06)
		fmt.Fprintf(&b, "j%d,%.3f,U%d,%.4f\n", i, at, 1+rng.IntN(2), size(rng))
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// runWithVerdict runs the pipeline with cfg into a temporary directory
// and returns the result (which must have a verdict), the inputs and the
// directory.
func runWithVerdict(t *testing.T, cfg inputs.RunConfig) (*runreport.RunResult, *inputs.Inputs, string) {
	t.Helper()
	in, err := Prepare(cfg)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "out")
	r := &Runner{Dir: dir}
	defer r.Close()
	res, err := Run(context.Background(), in, r)
	if err != nil {
		t.Fatal(err)
	}
	if res.Deploy == nil || res.DeployTuning == nil {
		t.Fatal("no verdict")
	}
	return res, in, dir
}

// deployRun runs the pipeline, lightly, on a synthetic log.
func deployRun(t *testing.T, log string) (*runreport.RunResult, string) {
	t.Helper()
	cfg := inputs.DefaultRunConfig()
	cfg.Trace, cfg.K = log, 2
	cfg.Cluster = cluster.Table3Name // the logs' loads are on its 48.06 containers
	cfg.Budget, cfg.Runs, cfg.Sigmas, cfg.LoadFactors, cfg.Baselines = 40, 1, []float64{0}, []float64{1}, []string{"fifo"}
	res, _, dir := runWithVerdict(t, cfg)
	v := res.Deploy
	t.Logf("%s", v.Sentence())
	t.Logf("%s", res.DeployTuning.Summary())
	// One verdict everywhere.
	if res.Improved != v.Deploy() || res.Verdict != v.Verdict || (v.Deploy() && !(v.Interval.Hi < 0)) || res.ImprovementInterval == nil || *res.ImprovementInterval != v.Interval {
		t.Errorf("summary says improved %v, verdict %q, interval %v; the verdict %+v", res.Improved, res.Verdict, res.ImprovementInterval, v)
	}
	if err := res.RequireImprovement(); (err == nil) != v.Deploy() {
		t.Errorf("--require-improvement: %v with verdict %s", err, v.Verdict)
	}
	return res, dir
}

// Known answers (issue 24). Uniform sizes: nothing to gain from sizes, so
// keep, or a FIFO-like configuration (FIFO beats sharing when every job
// is alike). Heavy-tailed bimodal sizes at load 0.7: a multi-level
// capacity-scheduler.xml that beats Fair at task level with the whole
// interval below 0. An idle cluster: every candidate is Fair, keep.
func TestDeployKnownAnswers(t *testing.T) {
	if testing.Short() {
		t.Skip("three pipeline runs")
	}
	dir := t.TempDir()
	t.Run("uniform", func(t *testing.T) {
		log := filepath.Join(dir, "uniform.csv")
		writeSizedLog(t, log, 2000, 0.7, 30, 1, func(r *rand.Rand) float64 { return 30 * (0.9 + 0.2*r.Float64()) })
		res, _ := deployRun(t, log)
		v, dt := res.Deploy, res.DeployTuning
		if !v.Deploy() {
			return
		}
		c := dt.Candidates[dt.Contender]
		if fifoLike := c.PoolPolicy == "fifo" || (c.LASMQ != nil && c.LASMQ.Order == ""); !fifoLike {
			t.Errorf("uniform sizes: deploys %s, want keep or a FIFO-like configuration", v.Candidate)
		}
	})
	t.Run("bimodal heavy tail", func(t *testing.T) {
		log := filepath.Join(dir, "bimodal.csv")
		writeSizedLog(t, log, 2400, 0.7, 0.9*4+0.1*400, 2, func(r *rand.Rand) float64 {
			if r.Float64() < 0.9 {
				return 4 * math.Exp(0.3*r.NormFloat64())
			}
			return 400 * math.Exp(r.NormFloat64()-0.5)
		})
		res, dir := deployRun(t, log)
		v := res.Deploy
		if !v.Deploy() || v.Family != tunedeploy.FamilyCapacity || !(v.Interval.Hi < 0) || res.Tuned.K < 2 {
			t.Fatalf("bimodal sizes at load 0.7: verdict %s (%s, %s), interval %+v; want a multi-level capacity-scheduler.xml deployed", v.Verdict, v.Candidate, v.Reason, v.Interval)
		}
		b, err := os.ReadFile(filepath.Join(dir, "capacity-scheduler.xml"))
		if err != nil || strings.Contains(string(b), "KEEP") {
			t.Errorf("the deployed file says keep, or is missing: %v", err)
		}
	})
	t.Run("idle", func(t *testing.T) {
		log := filepath.Join(dir, "idle.csv")
		writeSizedLog(t, log, 1600, 0.02, 30, 3, func(r *rand.Rand) float64 { return 30 * math.Exp(r.NormFloat64()-0.5) })
		res, dir := deployRun(t, log)
		if v := res.Deploy; v.Deploy() || v.Interval.Hi < 0 {
			t.Errorf("idle cluster: verdict %s, interval %+v; want keep", v.Verdict, v.Interval)
		}
		t.Logf("idle: %s", res.DeployTuning.Summary())
		for _, f := range []string{"capacity-scheduler.xml", "fair-scheduler.xml"} {
			b, err := os.ReadFile(filepath.Join(dir, f))
			if err != nil || !strings.Contains(string(b), "KEEP your current scheduler") {
				t.Errorf("%s does not say keep: %v", f, err)
			}
		}
	})
}

// The embedded trace end to end: one configuration record (summary.json's
// tuned policy, schedplan.yaml's las_mq and the emitted demotion
// thresholds agree, after every choice), the tuning saw only the tuning
// window, and replaying the emitted file with 10 task seeds the run did
// not use reproduces the claimed difference inside the stated interval.
func TestEmbeddedVerdictReplays(t *testing.T) {
	if testing.Short() {
		t.Skip("a full run")
	}
	res, in, dir := runWithVerdict(t, inputs.DefaultRunConfig())
	dt, v := res.DeployTuning, res.Deploy
	t.Logf("%s", v.Sentence())
	// One record: summary.json's tuned policy is the emitted file's.
	var sum struct {
		TunedPolicy string            `json:"tuned_policy"`
		Tuned       tuner.LASMQParams `json:"tuned_las_mq"`
		Verdict     string            `json:"verdict"`
		Improved    bool              `json:"improved"`
		Interval    *tuner.Interval   `json:"improvement_interval"`
	}
	raw, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &sum); err != nil {
		t.Fatal(err)
	}
	if sum.TunedPolicy != sum.Tuned.Spec() || sum.Tuned != res.Tuned || sum.Verdict != v.Verdict || sum.Improved != v.Deploy() || sum.Interval == nil || sum.Interval.Hi != v.Interval.Hi {
		t.Errorf("summary.json: %+v; run: tuned %+v, verdict %+v", sum, res.Tuned, v)
	}
	if dt.Capacity < 0 || *dt.Candidates[dt.Capacity].LASMQ != sum.Tuned {
		t.Errorf("summary.json's tuned LAS_MQ %+v is not the emitted capacity candidate's", sum.Tuned)
	}
	checkHeldThresholds(t, dir, sum.Tuned, taskTunedSpec(t, res), in.Spec.Containers())
	// The default run (the cluster sized to the log): the capacity
	// sentence and the views' loads agree, λ > 1 exactly when the replay at
	// today's rate keeps up.
	checkCapacityHeadline(t, res, dir)
	b, err := bundle.LoadBundle(filepath.Join(dir, "schedplan.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if b.LASMQ.Spec() != sum.TunedPolicy || b.Deploy == nil || b.Deploy.Verdict != v.Verdict {
		t.Errorf("schedplan.yaml: las_mq %s, deploy %+v; summary.json: %s, %s", b.LASMQ.Spec(), b.Deploy, sum.TunedPolicy, v.Verdict)
	}
	// schedplan emit renders the run's files again, byte for byte (into a
	// folder it creates).
	again := filepath.Join(t.TempDir(), "missing", "yarn")
	if _, err := EmitYARNFiles(filepath.Join(dir, "schedplan.yaml"), again, false, in.Config.ContainerMB); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"capacity-scheduler.xml", "fair-scheduler.xml"} {
		a, err1 := os.ReadFile(filepath.Join(dir, f))
		b, err2 := os.ReadFile(filepath.Join(again, f))
		if err1 != nil || err2 != nil || string(a) != string(b) {
			t.Errorf("%s: emit from schedplan.yaml differs from the run's (%v, %v)", f, err1, err2)
		}
	}
	// Tuning on the tuning window only; the verdict on the validation
	// window, with other seeds.
	for _, c := range dt.Chunks {
		if c.FirstRow < 1 || c.FirstRow-1+c.Jobs > in.Split.TuneJobs || c.Jobs > tunedeploy.DeployChunkJobs {
			t.Errorf("tuning chunk %+v outside rows 1..%d", c, in.Split.TuneJobs)
		}
	}
	for _, c := range v.Chunks {
		if c.FirstRow <= in.Split.TuneJobs {
			t.Errorf("verdict chunk %+v inside the tuning window", c)
		}
	}
	for _, s := range v.Seeds {
		for _, u := range dt.Seeds {
			if s == u {
				t.Errorf("seed %d both tunes and validates", s)
			}
		}
	}
	// The emitted file, replayed with 10 seeds the run did not use.
	if v.Candidate == "" {
		t.Fatal("no candidate to replay")
	}
	c := dt.Candidates[dt.Contender]
	cl, err := tasklevel.TaskCluster(in.Spec)
	if err != nil {
		t.Fatal(err)
	}
	var seeds []uint64
	for k := range 10 {
		seeds = append(seeds, tunedeploy.DeploySeed(in.Config.Seed, "replay-check", k))
	}
	pairs, err := tunedeploy.TaskPairs(in, cl, v.Chunks, seeds, 0, len(seeds))
	if err != nil {
		t.Fatal(err)
	}
	scores, err := tunedeploy.Replay(context.Background(), pairs, []string{dt.Current, c.FileSpec(filepath.Join(dir, v.File))})
	if err != nil {
		t.Fatal(err)
	}
	mean := 0.0
	for _, s := range scores {
		mean += tunedeploy.PairedDiff(v.Objective, s[1], s[0]) / float64(len(scores))
	}
	t.Logf("claimed %+.2f%% in [%+.2f%%, %+.2f%%]; replayed with 10 other seeds: %+.2f%%", 100*v.Mean, 100*v.Interval.Lo, 100*v.Interval.Hi, 100*mean)
	if mean < v.Interval.Lo || mean > v.Interval.Hi {
		t.Errorf("replayed with other seeds: %+.3f%%, outside the stated interval [%+.3f%%, %+.3f%%]", 100*mean, 100*v.Interval.Lo, 100*v.Interval.Hi)
	}
}

// taskTunedSpec is the task-level tuned LAS_MQ row's policy.
func taskTunedSpec(t *testing.T, res *runreport.RunResult) string {
	t.Helper()
	for _, row := range res.TaskValidation.Rows {
		if row.Name == validation.TaskTunedName {
			return row.Policy
		}
	}
	t.Fatal("no task-level tuned LAS_MQ row")
	return ""
}

// The bundle's deploy section drives both YARN files: the pools'
// schedulingPolicy of a fair-scheduler.xml candidate, a KEEP comment in
// both files when the verdict is keep, and with deploy a comment in the
// file not to deploy only; the comments leave the files valid.
func TestBundleYARNDeploySection(t *testing.T) {
	in, err := Prepare(inputs.DefaultRunConfig())
	if err != nil {
		t.Fatal(err)
	}
	b, _ := emitFor(t, in, 2, tuner.LASMQParams{K: 3, Alpha0: 1, P: 4, Decay: 0.5})
	for _, tc := range []struct {
		rec       *bundle.DeployRecord
		policy    string
		commented map[string]string // file → a phrase of its comment
	}{
		{nil, "fair", nil},
		{&bundle.DeployRecord{Verdict: bundle.VerdictDeploy, File: tunedeploy.FamilyFair, PoolPolicy: "fifo", Current: "fair"}, "fifo", map[string]string{tunedeploy.FamilyCapacity: "deploy fair-scheduler.xml, not this file"}},
		{&bundle.DeployRecord{Verdict: bundle.VerdictKeep, File: tunedeploy.FamilyCapacity, Current: "my -- scheduler"}, "fair",
			map[string]string{tunedeploy.FamilyCapacity: "KEEP your current scheduler (my - - scheduler)", tunedeploy.FamilyFair: "KEEP your current scheduler"}},
	} {
		b.Deploy = tc.rec
		files, err := tunedeploy.BundleYARN(b, 1024)
		if err != nil {
			t.Fatal(err)
		}
		for name, f := range files {
			phrase, want := tc.commented[name]
			if got := strings.Contains(string(f), "schedplan verdict:"); got != want || want && !strings.Contains(string(f), phrase) {
				t.Errorf("%+v: %s commented %v (want %v, with %q)", tc.rec, name, got, want, phrase)
			}
		}
		if err := bundle.CheckCapacitySchedulerXML(files[tunedeploy.FamilyCapacity]); err != nil {
			t.Errorf("%+v: %v", tc.rec, err)
		}
		fs, err := yarn.ParseFairScheduler(files[tunedeploy.FamilyFair])
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range fs.Root.Children {
			if q.SchedulingPolicy != tc.policy {
				t.Errorf("%+v: pool %s schedulingPolicy %q, want %q", tc.rec, q.Path, q.SchedulingPolicy, tc.policy)
			}
		}
	}
}

// A verdict says what to do next, in three steps: a deployed
// capacity-scheduler.xml is refreshed and needs the controller; a
// fair-scheduler.xml replaces the allocation file, and a cluster on another
// scheduler must switch yarn.resourcemanager.scheduler.class; each says how
// to roll back; keep says what would give a verdict that can change.
func TestVerdictNextSteps(t *testing.T) {
	for _, c := range []struct {
		family, current string
		want, not       []string
	}{
		{tunedeploy.FamilyCapacity, "fair:pool=user", []string{"yarn rmadmin -refreshQueues", "schedplan yarn-controller out/capacity-scheduler.xml", "To roll back"}, nil},
		{tunedeploy.FamilyFair, "fair:file=/etc/hadoop/fair-scheduler.xml", []string{"yarn.scheduler.fair.allocation.file", "To roll back"}, []string{"scheduler.class"}},
		{tunedeploy.FamilyFair, "capacity:file=/etc/hadoop/capacity-scheduler.xml", []string{"yarn.resourcemanager.scheduler.class", "FairScheduler", "restart the ResourceManager", "To roll back"}, []string{"Save your allocation file"}},
		{"", "fair:pool=user", []string{"Nothing to change", "--current-config"}, []string{"yarn"}},
	} {
		v := &tunedeploy.DeployVerdict{Verdict: bundle.VerdictDeploy, Family: c.family, File: c.family, Candidate: "x", Current: c.current, CurrentName: "cur", Interval: tuner.Interval{Available: true, Level: 0.95, Lo: -0.2, Hi: -0.1}}
		if c.family == "" {
			v.Verdict = bundle.VerdictKeep
		}
		steps := v.NextSteps("out")
		if len(steps) != 3 {
			t.Errorf("%s against %s: %d steps, want 3: %q", c.family, c.current, len(steps), steps)
		}
		s := strings.Join(steps, "\n")
		for _, w := range c.want {
			if !strings.Contains(s, w) {
				t.Errorf("%s against %s: %q lacks %q", c.family, c.current, s, w)
			}
		}
		for _, w := range c.not {
			if strings.Contains(s, w) {
				t.Errorf("%s against %s: %q has %q", c.family, c.current, s, w)
			}
		}
	}
}

// With keep, only the file of the best candidate found says it is that;
// the other says it is the best of its kind (fair-scheduler.xml claimed to
// be the best candidate when capacity-scheduler.xml was).
func TestKeepCommentNamesTheBestFile(t *testing.T) {
	d := &bundle.DeployRecord{Verdict: bundle.VerdictKeep, File: tunedeploy.FamilyCapacity, Current: "cur"}
	if c := d.Comment(tunedeploy.FamilyCapacity); !strings.Contains(c, "is the best candidate found") {
		t.Errorf("capacity-scheduler.xml: %s", c)
	}
	if c := d.Comment(tunedeploy.FamilyFair); strings.Contains(c, "best candidate found") || !strings.Contains(c, "best candidate of its kind (the best found was capacity-scheduler.xml)") {
		t.Errorf("fair-scheduler.xml: %s", c)
	}
}

// NotToDeploy finds the verdict comment of a file not to deploy (so that
// yarn-controller warns before applying a KEEP file) and nothing in the
// file to deploy or a file schedplan did not mark.
func TestNotToDeploy(t *testing.T) {
	file := []byte("<?xml version=\"1.0\"?>\n<configuration>\n  <property><name>a</name><value>b</value></property>\n</configuration>\n")
	for _, c := range []struct {
		rec  *bundle.DeployRecord
		want string
	}{
		{nil, ""},
		{&bundle.DeployRecord{Verdict: bundle.VerdictDeploy, File: tunedeploy.FamilyCapacity}, ""},
		{&bundle.DeployRecord{Verdict: bundle.VerdictDeploy, File: tunedeploy.FamilyFair}, "deploy fair-scheduler.xml, not this file"},
		{&bundle.DeployRecord{Verdict: bundle.VerdictKeep, File: tunedeploy.FamilyCapacity, Current: "cur"}, "KEEP your current scheduler (cur)"},
	} {
		got := tunedeploy.NotToDeploy(tunedeploy.WithComment(file, c.rec.Comment(tunedeploy.FamilyCapacity)))
		if c.want == "" && got != "" || !strings.Contains(got, c.want) || strings.Contains(got, "-->") {
			t.Errorf("%+v: %q, want %q", c.rec, got, c.want)
		}
	}
}
