package pipeline

import (
	"fmt"
	"io"
	"log/slog"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/schedplan/schedplan/classify"
	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/estimate"
	"github.com/schedplan/schedplan/lp"
	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/inputs"
	"github.com/schedplan/schedplan/pipeline/tasklevel"
	"github.com/schedplan/schedplan/pipeline/tuner"
)

// ParseFloats parses a comma-separated list of finite numbers given for
// param.
func ParseFloats(param, s string) ([]float64, error) {
	var out []float64
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, experiment.ParamErr(param, strconv.Quote(s), "%q is not a finite number", f)
		}
		out = append(out, v)
	}
	return out, nil
}

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
	if cfg.Baselines, err = ParsePolicies("baselines", q.Baselines); err != nil {
		return err
	}
	if cfg.Sigmas, err = ParseFloats("sigmas", q.Sigmas); err != nil {
		return err
	}
	cfg.LoadFactors, err = ParseFloats("load-factors", q.LoadFactors)
	return err
}

// ParsePolicies splits a comma-separated list of fluid policy
// specifications given for param (sim.SplitPolicies) and checks each.
func ParsePolicies(param, list string) ([]string, error) {
	specs := sim.SplitPolicies(list)
	if len(specs) == 0 {
		return nil, experiment.ParamErr(param, strconv.Quote(list), "no policy given")
	}
	for _, s := range specs {
		if _, err := experiment.Fluid.Policy(s); err != nil {
			return nil, experiment.ParamErr(param, s, "%v", err)
		}
	}
	return specs, nil
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

// MaxWhatIfs bounds the --what-if flags of one command.
const MaxWhatIfs = 100

// CheckWhatIfs parses capacity what-ifs against the spec's machine types
// and refuses counts no cluster has (negative, or above MaxMachines).
func CheckWhatIfs(whatIfs []string, spec *cluster.Spec) error {
	if len(whatIfs) > MaxWhatIfs {
		return experiment.ParamErr("what-if", fmt.Sprintf("(%d of them)", len(whatIfs)), "want at most %d what-ifs: each re-solves the capacity LP and simulates the log at task level (about 0.5 s each on the embedded trace)", MaxWhatIfs)
	}
	p := &lp.COSHHProblem{}
	for _, r := range spec.Resources {
		p.TypeNames = append(p.TypeNames, r.Name)
		p.Counts = append(p.Counts, float64(r.Count))
	}
	for _, w := range whatIfs {
		cs, err := lp.ParseChanges(p, w)
		if err != nil {
			return experiment.ParamErr("what-if", w, "%v", err)
		}
		counts := slices.Clone(p.Counts)
		for _, c := range cs {
			if n := p.Counts[c.Type] + c.Delta; !(n >= 0 && n <= inputs.MaxMachines) {
				return experiment.ParamErr("what-if", w, "%s would have %g machines: want 0 to %g", p.TypeNames[c.Type], n, float64(inputs.MaxMachines))
			}
			counts[c.Type] += c.Delta
		}
		// A cluster without machines has nothing to simulate COSHH on
		// (it failed after the LP, naming an empty cluster spec).
		if !slices.ContainsFunc(counts, func(n float64) bool { return n > 0 }) {
			return experiment.ParamErr("what-if", w, "leaves the cluster no machines")
		}
	}
	return nil
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
