package capacity

import (
	"context"
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"github.com/schedplan/schedplan/classify"
	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/cluster/task"
	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/estimate"
	"github.com/schedplan/schedplan/lp"
	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/inputs"
	"github.com/schedplan/schedplan/pipeline/report"
	"github.com/schedplan/schedplan/pipeline/tasklevel"
	"github.com/schedplan/schedplan/pipeline/validation"
	"gonum.org/v1/gonum/stat"
)

// ReplayMaxJobs bounds the jobs a capacity replay simulates (the log's
// first ones), so that the headroom and the what-ifs' responses cost the
// same on a 1 M-job log as on a 20,000-job one.
var ReplayMaxJobs = 20_000

// The replays are not bounded in tasks as the other task-level windows
// are (tasklevel.BudgetJobs): whether a replay is overloaded is the share
// of its work left unfinished at its last arrival (ReplayOverloaded), which
// depends on how long a span of arrivals it covers. A replay of 5,000 jobs
// of a log with 40 tasks a job called a cluster at load 0.78 overloaded
// (28% unfinished) that 20,000 jobs showed keeping up (0%).

// ReplayOverloaded is the share of a replay's work left unfinished at its
// last arrival above which the replay counts as overloaded: a cluster that
// keeps up has finished all but its last jobs' work by then; one at load
// ρ > 1 leaves about 1 − 1/ρ of it (10% at ρ ≈ 1.11). On the embedded
// trace at task level the replay at load 0.9 leaves 4–5% (its big jobs take
// hours), at load 1 about 12%: near λ (0.9–1.1 of it) a finite log cannot
// tell, and the sentence gives the figures.
const ReplayOverloaded = 0.10

// Replay is the log (at most ReplayMaxJobs of its first jobs) replayed at
// task level in the execution-time model under COSHH's routing by the LP
// of the run's classes re-solved on the cluster — the placement λ assumes
// —, with arrival rates × Factor (arrival times compressed by it).
type Replay struct {
	Change string  `json:"change,omitempty"` // what-if ("": the spec as it is)
	Factor float64 `json:"rate_factor"`
	Lambda float64 `json:"lambda"`
	// Load is the replayed jobs' execution-time load at the factor.
	Load *float64 `json:"offered_load"`
	Mean float64  `json:"mean_response_s"`
	P99  float64  `json:"p99_response_s"`
	// Unfinished is the share of the work unfinished at the last arrival
	// (of the jobs that could have finished by then alone: backlog);
	// Overloaded: above ReplayOverloaded.
	Unfinished float64 `json:"unfinished_share"`
	Overloaded bool    `json:"overloaded"`
}

// Headroom is how far today's arrival rates can grow, from λ, checked by
// replaying the log at today's rate, at 0.9·λ× and at λ× it.
type Headroom struct {
	Lambda float64 `json:"lambda"`
	// Scheduler is what the replays run (replayScheduler).
	Scheduler string `json:"scheduler"`
	Jobs      int    `json:"jobs_replayed"`
	// Held is the replayed jobs' task-level work (containers × seconds
	// held) over their sizes in container-seconds: above 1 when the log
	// gives task-seconds and reduce tasks hold 2 containers (seed 000,
	// task.SynthOptions), the term between the replay's loads and the
	// LoadModel's.
	Held    float64  `json:"held_over_size"`
	Of      int      `json:"jobs"`
	Replays []Replay `json:"replays"`
	// P99Target is the p99 response the rate may grow to (P99TargetFactor
	// × today's replayed p99), P99Factor the largest rate factor (at most
	// λ) whose replay keeps up with a p99 within it, found by bisection
	// (P99Search: the replays it ran, to P99Resolution); 0 when today's
	// p99 already exceeds it or there is no λ.
	P99Target float64  `json:"p99_target_s,omitempty"`
	P99Factor float64  `json:"p99_factor,omitempty"`
	P99Search []Replay `json:"p99_search,omitempty"`
	// P99Limit says what stops the growth at the first factor above
	// P99Factor: "p99" (the target) or "overloaded" (the replay falls
	// behind first).
	P99Limit string `json:"p99_limit,omitempty"`
}

// P99TargetFactor sets the headroom's p99 target: this many times today's
// replayed p99 response ("before the p99 response doubles").
const P99TargetFactor = 2

// P99Resolution is the bisection's stopping ratio between the factors that
// bracket the p99 target (1%).
const P99Resolution = 1.01

// replayer replays a sample of a log on a spec and its what-ifs.
type replayer struct {
	j                  *data.Jobs
	cs                 []float64
	spec               *cluster.Spec
	primary, secondary *classify.Result
	solver             lp.Solver
	seed               uint64
	jobs               []task.Job // the sample, in the execution-time model
	work               float64    // Σ work of the sample (the same at every rate)
	held               float64    // Σ work / Σ size of the sample (Headroom.Held)
}

// newReplayer builds the sample's task jobs (sizes with src and opt as
// SimulateWhatIfs builds them, firstWhatIfJobs; cs in container-seconds of
// spec) with the execution-time model's type scales.
func newReplayer(j *data.Jobs, sizes, cs []float64, src estimate.Source, opt estimate.SizeOptions, spec *cluster.Spec,
	primary, secondary *classify.Result, solver lp.Solver, seed uint64) (*replayer, error) {
	jobs, err := firstWhatIfJobs(j, sizes, src, opt, spec, seed, min(j.Len(), ReplayMaxJobs))
	if err != nil {
		return nil, err
	}
	capacity, _ := tasklevel.SimCapacity(src, opt, spec)
	work, size := 0.0, 0.0
	for i := range jobs {
		work, size = work+jobs[i].Work(), size+sizes[i]*spec.Capacity()/capacity
	}
	held := 1.0
	if size > 0 {
		held = work / size
	}
	return &replayer{j: j, cs: cs, spec: spec, primary: primary, secondary: secondary, solver: solver, seed: seed, jobs: jobs, work: work, held: held}, nil
}

// replay runs the sample on the spec after change ("": as it is) with
// arrival rates × factor.
func (r *replayer) replay(ctx context.Context, change string, factor float64) (Replay, error) {
	s, cl, err := whatIfCluster(r.spec, change)
	if err != nil {
		return Replay{}, err
	}
	jobs := r.jobs
	if factor != 1 {
		jobs = make([]task.Job, len(r.jobs))
		a0 := r.jobs[0].Arrival
		for i, jb := range r.jobs {
			jb.Arrival = a0 + (jb.Arrival-a0)/factor
			jobs[i] = jb
		}
	}
	fit, completion, backlogOf, err := r.simulate(ctx, jobs, s, cl)
	if err != nil {
		return Replay{}, fmt.Errorf("replay %s at ×%.3g: %w", whatIfName(change), factor, err)
	}
	out := Replay{Change: change, Factor: factor, Lambda: fit.Lambda, Load: report.FinitePtr(tasklevel.ExecLoad(jobs, cl))}
	resp := make([]float64, len(jobs))
	for i := range jobs {
		resp[i] = completion[i] - jobs[i].Arrival
	}
	out.Mean, out.P99 = stat.Mean(resp, nil), sim.QuantilesOf(resp).P99
	if r.work > 0 {
		out.Unfinished = backlog(jobs, cl, backlogOf, jobs[len(jobs)-1].Arrival) / r.work
	}
	out.Overloaded = out.Unfinished > ReplayOverloaded
	return out, nil
}

// ReplayPolicy is the scheduler a replay runs on a cluster of one machine
// type, where every placement is λ's: the current scheduler's default
// (Fair, one pool per user). On several types the replay routes jobs as
// λ's LP places them (COSHH).
const ReplayPolicy = "fair:pool=user"

// replayScheduler names the scheduler a replay on spec runs.
func replayScheduler(spec *cluster.Spec) string {
	if len(spec.Resources) == 1 {
		return "Fair, one pool per user"
	}
	return "COSHH routing by the LP"
}

// simulate runs jobs on spec s (task cluster cl) under the replay's
// scheduler (replayScheduler) and returns the LP re-solved on s (λ there),
// the jobs' completion times, and those of the run whose unfinished jobs
// measure the backlog: the same run under COSHH; FIFO on one machine type,
// where the work left at an instant is the same under any work-conserving
// scheduler and FIFO leaves at most a few jobs part-done (Fair leaves the
// big jobs part-done, and counting their whole work would overstate it).
func (r *replayer) simulate(ctx context.Context, jobs []task.Job, s *cluster.Spec, cl *task.Cluster) (fit *validation.COSHHFit, completion, backlogOf []float64, err error) {
	if len(s.Resources) != 1 {
		fit, run, err := replayCOSHH(ctx, r.j, r.cs, jobs, s, cl, r.primary, r.secondary, r.solver, r.seed)
		if err != nil {
			return nil, nil, nil, err
		}
		return fit, run.Result.Completion, run.Result.Completion, nil
	}
	fit = &validation.COSHHFit{Primary: r.primary, Secondary: r.secondary, Rows: r.j.Len()}
	if err := fit.Solve(s, r.solver); err != nil {
		return nil, nil, nil, err
	}
	var out [2][]float64
	for k, spec := range []string{ReplayPolicy, "fifo"} {
		p, err := task.ParsePolicy(spec)
		if err != nil {
			return nil, nil, nil, err
		}
		res, err := task.Simulate(jobs, cl, p, task.Options{})
		if err != nil {
			return nil, nil, nil, err
		}
		out[k] = res.Completion
		if err := ctx.Err(); err != nil {
			return nil, nil, nil, err
		}
	}
	return fit, out[0], out[1], nil
}

// replayCOSHH simulates jobs (rows 0, 1, … of j, in the execution-time
// model) on spec s (task cluster cl) under COSHH routing by the LP of
// primary and secondary re-solved on s; it returns that fit (λ on s) and
// the run.
func replayCOSHH(ctx context.Context, j *data.Jobs, cs []float64, jobs []task.Job, s *cluster.Spec, cl *task.Cluster,
	primary, secondary *classify.Result, solver lp.Solver, seed uint64) (*validation.COSHHFit, *validation.COSHHRun, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	fit := &validation.COSHHFit{Primary: primary, Secondary: secondary, Rows: j.Len()}
	if err := fit.Solve(s, solver); err != nil {
		return nil, nil, err
	}
	win := &validation.COSHHWindow{J: j, Sizes: cs, Spec: s, Cluster: cl, Jobs: jobs, Solver: solver, Seed: seed}
	c, _, err := win.COSHHPolicyOf(fit, nil, false)
	if err != nil {
		return nil, nil, err
	}
	run, err := win.Run(ctx, c, nil)
	return fit, run, err
}

// headroom replays the sample at today's rate, at 0.9·λ× and at λ× it
// (λ of the spec; only today's when λ is not a finite positive number).
func (r *replayer) headroom(ctx context.Context, lambda float64) (*Headroom, error) {
	h := &Headroom{Lambda: lambda, Scheduler: replayScheduler(r.spec), Jobs: len(r.jobs), Of: r.j.Len(), Held: r.held}
	factors := []float64{1}
	if lambda > 0 && !math.IsInf(lambda, 0) {
		factors = append(factors, 0.9*lambda, lambda)
	}
	for _, f := range factors {
		rp, err := r.replay(ctx, "", f)
		if err != nil {
			return nil, err
		}
		h.Replays = append(h.Replays, rp)
	}
	return h, h.searchP99(ctx, r)
}

// within reports whether a replay keeps up with a p99 within the target.
func (h *Headroom) within(rp Replay) bool { return !rp.Overloaded && rp.P99 <= h.P99Target }

// searchP99 finds P99Factor: the largest rate factor in [1, λ] whose replay
// keeps up within P99Target, by bisection on a log scale between today's
// rate and λ (the replays at 1 and λ are h.Replays' first and last).
func (h *Headroom) searchP99(ctx context.Context, r *replayer) error {
	if len(h.Replays) < 3 || !(h.Lambda > 1) {
		return nil
	}
	today, atLambda := h.Replays[0], h.Replays[len(h.Replays)-1]
	h.P99Target = P99TargetFactor * today.P99
	if !h.within(today) || !(h.P99Target > 0) {
		return nil
	}
	if h.within(atLambda) {
		h.P99Factor = h.Lambda
		return nil
	}
	lo, hi, fail := 1.0, h.Lambda, atLambda
	for hi > lo*P99Resolution {
		mid := math.Sqrt(lo * hi)
		rp, err := r.replay(ctx, "", mid)
		if err != nil {
			return err
		}
		h.P99Search = append(h.P99Search, rp)
		if h.within(rp) {
			lo = mid
		} else {
			hi, fail = mid, rp
		}
	}
	h.P99Factor, h.P99Limit = lo, "p99"
	if fail.Overloaded {
		h.P99Limit = "overloaded"
	}
	return nil
}

// p99Sentence says how far the rate can grow before the p99 response
// exceeds the target ("" when there is no search).
func (h *Headroom) p99Sentence() string {
	switch {
	case h.P99Target == 0:
		return ""
	case h.P99Factor == 0:
		return fmt.Sprintf("; today's replay is already beyond the p99 target %s", experiment.FormatSpan(h.P99Target))
	case h.P99Factor == h.Lambda:
		return fmt.Sprintf("; the p99 response stays within %s (%g × today's) up to λ", experiment.FormatSpan(h.P99Target), float64(P99TargetFactor))
	}
	what := fmt.Sprintf("the p99 response exceeds %s (%g × today's %s)", experiment.FormatSpan(h.P99Target), float64(P99TargetFactor), experiment.FormatSpan(h.Replays[0].P99))
	if h.P99Limit == "overloaded" {
		what = fmt.Sprintf("the replay falls behind (overloaded; its p99 still within %s, %g × today's)", experiment.FormatSpan(h.P99Target), float64(P99TargetFactor))
	}
	return fmt.Sprintf("; by replay, ×%.3g before %s (%d more replays, to %g%%)", h.P99Factor, what, len(h.P99Search), 100*(P99Resolution-1))
}

// Sentence states the headroom in the user's terms, with the replays that
// check it.
func (h *Headroom) Sentence() string {
	var s string
	if h.Lambda > 1 {
		s = fmt.Sprintf("today's arrival rate can grow ×%.3g before the cluster saturates (λ = %.4g)%s", h.Lambda, h.Lambda, h.p99Sentence())
	} else {
		s = fmt.Sprintf("the cluster is short of capacity: λ = %.4g, it sustains only %.3g × today's arrival rate (today's needs %.3g × its capacity)", h.Lambda, h.Lambda, 1/h.Lambda)
	}
	if len(h.Replays) == 0 {
		return s
	}
	s += fmt.Sprintf("; checked by a task-level replay (%d of %d jobs, %s, execution-time model):", h.Jobs, h.Of, h.Scheduler)
	for k, rp := range h.Replays {
		at := "today's rate"
		switch k {
		case 1:
			at = fmt.Sprintf("×%.3g (0.9λ)", rp.Factor)
		case 2:
			at = fmt.Sprintf("×%.3g (λ)", rp.Factor)
		}
		v := "keeps up"
		if rp.Overloaded {
			v = fmt.Sprintf("OVERLOADED (%.0f%% of the work unfinished at the last arrival)", 100*rp.Unfinished)
		}
		if k > 0 {
			s += ";"
		}
		s += fmt.Sprintf(" at %s %s, mean %.4g s, p99 %.4g s", at, v, rp.Mean, rp.P99)
	}
	return s
}

// WriteText prints the headroom sentence and its replays as a table.
func (h *Headroom) WriteText(w io.Writer) {
	fmt.Fprintf(w, "\nheadroom: %s\n", h.Sentence())
	if math.Abs(h.Held-1) > 1e-6 {
		fmt.Fprintf(w, "the replay's loads are ×%.4g the decomposition's: its tasks hold %.4g× the log's task-seconds in container-seconds (reduce tasks hold 2 containers, seed 000)\n", h.Held, h.Held)
	}
	tw := report.NewTable(w, tabwriter.AlignRight)
	fmt.Fprintln(tw, strings.Join(ReplayHeader, "\t")+"\t")
	for _, rp := range h.Replays {
		fmt.Fprintln(tw, strings.Join(rp.Row(), "\t")+"\t")
	}
	tw.Flush()
}

// ReplayHeader heads a table of replays (Replay.Row): the headroom's, in
// the console and in report.html.
var ReplayHeader = []string{"arrival rate ×", "offered load", "mean response (s)", "p99 response (s)", "unfinished at last arrival", "replay"}

// Row is the replay as a row under ReplayHeader.
func (rp Replay) Row() []string {
	v := "keeps up"
	if rp.Overloaded {
		v = "OVERLOADED"
	}
	return []string{report.F4(rp.Factor), experiment.LoadCell(experiment.LoadOf(rp.Load)), report.F4(rp.Mean), report.F4(rp.P99), fmt.Sprintf("%.1f%%", 100*rp.Unfinished), v}
}

// CapacityCheck is a run's capacity check: where its work comes from
// (SizesNote), the whole log's load decomposed with the secondary
// classification's λ (LoadModel) and λ checked by replays (Headroom), or
// why there is none (Note).
type CapacityCheck struct {
	Sizes    string               `json:"sizes"`
	Load     *tasklevel.LoadModel `json:"load,omitempty"`
	Headroom *Headroom            `json:"headroom,omitempty"`
	Note     string               `json:"note,omitempty"`
}

// CheckCapacity computes a run's CapacityCheck from its classifications
// and λ (0: no LP). A log the replay cannot simulate (an LP without
// solution on the spec) leaves a note instead of failing the run.
func CheckCapacity(ctx context.Context, in *inputs.Inputs, cs *inputs.Classes, lambda float64) (*CapacityCheck, error) {
	sec := cs.Secondary.Result
	out := &CapacityCheck{Sizes: tasklevel.SizesNote(in.Source, in.Config.Sizes)}
	if sec == nil {
		out.Note = "no secondary classification"
		return out, nil
	}
	sizes := validation.COSHHSizes(in)
	lm, err := tasklevel.LogLoadModel(in.Jobs, sizes, in.Spec, sec.SizeFloor, 0, lambda)
	if err != nil {
		return nil, err
	}
	out.Load = &lm
	if len(sec.Classes) == 0 || !(lambda > 0) {
		out.Note = "no replay: the capacity LP has no λ"
		return out, nil
	}
	r, err := newReplayer(in.Jobs, in.Sizes, sizes, in.Source, in.Config.Sizes, in.Spec, cs.Primary.Result, sec, in.Config.Solver, in.Config.Seed)
	if err == nil {
		out.Headroom, err = r.headroom(ctx, lambda)
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil {
		out.Note = "no replay: " + err.Error()
	}
	return out, nil
}

// WriteText prints the check: the decomposition, the sizes' note and the
// headroom.
func (c *CapacityCheck) WriteText(w io.Writer) {
	if c.Load != nil {
		c.Load.WriteText(w, "whole log")
	}
	fmt.Fprintln(w, c.Sizes)
	if c.Headroom != nil {
		c.Headroom.WriteText(w)
	}
	if c.Note != "" {
		fmt.Fprintf(w, "capacity check: %s\n", c.Note)
	}
}

// CapacityCheckVersion changes when the capacity stage's check (the load
// decomposition, the headroom replays) changes what it computes.
const CapacityCheckVersion = 6 // 2: the rate factor before the p99 doubles; 3: λ from the folded master that certifies it (the canonical allocation at that λ); 4: over 256 machine types λ is held in several equal columns (the last digits of λ can move); 5: the replays bounded in tasks too (ReplayMaxTasks); 6: not bounded in tasks again (the overload share depends on the replay's span)

// Headline is the run's capacity sentence: λ, what it means for today's
// arrival rate and the replay that checks it, and 1/λ as the product of
// the views' loads and the named terms between them.
func (c *CapacityCheck) Headline(lambda float64) string {
	s := fmt.Sprintf("capacity: λ = %.4g (the cluster sustains %.3g × today's arrival rates)", lambda, lambda)
	if c == nil {
		return s
	}
	if h := c.Headroom; h != nil {
		s = "capacity: " + h.Sentence()
	}
	if lm := c.Load; lm != nil && lm.Lambda > 0 {
		s += fmt.Sprintf("\n  1/λ = %s = fluid load %s × memory rule %.3g × data retrieval %.3g (= the whole log's execution-time load %s, the model of the task-level and COSHH rows) × placement %.4g",
			experiment.LoadText(1/lm.Lambda), experiment.LoadText(lm.Plain), lm.MemoryFactor, lm.DataFactor, experiment.LoadText(lm.Exec), lm.PlacementFactor)
	}
	return s
}

// backlog is the work of the jobs arrived by t and not finished at t that
// could have finished by t alone on the empty cluster (task.Job.Alone, a
// lower bound): a job too big for that is unfinished on any cluster and
// says nothing of overload (a short log of long jobs). It counts the whole
// work of each (an upper bound).
func backlog(jobs []task.Job, cl *task.Cluster, completion []float64, t float64) float64 {
	b := 0.0
	for i := range jobs {
		j := &jobs[i]
		if j.Arrival <= t && completion[i] > t && j.Arrival+j.Alone(cl, 0) <= t {
			b += j.Work()
		}
	}
	return b
}
