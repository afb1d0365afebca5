package pipeline

import (
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"

	"github.com/schedplan/schedplan/classify"
	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/estimate"
	"github.com/schedplan/schedplan/lp"
	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/inputs"
	"github.com/schedplan/schedplan/pipeline/tasklevel"
	"github.com/schedplan/schedplan/pipeline/tuner"
)

// FormatFloats writes numbers as the comma-separated list ParseFloats
// reads (a flag's default).
func FormatFloats(v []float64) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.FormatFloat(x, 'g', -1, 64)
	}
	return strings.Join(s, ",")
}

// RunRequest holds the flags of schedplan run that are parsed into its
// RunConfig: the classes (--k), the LP solver, the objective and the lists
// of baselines, σ and load factors.
type RunRequest struct {
	K, Solver, Objective, Baselines, Sigmas, LoadFactors string
}

// Configure parses the request into cfg, naming the flag of an error.
func (q RunRequest) Configure(cfg *inputs.RunConfig) error {
	var err error
	if cfg.K, err = classify.ParseK(q.K); err != nil {
		return fmt.Errorf("--k: %w", err)
	}
	if cfg.Solver, err = lp.ParseSolver(q.Solver); err != nil {
		return fmt.Errorf("--solver: %w", err)
	}
	cfg.Objective = tuner.Objective(q.Objective)
	if cfg.Baselines, err = experiment.ParsePolicies("baselines", q.Baselines); err != nil {
		return err
	}
	if cfg.Sigmas, err = experiment.ParseFloats("sigmas", q.Sigmas); err != nil {
		return err
	}
	cfg.LoadFactors, err = experiment.ParseFloats("load-factors", q.LoadFactors)
	return err
}

// ParseAnyPolicies splits a list of policy specifications of either
// resolution (simulate --level): each must name a fluid policy or a
// task-level one (checked fully when the experiment runs).
func ParseAnyPolicies(param, list string) ([]string, error) {
	specs := sim.SplitPolicies(list)
	if len(specs) == 0 {
		return nil, experiment.ParamErr(param, strconv.Quote(list), "no policy given")
	}
	for _, s := range specs {
		_, ferr := experiment.Fluid.Policy(s)
		name, _, err := sim.SplitSpec(s)
		if ferr != nil && (err != nil || tasklevel.TaskPolicyDoc(name) == "") {
			return nil, experiment.ParamErr(param, s, "%v (task level: %s)", ferr, strings.Join(tasklevel.TaskPolicyNames(), ", "))
		}
		if strings.EqualFold(name, "coshh") {
			// Its plan (classes, the LP's suggested sets) is fitted by
			// the pipeline; a bare spec failed after the other policies
			// ran, with a message meant for programmers.
			return nil, experiment.ParamErr(param, s, "COSHH routes by a plan fitted on the log (classes and the LP's suggested sets): schedplan run simulates it (the tune-coshh and validate stages; the report's COSHH section)")
		}
	}
	return specs, nil
}

// ErrorModelOf is the size-estimation error model of simulate's flags:
// log-normal σ when sigmaSet, uniform I when uniformSet (not both), else
// exact estimates; checked.
func ErrorModelOf(sigmaSet bool, sigma float64, uniformSet bool, i float64) (estimate.ErrorModel, error) {
	m := estimate.ErrorModel{Kind: estimate.Exact}
	switch {
	case sigmaSet && uniformSet:
		return m, experiment.ParamErr("sigma", sigma, "--sigma and --uniform are exclusive: choose one error model")
	case sigmaSet:
		m = estimate.ErrorModel{Kind: estimate.LogNormal, Sigma: sigma}
	case uniformSet:
		m = estimate.ErrorModel{Kind: estimate.Uniform, I: i}
	}
	return m, m.Validate()
}

// LogHandler is the log of the command line: text or json (format) on w,
// at level debug, info, warn or error, and at least warn when quiet.
func LogHandler(w io.Writer, format, level string, quiet bool) (slog.Handler, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(level)); err != nil {
		return nil, experiment.ParamErr("log-level", level, "%v", err)
	}
	if quiet {
		l = max(l, slog.LevelWarn)
	}
	opts := &slog.HandlerOptions{Level: l}
	switch format {
	case "text":
		return slog.NewTextHandler(w, opts), nil
	case "json": // one object a line, each with an "event" (Reporter)
		return EventHandler(slog.NewJSONHandler(w, opts)), nil
	}
	return nil, experiment.ParamErr("log-format", format, "not text or json")
}
