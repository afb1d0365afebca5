package tuner

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The metrics a candidate is judged on, all to be minimised. Responses are
// in seconds; slowdown is response / (size / capacity); missed is the share
// of jobs that finish after their PS completion time (0.01 = 1%).
var ScoreMetrics = []struct {
	Name, label string
	Of          func(Score) float64
}{
	{"mean", "mean response (s)", func(s Score) float64 { return s.Mean }},
	{"p99", "p99 response (s)", func(s Score) float64 { return s.P99 }},
	{"slowdown", "mean slowdown", func(s Score) float64 { return s.MeanSlowdown }},
	{"p99-slowdown", "p99 slowdown", func(s Score) float64 { return s.P99Slowdown }},
	{"missed", "missed PS deadlines (share)", func(s Score) float64 { return s.Missed }},
}

// MetricOf returns the named metric of s (NaN for an unknown name).
func MetricOf(name string, s Score) float64 {
	for _, m := range ScoreMetrics {
		if m.Name == name {
			return worstIfNaN(m.Of(s))
		}
	}
	return math.NaN()
}

// worstIfNaN maps NaN (a metric nothing defines) to +Inf, the worst value.
func worstIfNaN(v float64) float64 {
	if math.IsNaN(v) {
		return math.Inf(1)
	}
	return v
}

func metricNames() string {
	var n []string
	for _, m := range ScoreMetrics {
		n = append(n, m.Name)
	}
	return strings.Join(n, ", ")
}

// Improvement is how much better s is than the current scheduler's score
// ref in the objective, as a fraction: 1 − s/ref (0.1: 10% lower); for mix,
// 1 − (mean/mean_ref + p99/p99_ref)/2. When ref's value is 0 (no missed
// deadline) it is −s's value: 0 when both are 0, negative when s is worse.
func (o Objective) Improvement(s, ref Score) float64 {
	if o == MinMix {
		return (relImprovement(s.Mean, ref.Mean) + relImprovement(s.P99, ref.P99)) / 2
	}
	name := string(o)
	if o == "" {
		name = string(MinMean)
	}
	return relImprovement(MetricOf(name, s), MetricOf(name, ref))
}

func relImprovement(v, ref float64) float64 {
	switch {
	case math.IsInf(v, 1):
		return -math.MaxFloat64 // the worst, and still a JSON number
	case ref > 0 && !math.IsInf(ref, 1):
		return 1 - v/ref
	case ref > 0:
		return 0
	}
	return -v
}

// Constraint bounds one metric: Metric ≤ Factor × the current scheduler's
// value + Plus when RelCurrent, else Metric ≤ Plus.
type Constraint struct {
	Metric     string  `json:"metric"`
	RelCurrent bool    `json:"relative_to_current"`
	Factor     float64 `json:"factor"`
	Plus       float64 `json:"plus"`
}

// DefaultConstraints guard against starvation: a candidate's p99 slowdown
// may be no worse than the current scheduler's, and its share of jobs that
// miss their PS deadline at most 1 percentage point above the current's.
// The point of slack is deliberate: the current scheduler is usually Fair
// (GPS), which with equal weights is PS itself and misses no PS deadline,
// while every size-based order (LAS included: 0.6–0.9% on the embedded
// trace) finishes some large jobs later than PS would; with no slack
// nothing but PS would be feasible. Strict priority with FIFO inside a
// level, which starves small jobs behind a long head (2.4% missed, mean
// slowdown in the thousands on the embedded trace), stays excluded.
const DefaultConstraints = "p99-slowdown<=current,missed<=current+0.01"

// ParseConstraints reads a comma-separated list of constraints, each
// "METRIC<=BOUND" with METRIC one of mean, p99, slowdown, p99-slowdown,
// missed and BOUND "current", "current+X", "F*current", "F*current+X" or a
// number X; "none" (or "") is no constraint.
func ParseConstraints(s string) ([]Constraint, error) {
	s = strings.TrimSpace(s)
	if s == "" || strings.EqualFold(s, "none") {
		return []Constraint{}, nil
	}
	var out []Constraint
	for _, part := range strings.Split(s, ",") {
		c, err := parseConstraint(strings.TrimSpace(part))
		if err != nil {
			return nil, fmt.Errorf("constraint %q: %w", part, err)
		}
		out = append(out, c)
	}
	return out, nil
}

func parseConstraint(s string) (Constraint, error) {
	name, bound, ok := strings.Cut(strings.ReplaceAll(s, " ", ""), "<=")
	if !ok {
		return Constraint{}, fmt.Errorf("need METRIC<=BOUND")
	}
	if math.IsNaN(MetricOf(name, Score{})) {
		return Constraint{}, fmt.Errorf("unknown metric %q (known: %s)", name, metricNames())
	}
	c := Constraint{Metric: name, Factor: 1}
	num := func(v string) (float64, error) {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || f < 0 {
			return 0, fmt.Errorf("%q is not a finite non-negative number", v)
		}
		return f, nil
	}
	i := strings.Index(bound, "current")
	if i < 0 {
		v, err := num(bound)
		c.Plus = v
		return c, err
	}
	c.RelCurrent = true
	if pre := bound[:i]; pre != "" {
		f, ok := strings.CutSuffix(pre, "*")
		if !ok {
			return c, fmt.Errorf("write a factor as F*current")
		}
		v, err := num(f)
		if err != nil {
			return c, err
		}
		c.Factor = v
	}
	if post := bound[i+len("current"):]; post != "" {
		p, ok := strings.CutPrefix(post, "+")
		if !ok {
			return c, fmt.Errorf("write a margin as current+X")
		}
		v, err := num(p)
		if err != nil {
			return c, err
		}
		c.Plus = v
	}
	return c, nil
}

func (c Constraint) String() string {
	if !c.RelCurrent {
		return fmt.Sprintf("%s<=%s", c.Metric, fmtNum(c.Plus))
	}
	s := c.Metric + "<="
	if c.Factor != 1 {
		s += fmtNum(c.Factor) + "*"
	}
	s += "current"
	if c.Plus != 0 {
		s += "+" + fmtNum(c.Plus)
	}
	return s
}

// Bound returns the constraint's bound given the current scheduler's score.
func (c Constraint) Bound(current Score) float64 {
	if !c.RelCurrent {
		return c.Plus
	}
	return c.Factor*MetricOf(c.Metric, current) + c.Plus
}

// Check says whether s satisfies the constraint and, if not, why.
func (c Constraint) Check(s, current Score) (bool, string) {
	v, b := MetricOf(c.Metric, s), c.Bound(current)
	// A relative tolerance, so that the current scheduler (and any policy
	// that equals it) satisfies a bound "≤ current" despite rounding.
	if v <= b*(1+1e-9)+1e-12 {
		return true, ""
	}
	return false, fmt.Sprintf("%s %.4g > %.4g (%s)", c.Metric, v, b, c)
}

// ConstraintsString renders constraints as ParseConstraints reads them.
func ConstraintsString(cs []Constraint) string {
	if len(cs) == 0 {
		return "none"
	}
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = c.String()
	}
	return strings.Join(parts, ",")
}

// Dominates reports whether a is at least as good as b in every metric and
// better in one (all minimised).
func Dominates(a, b Score) bool {
	better := false
	for _, m := range ScoreMetrics {
		va, vb := worstIfNaN(m.Of(a)), worstIfNaN(m.Of(b))
		if va > vb {
			return false
		}
		better = better || va < vb
	}
	return better
}

// ParetoFront returns the indices of the scores no other score dominates,
// in the order given. Equal scores are all on the front.
func ParetoFront(scores []Score) []int {
	var front []int
	for i, a := range scores {
		dominated := false
		for j, b := range scores {
			if j != i && Dominates(b, a) {
				dominated = true
				break
			}
		}
		if !dominated {
			front = append(front, i)
		}
	}
	return front
}

// fmtNum writes a number in the shortest form that reads back exactly.
func fmtNum(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
