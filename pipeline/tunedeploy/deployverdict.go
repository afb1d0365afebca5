package tunedeploy

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/schedplan/schedplan/pipeline/bundle"
	"github.com/schedplan/schedplan/pipeline/inputs"
	"github.com/schedplan/schedplan/pipeline/tasklevel"
	"github.com/schedplan/schedplan/pipeline/tuner"
	"github.com/schedplan/schedplan/pipeline/validation"
)

// DeployVerdict is the run's one verdict: the deploy tuner's contender,
// replayed from the emitted file at task level on chunks of the validation
// window (never seen by any tuning) × DeployValidateSeeds task seeds
// (disjoint from the tuning seeds), paired against the current scheduler.
// Deploy only when the tuner chose it, the bootstrap interval of the mean
// paired relative difference lies below 0 and the constraints hold on the
// validation chunks; else keep the current scheduler.
type DeployVerdict struct {
	Verdict string `json:"verdict"`
	// Candidate, Family and File name the contender and the file to
	// deploy ("" for keep: no candidate other than it).
	Candidate string `json:"candidate"`
	Family    string `json:"family"`
	File      string `json:"file,omitempty"`
	// FairKnobs are a tuned fair-scheduler.xml contender's knobs.
	FairKnobs *bundle.FairKnobs `json:"fair_knobs,omitempty"`
	// Current is the current scheduler's task-level spec and CurrentName
	// what it is (--current-config, else Fair with one pool per user).
	Current     string          `json:"current"`
	CurrentName string          `json:"current_name"`
	Objective   tuner.Objective `json:"objective"`
	// Diffs[c][s] are the paired relative differences (negative: the
	// contender is better), Mean their mean and Interval its bootstrap
	// interval; Improvement is −Mean.
	Chunks      []DeployChunk  `json:"chunks"`
	Seeds       []uint64       `json:"seeds"`
	Diffs       [][]float64    `json:"differences"`
	Mean        float64        `json:"mean_difference"`
	Improvement float64        `json:"improvement"`
	Interval    tuner.Interval `json:"interval"`
	// Score and CurrentScore are the two's metrics averaged over the
	// pairs; Violations the constraints the contender breaks there.
	Score        tuner.Score `json:"score"`
	CurrentScore tuner.Score `json:"current_score"`
	Constraints  string      `json:"constraints"`
	Violations   []string    `json:"violations,omitempty"`
	// TunerChose says the tuner chose the contender over keep on the
	// tuning window; Reason says why the verdict is what it is.
	TunerChose bool   `json:"tuner_chose"`
	Reason     string `json:"reason"`
}

// Deploy reports whether the verdict is to deploy.
func (v *DeployVerdict) Deploy() bool { return v != nil && v.Verdict == bundle.VerdictDeploy }

// VerdictOf replays the deploy tuner's contender (its file rendered from
// bundle b as emit writes it) against the current scheduler on the
// validation window and decides.
func VerdictOf(ctx context.Context, in *inputs.Inputs, dt *DeployTuning, b *bundle.Bundle) (*DeployVerdict, error) {
	v := &DeployVerdict{Verdict: bundle.VerdictKeep, Current: dt.Current, CurrentName: dt.CurrentName, Objective: dt.Objective, Constraints: dt.Constraints}
	if dt.Contender < 0 {
		// Every candidate behaved as the current scheduler (an idle
		// cluster), or none could be scored: the difference is 0.
		v.Reason = "no candidate behaves differently from the current scheduler on the tuning window (every paired difference is 0)"
		if len(dt.Chunks) == 0 {
			v.Reason = "the tuning window has no jobs to replay"
		}
		v.Interval = tuner.Interval{Available: true, Level: DeployLevel, Metric: "relative difference in " + tuner.ObjectiveLabel(v.Objective) + " against the current scheduler"}
		return v, nil
	}
	c := &dt.Candidates[dt.Contender]
	v.Candidate, v.Family, v.File, v.TunerChose = c.Name, c.Family, c.Family, dt.Chosen == dt.Contender
	v.FairKnobs = c.Fair
	_, cons, err := deployConstraints(in.Config.Constraints)
	if err != nil {
		return nil, err
	}
	cl, err := tasklevel.TaskCluster(in.Spec)
	if err != nil {
		return nil, err
	}
	lo, n, _, err := validation.TaskWindow(in)
	if err != nil {
		return nil, err
	}
	if v.Chunks, err = budgetChunks(in, DeployChunksOf(lo, n, DeployChunks, DeployChunkJobs)); err != nil {
		return nil, err
	}
	seeds := DeployValidateSeeds
	if in.Tasks != nil {
		seeds = 1
	}
	for k := range seeds {
		v.Seeds = append(v.Seeds, DeploySeed(in.Config.Seed, "validate", k))
	}
	dir, err := os.MkdirTemp("", "schedplan-verdict-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	f, err := c.render(b, bundle.FairSchedulerOptions{ContainerMB: in.Config.ContainerMB})
	if err != nil {
		return nil, err
	}
	path := filepath.Join(dir, c.Family)
	if err := os.WriteFile(path, f, 0o600); err != nil {
		return nil, err
	}
	spec := c.FileSpec(path)
	pairs, err := TaskPairs(in, cl, v.Chunks, v.Seeds, 0, len(v.Seeds))
	if err != nil {
		return nil, err
	}
	scores, err := Replay(ctx, pairs, []string{dt.Current, spec})
	if err != nil {
		return nil, fmt.Errorf("verdict: %w", err)
	}
	v.decide(pairs, scores, cons, in.Config.Seed)
	return v, nil
}

// decide fills the differences, the interval and the verdict from the
// pairs' scores ([pair][current, contender]).
func (v *DeployVerdict) decide(pairs []DeployPair, scores [][]tuner.Score, cons []tuner.Constraint, seed uint64) {
	v.Diffs = make([][]float64, len(v.Chunks))
	var sum, cur tuner.Score
	for p, pr := range pairs {
		v.Diffs[pr.chunk] = append(v.Diffs[pr.chunk], PairedDiff(v.Objective, scores[p][1], scores[p][0]))
		sum, cur = addScore(sum, scores[p][1]), addScore(cur, scores[p][0])
	}
	if len(pairs) == 0 {
		v.Reason = "the validation window has no jobs to replay"
		return
	}
	v.Score, v.CurrentScore = scaleScore(sum, 1/float64(len(pairs))), scaleScore(cur, 1/float64(len(pairs)))
	v.Mean = tuner.MeanOfGroups(v.Diffs)
	v.Improvement = -v.Mean
	v.Interval = tuner.PairedBootstrap(v.Diffs, DeployLevel, DeployReplicates, DeploySeed(seed, "validate-boot", 0))
	v.Interval.Metric = "relative difference in " + tuner.ObjectiveLabel(v.Objective) + " against the current scheduler"
	for _, con := range cons {
		if ok, why := con.Check(v.Score, v.CurrentScore); !ok {
			v.Violations = append(v.Violations, why)
		}
	}
	v.Score, v.CurrentScore = jsonSafe(v.Score), jsonSafe(v.CurrentScore)
	switch {
	case !v.TunerChose:
		v.Reason = "on the tuning window no candidate beat the current scheduler with its whole interval below 0 and the constraints met"
	case !(v.Interval.Hi < 0):
		v.Reason = fmt.Sprintf("on the validation window the interval's upper end (%s) is not below 0", pctPrecise(v.Interval.Hi))
	case len(v.Violations) > 0:
		v.Reason = "on the validation window it breaks the constraints"
	default:
		v.Verdict = bundle.VerdictDeploy
		v.Reason = "on the validation window its whole interval lies below 0 and the constraints hold"
	}
}

// Sentence is the verdict in one sentence, as every output states it.
func (v *DeployVerdict) Sentence() string {
	if v == nil {
		return ""
	}
	iv := fmt.Sprintf("%.0f%% interval of the mean paired difference in %s %s over %d chunks × %d task seeds of the validation window", 100*v.Interval.Level, tuner.ObjectiveLabel(v.Objective), bounds(v.Interval), len(v.Chunks), len(v.Seeds))
	if v.Deploy() {
		return fmt.Sprintf("Verdict: deploy %s (%s): it beats the current scheduler (%s) by %.1f%% at task level (%s).", v.File, v.Candidate, v.CurrentName, 100*v.Improvement, iv)
	}
	if v.Candidate == "" {
		return fmt.Sprintf("Verdict: keep your current scheduler (%s): %s (interval %s).", v.CurrentName, v.Reason, bounds(v.Interval))
	}
	s := fmt.Sprintf("Verdict: keep your current scheduler (%s): %s. The best candidate, %s, differs by %+.1f%% at task level (%s)", v.CurrentName, v.Reason, v.Candidate, 100*v.Mean, iv)
	if len(v.Violations) > 0 {
		s += "; it breaks " + fmt.Sprint(v.Violations)
	}
	return s + "."
}

// Record is the verdict's bundle section; pool is the contender's
// fair-scheduler.xml pool policy ("" unless it is one).
func (v *DeployVerdict) Record(pool string) *bundle.DeployRecord {
	return &bundle.DeployRecord{Verdict: v.Verdict, Candidate: v.Candidate, File: v.File, PoolPolicy: pool, Current: v.CurrentName, Objective: v.Objective,
		Improvement: v.Improvement, IntervalLo: v.Interval.Lo, IntervalHi: v.Interval.Hi, Level: v.Interval.Level, Reason: v.Reason}
}

// BundleYARN renders a bundle's YARN files as run and emit write them
// (RenderYARN): the fair-scheduler.xml pools with the deploy section's
// pool policy, and a comment at the head of each file not to deploy
// (DeployRecord.Comment).
func BundleYARN(b *bundle.Bundle, containerMB int) (map[string][]byte, error) {
	opt := bundle.FairSchedulerOptions{ContainerMB: containerMB}
	if b.Deploy != nil {
		opt.PoolPolicy, opt.Knobs = b.Deploy.PoolPolicy, b.Deploy.FairKnobs
	}
	files, err := bundle.RenderYARN(b, opt)
	if err != nil {
		return nil, err
	}
	for name, f := range files {
		files[name] = WithComment(f, b.Deploy.Comment(name))
	}
	return files, nil
}

// NotToDeploy returns the verdict comment (DeployRecord.Comment) at the
// head of an emitted YARN file that is not the one to deploy — keep, or
// the other file deploys — and "" for any other file.
func NotToDeploy(file []byte) string {
	head, _, _ := bytes.Cut(file, []byte("<configuration"))
	head, _, _ = bytes.Cut(head, []byte("<allocations"))
	_, c, ok := bytes.Cut(head, []byte("<!-- schedplan verdict: "))
	if !ok {
		return ""
	}
	c, _, _ = bytes.Cut(c, []byte(" -->"))
	return string(c)
}

// WithComment returns an XML file with comment inserted after its XML
// declaration (the file as it is when comment is "").
func WithComment(file []byte, comment string) []byte {
	if comment == "" {
		return file
	}
	decl, rest, ok := bytes.Cut(file, []byte("?>\n"))
	if !ok {
		return append([]byte(comment), file...)
	}
	out := append(append([]byte(nil), decl...), "?>\n"...)
	return append(append(out, comment...), rest...)
}
