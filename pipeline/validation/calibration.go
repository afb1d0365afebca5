package validation

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"

	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/cluster/task"
	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/estimate"
	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/inputs"
	"github.com/schedplan/schedplan/pipeline/report"
	"github.com/schedplan/schedplan/pipeline/tasklevel"
	"gonum.org/v1/gonum/floats"
)

// Calibration says how far a simulation of the current scheduler is from
// what the cluster did: on the validation window, the jobs' observed
// response times (finish − submit) and waits (first start − submit)
// against the simulated ones, per job and in aggregate. It tells how much
// to trust the what-ifs: a model that does not reproduce today's cluster
// can still rank policies, but its seconds are not the cluster's.
type Calibration struct {
	// Level is "fluid" (the fluid model at the run's capacity) or "task"
	// (the task-level core on the cluster spec's machines).
	Level string `json:"level"`
	// Policy is the current scheduler as simulated.
	Policy string `json:"policy"`
	// Jobs counts the validation jobs with an observed response.
	Jobs      int              `json:"jobs"`
	Observed  CalibrationStats `json:"observed"`
	Simulated CalibrationStats `json:"simulated"`
	// MeanError, P50Error and P99Error are relative errors of the
	// simulated response statistics, (simulated − observed) / observed;
	// null when the observed statistic is 0.
	MeanError *float64 `json:"mean_response_rel_error"`
	P50Error  *float64 `json:"p50_response_rel_error"`
	P99Error  *float64 `json:"p99_response_rel_error"`
	// WaitError is simulated − observed mean wait, in seconds, over the
	// jobs that have both (null: none). Observed.MeanWait is over every
	// compared job with a start time.
	WaitError *float64 `json:"mean_wait_error_s"`
	// KS is the two-sample Kolmogorov–Smirnov distance between the
	// observed and simulated response distributions: the largest gap
	// between their CDFs, 0 (same) to 1 (disjoint).
	KS float64 `json:"ks_distance"`
	// MedianLogRatio and P90LogRatio are the median and 90th percentile of
	// |ln(simulated / observed)| over the jobs, with responses below
	// MinCalibrationResponse seconds counted as that much (0.69 is a factor
	// of 2); Within2 is the share of jobs simulated within a factor 2 of
	// what was observed.
	MedianLogRatio float64 `json:"median_abs_log_ratio"`
	P90LogRatio    float64 `json:"p90_abs_log_ratio"`
	Within2        float64 `json:"within_factor_2_share"`
	// Trust is "good", "fair" or "poor" (CalibrationTrust), and Verdict
	// says what it means for the what-ifs.
	Trust   string `json:"trust"`
	Verdict string `json:"verdict"`
}

// CalibrationStats are the response and wait statistics of one side, in
// seconds; the wait ones are null without start times (and in the fluid
// model, whose jobs are served from arrival).
type CalibrationStats struct {
	MeanResponse float64  `json:"mean_response_s"`
	P50Response  float64  `json:"p50_response_s"`
	P99Response  float64  `json:"p99_response_s"`
	WaitJobs     int      `json:"wait_jobs"`
	MeanWait     *float64 `json:"mean_wait_s"`
	P50Wait      *float64 `json:"p50_wait_s"`
	P99Wait      *float64 `json:"p99_wait_s"`
}

// CalibrationReport is the calibration at both levels (a level is nil
// when it was not simulated), with a note on how to read it or why there
// is none.
type CalibrationReport struct {
	Fluid *Calibration `json:"fluid,omitempty"`
	Task  *Calibration `json:"task,omitempty"`
	Note  string       `json:"note"`
}

// MinCalibrationResponse is the floor, in seconds, of the responses in
// per-job log-ratios: a job that took 0.01 s against 0.02 s is not a
// factor-2 miss of the model.
const MinCalibrationResponse = 1.0

// Thresholds of CalibrationTrust: a "good" model is within 10% on the
// mean response, KS ≤ 0.1 and a median per-job error ≤ ×1.25; a "fair"
// one within 30%, KS ≤ 0.3 and ≤ ×2; anything else is "poor".
var calibrationLevels = []struct {
	trust        string
	meanErr, ks  float64
	medianFactor float64
}{
	{"good", 0.10, 0.10, 1.25},
	{"fair", 0.30, 0.30, 2},
}

// CalibrationTrust grades a calibration (see calibrationLevels).
func CalibrationTrust(c *Calibration) string {
	for _, l := range calibrationLevels {
		if c.MeanError != nil && math.Abs(*c.MeanError) <= l.meanErr && c.KS <= l.ks && c.MedianLogRatio <= math.Log(l.medianFactor)+1e-12 {
			return l.trust
		}
	}
	return "poor"
}

// CompareObserved computes a calibration from per-job observed and
// simulated responses and waits (seconds; NaN where unknown; simWait nil
// when the level has no waits).
func CompareObserved(level, policy string, obsResp, obsWait, simResp, simWait []float64) *Calibration {
	c := &Calibration{Level: level, Policy: policy}
	var or, sr, ratios, ow, sw, owAll []float64
	for k, o := range obsResp {
		s := simResp[k]
		if math.IsNaN(o) || math.IsNaN(s) {
			continue
		}
		or, sr = append(or, o), append(sr, s)
		if !math.IsNaN(obsWait[k]) {
			owAll = append(owAll, obsWait[k])
		}
		ratios = append(ratios, math.Abs(math.Log(math.Max(s, MinCalibrationResponse)/math.Max(o, MinCalibrationResponse))))
		if simWait != nil && !math.IsNaN(obsWait[k]) && !math.IsNaN(simWait[k]) {
			ow, sw = append(ow, obsWait[k]), append(sw, simWait[k])
		}
	}
	c.Jobs = len(or)
	if c.Jobs == 0 {
		return nil
	}
	c.Observed, c.Simulated = statsOf(or, owAll), statsOf(sr, sw)
	rel := func(s, o float64) *float64 {
		if o <= 0 {
			return nil
		}
		return report.FinitePtr((s - o) / o)
	}
	c.MeanError = rel(c.Simulated.MeanResponse, c.Observed.MeanResponse)
	c.P50Error = rel(c.Simulated.P50Response, c.Observed.P50Response)
	c.P99Error = rel(c.Simulated.P99Response, c.Observed.P99Response)
	if len(ow) > 0 {
		c.WaitError = report.FinitePtr(floats.Sum(sw)/float64(len(sw)) - floats.Sum(ow)/float64(len(ow)))
	}
	c.KS = KSDistance(or, sr)
	sort.Float64s(ratios)
	c.MedianLogRatio, c.P90LogRatio = experiment.QuantileSorted(ratios, 0.5), experiment.QuantileSorted(ratios, 0.9)
	n2 := 0
	for _, r := range ratios {
		if r <= math.Ln2+1e-12 {
			n2++
		}
	}
	c.Within2 = float64(n2) / float64(len(ratios))
	c.Trust = CalibrationTrust(c)
	c.Verdict = c.verdict()
	return c
}

func statsOf(resp, wait []float64) CalibrationStats {
	q := sim.QuantilesOf(resp)
	st := CalibrationStats{MeanResponse: q.Mean, P50Response: q.P50, P99Response: q.P99, WaitJobs: len(wait)}
	if len(wait) > 0 {
		w := sim.QuantilesOf(wait)
		st.MeanWait, st.P50Wait, st.P99Wait = report.FinitePtr(w.Mean), report.FinitePtr(w.P50), report.FinitePtr(w.P99)
	}
	return st
}

// KSDistance is the two-sample Kolmogorov–Smirnov statistic of a and b:
// sup over x of |F_a(x) − F_b(x)| for their empirical CDFs (0 for an
// empty sample). Values within 1 µs or a relative 1e-9 of each other
// count as equal, so that times that went through a log's clock (finish −
// submit at 1.7e9 s has a resolution of 2.4e-7 s) compare equal to what
// they were. It does not modify a or b.
func KSDistance(a, b []float64) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	x, y := slices.Sorted(slices.Values(a)), slices.Sorted(slices.Values(b))
	i, j, d := 0, 0, 0.0
	for i < len(x) && j < len(y) {
		v := math.Min(x[i], y[j])
		v += math.Max(1e-9*math.Abs(v), 1e-6)
		for i < len(x) && x[i] <= v {
			i++
		}
		for j < len(y) && y[j] <= v {
			j++
		}
		d = math.Max(d, math.Abs(float64(i)/float64(len(x))-float64(j)/float64(len(y))))
	}
	return d
}

func (c *Calibration) verdict() string {
	mean := "–"
	if c.MeanError != nil {
		mean = fmt.Sprintf("%+.1f%%", 100**c.MeanError)
	}
	head := fmt.Sprintf("%s level, %d jobs: mean response %.4g s simulated against %.4g s observed (%s), KS distance %.2f, median per-job error ×%.2f, %.0f%% of jobs within a factor 2",
		c.Level, c.Jobs, c.Simulated.MeanResponse, c.Observed.MeanResponse, mean, c.KS, math.Exp(c.MedianLogRatio), 100*c.Within2)
	switch c.Trust {
	case "good":
		return head + ": GOOD — the simulated current scheduler reproduces the cluster; the what-ifs' response times can be read as this cluster's seconds, to about " + mean + "."
	case "fair":
		return head + ": FAIR — trust the what-ifs' ranking and relative changes more than their absolute seconds."
	}
	return head + ": POOR — the model does not reproduce the cluster; the what-ifs compare policies under the model's assumptions only. Check the cluster spec (--cluster, --capacity), the size units and --current."
}

// Calibrate compares the current scheduler's simulations on the
// validation window (the fluid one of vs's exact rows, and a task-level
// one when vs has a task-level view) with the log's observed times, and
// returns the report and calibration.parquet (one row per job and level).
func Calibrate(ctx context.Context, in *inputs.Inputs, vs *ValidationState) (*CalibrationReport, map[string][]byte, error) {
	lo, n := in.Split.TuneJobs, in.Split.ValidJobs
	obsResp, obsWait, _ := inputs.ObservedTimes(in.Jobs, lo, n)
	rep := &CalibrationReport{}
	if !slices.ContainsFunc(obsResp, func(v float64) bool { return !math.IsNaN(v) }) {
		rep.Note = "none: the validation window's jobs have no observed finish times (the log records no start/finish, or they contradict the submit times)"
		return rep, nil, nil
	}
	rows := &calibrationRows{}
	if len(vs.currentResp) == n {
		rep.Fluid = CompareObserved("fluid", in.Config.Current, obsResp, obsWait, vs.currentResp, nil)
		rows.add("fluid", obsResp, obsWait, vs.currentResp, nil)
	}
	if vs.Task != nil {
		// The task-level view's jobs: the window's first m.
		simResp, simWait, err := TaskCurrentTimes(ctx, in, vs.Task.Current)
		if err != nil {
			return nil, nil, fmt.Errorf("task-level calibration: %w", err)
		}
		m := len(simResp)
		rep.Task = CompareObserved("task", vs.Task.Current, obsResp[:m], obsWait[:m], simResp, simWait)
		rows.add("task", obsResp[:m], obsWait[:m], simResp, simWait)
	}
	rep.Note = "the current scheduler simulated on the validation window (from an empty cluster at its first arrival) against the times the log observed; relative errors are (simulated − observed) / observed, times in seconds. The fluid model has no waits (jobs are served from arrival)."
	if in.Source == estimate.FromBytes || in.Config.Sizes.NormaliseAll {
		rep.Note += fmt.Sprintf(" Sizes were derived from bytes and normalised to a load of %g, so the fluid model's seconds are not this cluster's: its calibration measures that normalisation too.", in.Config.Sizes.Load)
	}
	b, err := rows.parquet(in.Jobs, lo)
	if err != nil {
		return nil, nil, err
	}
	return rep, map[string][]byte{"calibration.parquet": b}, nil
}

// TaskCurrentTimes simulates the current scheduler (a task-level spec) on
// the task-level views' jobs of the validation window (taskWindow) and
// returns every job's response and wait (first task start − submit), in
// seconds.
func TaskCurrentTimes(ctx context.Context, in *inputs.Inputs, spec string) (resp, wait []float64, err error) {
	cl, err := tasklevel.TaskCluster(in.Spec)
	if err != nil {
		return nil, nil, err
	}
	lo, n, _, err := TaskWindow(in)
	if err != nil {
		return nil, nil, err
	}
	win, err := in.Window(lo, lo+n)
	if err != nil {
		return nil, nil, err
	}
	jobs, err := tasklevel.ModelTaskJobs(in.Jobs, in.Tasks, win, lo, in.Capacity, in.Spec, cl.Rate(), in.Config.Seed)
	if err != nil {
		return nil, nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	r := &tasklevel.TaskLevel{Cluster: cl, Jobs: jobs, ContainerMB: in.Config.ContainerMB}
	ts := &tasklevel.TaskSimulator{R: r, Parsed: map[string]*tasklevel.TaskPolicy{}}
	// Simulate reads only the fluid jobs' estimates.
	res, err := ts.Simulate(ctx, task.FluidJobs(jobs), 0, cl.Rate(), spec)
	if err != nil {
		return nil, nil, err
	}
	resp = slices.Clone(res.Response)
	wait = make([]float64, len(jobs))
	for i := range jobs {
		wait[i] = ts.FirstStart[i] - jobs[i].Arrival // NaN for a job without tasks
	}
	return resp, wait, nil
}

// calibrationRows are calibration.parquet's rows.
type calibrationRows struct {
	level                      []string
	job                        []int32
	obsResp, simResp, logRatio []float64
	obsWait, simWait           []float64
}

func (r *calibrationRows) add(level string, obsResp, obsWait, simResp, simWait []float64) {
	for k := range obsResp {
		r.level = append(r.level, level)
		r.job = append(r.job, int32(k))
		r.obsResp = append(r.obsResp, obsResp[k])
		r.simResp = append(r.simResp, simResp[k])
		r.logRatio = append(r.logRatio, math.Log(math.Max(simResp[k], MinCalibrationResponse)/math.Max(obsResp[k], MinCalibrationResponse)))
		r.obsWait = append(r.obsWait, obsWait[k])
		sw := math.NaN()
		if simWait != nil {
			sw = simWait[k]
		}
		r.simWait = append(r.simWait, sw)
	}
}

// parquet writes the rows: level, the job's id, observed and simulated
// response and wait (s; NaN where unknown) and ln(simulated / observed)
// response (floored at MinCalibrationResponse).
func (r *calibrationRows) parquet(j *data.Jobs, lo int) ([]byte, error) {
	ids := make([]string, len(r.job))
	for k, i := range r.job {
		ids[k] = j.ID.At(lo + int(i))
	}
	t := &data.Table{}
	t.Add("level", r.level)
	t.Add(data.ColJobID, ids)
	t.Add("observed_response_s", r.obsResp)
	t.Add("simulated_response_s", r.simResp)
	t.Add("log_ratio", r.logRatio)
	t.Add("observed_wait_s", r.obsWait)
	t.Add("simulated_wait_s", r.simWait)
	var buf bytes.Buffer
	if err := data.WriteTable(&buf, t, data.FormatParquet); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// WriteText prints the calibration: one line per level and its verdict.
func (r *CalibrationReport) WriteText(w io.Writer) {
	if r == nil {
		return
	}
	if r.Fluid == nil && r.Task == nil {
		fmt.Fprintf(w, "calibration: %s\n\n", r.Note)
		return
	}
	fmt.Fprintln(w, "calibration against the observed times (how much to trust the what-ifs):")
	for _, c := range []*Calibration{r.Fluid, r.Task} {
		if c == nil {
			continue
		}
		fmt.Fprintf(w, "  %s\n", c.Verdict)
		if c.WaitError != nil {
			fmt.Fprintf(w, "    wait (first start − submit): mean %.4g s simulated, %.4g s observed; simulated − observed %+.4g s over the %d jobs with both\n", *c.Simulated.MeanWait, *c.Observed.MeanWait, *c.WaitError, c.Simulated.WaitJobs)
		}
	}
	fmt.Fprintln(w)
}

// Section is the report's calibration section.
func (r *CalibrationReport) Section() report.Section {
	s := report.Section{ID: "calibration", Title: "Calibration: how much to trust the what-ifs"}
	if r == nil {
		s.Intro = "no calibration in this run"
		return s
	}
	s.Intro = r.Note
	opt := func(v *float64, unit string) string {
		if v == nil {
			return "–"
		}
		if unit == "%" {
			return report.Pct(*v)
		}
		return report.F4(*v) + unit
	}
	t := report.TableBlock{Highlight: -1, Caption: "The current scheduler simulated against the log's observed times, on the validation window",
		Header: []string{"level", "jobs", "mean response obs / sim (s)", "error", "p50 obs / sim (s)", "error", "p99 obs / sim (s)", "error", "mean wait obs / sim (s)", "KS distance", "median per-job error", "within ×2", "trust"}}
	for _, c := range []*Calibration{r.Fluid, r.Task} {
		if c == nil {
			continue
		}
		s.Intro += " " + c.Verdict
		t.Rows = append(t.Rows, []string{c.Level, fmt.Sprint(c.Jobs),
			report.F4(c.Observed.MeanResponse) + " / " + report.F4(c.Simulated.MeanResponse), opt(c.MeanError, "%"),
			report.F4(c.Observed.P50Response) + " / " + report.F4(c.Simulated.P50Response), opt(c.P50Error, "%"),
			report.F4(c.Observed.P99Response) + " / " + report.F4(c.Simulated.P99Response), opt(c.P99Error, "%"),
			opt(c.Observed.MeanWait, "") + " / " + opt(c.Simulated.MeanWait, ""),
			fmt.Sprintf("%.3f", c.KS), fmt.Sprintf("×%.2f", math.Exp(c.MedianLogRatio)), fmt.Sprintf("%.0f%%", 100*c.Within2), c.Trust})
	}
	if len(t.Rows) > 0 {
		s.Tables = []report.TableBlock{t}
	}
	return s
}
