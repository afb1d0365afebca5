package lp

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Change adds Delta machines (negative: removes) to machine type Type.
type Change struct {
	Type  int
	Delta float64
}

// ParseChanges parses "R1=+10,R2=-1" against the problem's type names.
func ParseChanges(p *COSHHProblem, s string) ([]Change, error) {
	var out []Change
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		name, val, ok := strings.Cut(part, "=")
		if !ok {
			return nil, fmt.Errorf("what-if %q: want TYPE=+N or TYPE=-N", part)
		}
		name = strings.TrimSpace(name)
		t := -1
		for k, n := range p.TypeNames {
			if n == name {
				t = k
			}
		}
		if t < 0 {
			return nil, fmt.Errorf("what-if %q: no machine type %q (types: %s)", part, name, strings.Join(p.TypeNames, ", "))
		}
		d, err := strconv.ParseFloat(strings.TrimSpace(val), 64)
		if err != nil || math.IsNaN(d) || math.IsInf(d, 0) {
			return nil, fmt.Errorf("what-if %q: %q is not a number of machines", part, val)
		}
		for _, c := range out {
			if c.Type == t {
				return nil, fmt.Errorf("what-if %q: machine type %q is changed twice (give one change per type)", s, name)
			}
		}
		out = append(out, Change{Type: t, Delta: d})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("what-if %q: no changes", s)
	}
	return out, nil
}

// FormatChanges renders changes as "R1=+10,R2=-1".
func FormatChanges(p *COSHHProblem, cs []Change) string {
	parts := make([]string, len(cs))
	for k, c := range cs {
		parts[k] = fmt.Sprintf("%s=%+g", p.TypeNames[c.Type], c.Delta)
	}
	return strings.Join(parts, ",")
}

// withCounts returns a copy of p with other machine counts (the rest shared).
func (p *COSHHProblem) withCounts(counts []float64) *COSHHProblem {
	q := *p
	q.Counts = counts
	return &q
}

// WhatIfResult is λ after a change of the machine counts.
type WhatIfResult struct {
	Changes []Change
	Counts  []float64
	Lambda  float64
	// Note explains a λ of 0 (no machines left, or a class left without a
	// machine that can run it).
	Note string
}

// WhatIf solves the COSHH LP with the changes applied together. Removing
// more machines than a type has is an error; a cluster left without
// machines has λ = 0 (with a note).
func WhatIf(p *COSHHProblem, changes []Change, opt COSHHOptions) (*WhatIfResult, error) {
	counts := append([]float64(nil), p.Counts...)
	for _, c := range changes {
		if c.Type < 0 || c.Type >= len(counts) {
			return nil, fmt.Errorf("what-if: machine type %d does not exist", c.Type)
		}
		counts[c.Type] += c.Delta
		if counts[c.Type] < -1e-9 {
			return nil, fmt.Errorf("what-if: machine type %s has %g machines; cannot remove %g", p.TypeNames[c.Type], p.Counts[c.Type], -c.Delta)
		}
		counts[c.Type] = math.Max(counts[c.Type], 0)
	}
	res := &WhatIfResult{Changes: changes, Counts: counts}
	opt.MPSFile, opt.LambdaOnly = "", true
	sol, err := SolveCOSHH(p.withCounts(counts), opt)
	switch {
	case errors.Is(err, ErrNoMachines):
		res.Note = "no machines left"
		return res, nil
	case err != nil:
		return nil, err
	}
	res.Lambda = sol.Lambda
	if len(sol.Unservable) > 0 {
		res.Note = strings.Join(sol.Messages, "; ")
	}
	return res, nil
}

// TargetResult says how many machines of one type, the others unchanged,
// bring λ to a target.
type TargetResult struct {
	Type   int
	Target float64
	// Reachable is false when no number of machines of this type alone
	// reaches the target; Limit is then the λ an unlimited number gives.
	Reachable bool
	Limit     float64
	// Count is the least number of machines of the type with λ ≥ Target
	// (possibly fewer than today: then Change is negative and that many
	// can go), Change = Count − today's count, and Lambda the λ at Count.
	Count  float64
	Change float64
	Lambda float64
}

// maxTargetCount bounds the search for a target's machine count.
const maxTargetCount = 1 << 40

// MachinesForTarget finds the least integer count of machine type t (the
// other types unchanged) at which λ ≥ target. λ is a concave,
// non-decreasing, piecewise-linear function of n_t (the optimum of an LP
// whose right-hand side grows with n_t), so it has a limit as n_t → ∞: the λ
// of the classes type t cannot run on the other types (∞ if type t runs
// every class). If the limit is below the target, no count reaches it;
// otherwise the count is found by doubling and bisection on integers.
func MachinesForTarget(p *COSHHProblem, t int, target float64, opt COSHHOptions) (*TargetResult, error) {
	if t < 0 || t >= len(p.Counts) {
		return nil, fmt.Errorf("target: machine type %d does not exist", t)
	}
	if !(target > 0) || math.IsInf(target, 0) {
		return nil, fmt.Errorf("target: λ target must be a positive number, got %v", target)
	}
	opt.MPSFile, opt.LambdaOnly = "", true
	res := &TargetResult{Type: t, Target: target}
	limit, err := lambdaLimit(p, t, opt)
	if err != nil {
		return nil, err
	}
	res.Limit = limit
	const rel = 1e-9
	if limit < target*(1-rel) {
		return res, nil
	}
	res.Reachable = true
	lambdaAt := func(n float64) (float64, error) {
		counts := append([]float64(nil), p.Counts...)
		counts[t] = n
		sol, err := SolveCOSHH(p.withCounts(counts), opt)
		if errors.Is(err, ErrNoMachines) {
			return 0, nil
		}
		if err != nil {
			return 0, err
		}
		return sol.Lambda, nil
	}
	reached := func(l float64) bool { return l >= target*(1-rel) }
	cur := math.Ceil(p.Counts[t])
	lcur, err := lambdaAt(cur)
	if err != nil {
		return nil, err
	}
	// Invariant: λ(lo) < target ≤ λ(hi); lo = -1 stands for "below zero".
	lo, hi, lhi := -1.0, cur, lcur
	if !reached(lcur) {
		lo = cur
		step := math.Max(1, cur)
		for {
			hi = lo + step
			if hi > maxTargetCount {
				return nil, fmt.Errorf("target: more than %g machines of type %s would be needed", float64(maxTargetCount), p.TypeNames[t])
			}
			if lhi, err = lambdaAt(hi); err != nil {
				return nil, err
			}
			if reached(lhi) {
				break
			}
			lo, step = hi, 2*step
		}
	}
	for hi-lo > 1 {
		mid := math.Floor((lo + hi) / 2)
		lm, err := lambdaAt(mid)
		if err != nil {
			return nil, err
		}
		if reached(lm) {
			hi, lhi = mid, lm
		} else {
			lo = mid
		}
	}
	res.Count, res.Lambda = hi, lhi
	res.Change = hi - p.Counts[t]
	return res, nil
}

// lambdaLimit returns lim λ as n_t → ∞: classes that type t can run are
// served entirely by it, so the limit is the λ of the other classes on the
// other types (+Inf if there are none with arrivals).
func lambdaLimit(p *COSHHProblem, t int, opt COSHHOptions) (float64, error) {
	q := &COSHHProblem{TypeNames: p.TypeNames, Counts: append([]float64(nil), p.Counts...)}
	q.Counts[t] = 0
	for i, a := range p.Alpha {
		if a > 0 && p.Mu[i][t] == 0 {
			q.ClassNames = append(q.ClassNames, p.ClassNames[i])
			q.Alpha = append(q.Alpha, a)
			q.Mu = append(q.Mu, p.Mu[i])
		}
	}
	if len(q.Alpha) == 0 {
		return math.Inf(1), nil
	}
	sol, err := SolveCOSHH(q, opt)
	if errors.Is(err, ErrNoMachines) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	return sol.Lambda, nil
}
