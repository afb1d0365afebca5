package capacity

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strings"

	"github.com/schedplan/schedplan/classify"
	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/lp"
	"github.com/schedplan/schedplan/pipeline/bundle"
	"github.com/schedplan/schedplan/pipeline/report"
	"github.com/schedplan/schedplan/pipeline/tasklevel"
)

// CapacityOptions control a capacity plan.
type CapacityOptions struct {
	Solver lp.Solver
	// MPS, when set, names a file for the LP (see lp.COSHHOptions), with
	// the classification's name inserted before the extension:
	// coshh.mps → coshh.secondary.mps.
	MPS string
	// WhatIfs are machine changes ("R1=+10,R2=-1"), each solved besides the
	// standard ones (one machine more and one fewer of every type).
	WhatIfs []string
	// Target, when positive, asks for each type alone how many of its
	// machines reach λ ≥ Target.
	Target float64
}

// CapacityAnalysis is the COSHH LP of one classification (seed 003 §3.2):
// λ, the allocation of every machine type to the classes, the suggested
// classes per type, what-ifs and targets. `schedplan capacity` prints it;
// the bundle stores its projection (Plan).
type CapacityAnalysis struct {
	Name string `json:"name"`
	// Reason says why there is no LP (no classes, no demand).
	Reason     string           `json:"reason,omitempty"`
	Jobs       int              `json:"jobs"`
	K          int              `json:"k"`
	Features   []string         `json:"features,omitempty"`
	Lambda     float64          `json:"lambda"`
	TotalAlpha float64          `json:"total_alpha_per_s"`
	Classes    []CapacityClass  `json:"classes,omitempty"`
	Types      []CapacityType   `json:"types,omitempty"`
	WhatIfs    []CapacityWhatIf `json:"what_if,omitempty"`
	Target     float64          `json:"target,omitempty"`
	Targets    []CapacityTarget `json:"targets,omitempty"`
	Messages   []string         `json:"messages,omitempty"`
	Solver     string           `json:"solver,omitempty"`
	Method     string           `json:"method,omitempty"`
	Rounds     int              `json:"rounds,omitempty"`
	Bound      float64          `json:"dual_bound,omitempty"`
	Columns    int              `json:"columns,omitempty"`
	MPSFile    string           `json:"mps_file,omitempty"`
	// HasDuals says the types' dual prices are set; Canonical that the
	// allocation is lp's canonical one (the same for every solver).
	HasDuals       bool    `json:"has_duals"`
	Canonical      bool    `json:"canonical_allocation"`
	CanonicalSlack float64 `json:"canonical_slack,omitempty"` // relative slack of λ in the canonical LP
	// machines[t][i] is the machines of type t given to class i.
	machines [][]float64
}

// CapacityClass is one job class in the LP.
type CapacityClass struct {
	Name     string    `json:"name"`
	Label    string    `json:"label"`
	Jobs     int       `json:"jobs"`
	Alpha    float64   `json:"alpha_per_s"`
	MeanSize float64   `json:"mean_size"`
	Mu       []float64 `json:"mu_per_s"`
	// Delta is the fraction of each machine type allocated to the class.
	Delta []float64 `json:"delta"`
}

// CapacityType is one machine type in the LP's answer.
type CapacityType struct {
	Name        string   `json:"name"`
	Count       float64  `json:"count"`
	Suggested   []string `json:"suggested_classes"`
	Allocated   float64  `json:"allocated"`
	Utilisation float64  `json:"utilisation"`
	Throughput  float64  `json:"throughput_per_s"`
	// Marginal is the dual price per machine (dλ per machine added);
	// DualPrice the dual of the type's capacity row, dλ per the type's
	// whole capacity (all its machines), and DualShare = DualPrice / λ
	// (the duals sum to λ). Bottleneck: DualPrice > 0. From the first LP
	// (λ); absent when the solver gave no duals (HasDuals false).
	Marginal   float64 `json:"dlambda_per_machine"`
	DualPrice  float64 `json:"dual_price"`
	DualShare  float64 `json:"dual_share"`
	Bottleneck bool    `json:"bottleneck"`
}

// CapacityWhatIf is λ after a change of machine counts.
type CapacityWhatIf struct {
	Change string  `json:"change"`
	Lambda float64 `json:"lambda"`
	Ratio  float64 `json:"ratio"` // λ / base λ
	Note   string  `json:"note,omitempty"`
	// Sim is the what-if's replay at today's rate (the secondary
	// classification's what-ifs; nil when not simulated).
	Sim *Replay `json:"simulated,omitempty"`
}

// CapacityTarget is how many machines of one type alone reach a λ target.
type CapacityTarget struct {
	Type      string  `json:"type"`
	Reachable bool    `json:"reachable"`
	Limit     float64 `json:"limit_lambda"` // λ with unlimited machines of the type (+Inf as MaxFloat64 in JSON: see LimitText)
	LimitText string  `json:"limit"`
	Count     float64 `json:"machines,omitempty"`
	Change    float64 `json:"change,omitempty"`
	Lambda    float64 `json:"lambda,omitempty"`
}

// PlanCapacity solves the COSHH LP of a classification, the standard
// what-ifs (one machine more and one fewer of every type), opt.WhatIfs and
// opt.Target. A classification without classes, or without demand, gives an
// analysis with a Reason and no LP.
func PlanCapacity(res *classify.Result, spec *cluster.Spec, opt CapacityOptions) (*CapacityAnalysis, error) {
	a := &CapacityAnalysis{Name: res.Name, Reason: res.Reason, Jobs: res.Jobs(), K: res.K, Features: res.Features}
	a.Messages = append(a.Messages, res.Warnings...)
	if len(res.Classes) == 0 {
		if a.Reason == "" {
			a.Reason = "the classification has no classes"
		}
		return a, nil
	}
	p, err := tasklevel.COSHHProblem(res, spec)
	if err != nil {
		return nil, err
	}
	lpOpt := lp.COSHHOptions{Solver: opt.Solver}
	if opt.MPS != "" {
		ext := filepath.Ext(opt.MPS)
		lpOpt.MPSFile = strings.TrimSuffix(opt.MPS, ext) + "." + res.Name + cmp.Or(ext, ".mps")
	}
	sol, err := lp.SolveCOSHH(p, lpOpt)
	if errors.Is(err, lp.ErrNoDemand) {
		a.Reason = err.Error()
		return a, nil
	}
	if err != nil {
		return nil, err
	}
	a.MPSFile = lpOpt.MPSFile
	a.Lambda = sol.Lambda
	a.Messages = append(a.Messages, sol.Messages...)
	a.Solver, a.Method, a.Rounds, a.Columns = string(sol.Solver), sol.Method.String(), sol.Rounds, sol.Columns
	a.HasDuals, a.Canonical, a.CanonicalSlack = sol.HasDuals, sol.Canonical, sol.CanonicalSlack
	if !math.IsInf(sol.Bound, 0) {
		a.Bound = sol.Bound
	}
	for i, c := range res.Classes {
		a.TotalAlpha += c.Alpha
		a.Classes = append(a.Classes, CapacityClass{Name: p.ClassNames[i], Label: c.Label, Jobs: c.Count, Alpha: c.Alpha,
			MeanSize: c.MeanSize, Mu: c.Mu, Delta: sol.Delta[i]})
	}
	for t, tl := range sol.Types {
		ct := CapacityType{Name: tl.Name, Count: tl.Count, Allocated: tl.Allocated,
			Utilisation: tl.Utilisation, Throughput: tl.Throughput, Marginal: tl.Marginal, DualPrice: tl.Dual, Bottleneck: tl.Bottleneck}
		if sol.Lambda > 0 {
			ct.DualShare = tl.Dual / sol.Lambda
		}
		row := make([]float64, len(p.ClassNames))
		for i := range row {
			row[i] = sol.Machines[i][t]
		}
		a.machines = append(a.machines, row)
		for _, i := range sol.Suggested[t] {
			ct.Suggested = append(ct.Suggested, p.ClassNames[i])
		}
		a.Types = append(a.Types, ct)
	}
	if sol.Lambda == 0 {
		// Nothing to plan: a class cannot run anywhere (said in Messages).
		return a, nil
	}
	lpOpt.MPSFile = ""
	if err := a.whatIfs(p, opt.WhatIfs, lpOpt); err != nil {
		return nil, err
	}
	if opt.Target > 0 {
		if err := a.targets(p, opt.Target, lpOpt); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// whatIfs solves one machine more and one fewer of every type, then extra.
func (a *CapacityAnalysis) whatIfs(p *lp.COSHHProblem, extra []string, opt lp.COSHHOptions) error {
	var scenarios [][]lp.Change
	for t := range p.TypeNames {
		scenarios = append(scenarios, []lp.Change{{Type: t, Delta: 1}})
		if p.Counts[t] >= 1 {
			scenarios = append(scenarios, []lp.Change{{Type: t, Delta: -1}})
		}
	}
	for _, w := range extra {
		cs, err := lp.ParseChanges(p, w)
		if err != nil {
			return err
		}
		scenarios = append(scenarios, cs)
	}
	for _, cs := range scenarios {
		wi, err := lp.WhatIf(p, cs, opt)
		if err != nil {
			return fmt.Errorf("what-if %s: %w", lp.FormatChanges(p, cs), err)
		}
		a.WhatIfs = append(a.WhatIfs, CapacityWhatIf{Change: lp.FormatChanges(p, cs), Lambda: wi.Lambda, Ratio: wi.Lambda / a.Lambda, Note: wi.Note})
	}
	return nil
}

// targets finds, per type, the machines that reach λ ≥ target alone.
func (a *CapacityAnalysis) targets(p *lp.COSHHProblem, target float64, opt lp.COSHHOptions) error {
	a.Target = target
	for t := range p.TypeNames {
		tr, err := lp.MachinesForTarget(p, t, target, opt)
		if err != nil {
			return fmt.Errorf("target %g: %w", target, err)
		}
		ct := CapacityTarget{Type: p.TypeNames[t], Reachable: tr.Reachable, Limit: tr.Limit, LimitText: FormatLambda(tr.Limit)}
		if math.IsInf(tr.Limit, 1) {
			ct.Limit = math.MaxFloat64
		}
		if tr.Reachable {
			ct.Count, ct.Change, ct.Lambda = tr.Count, tr.Change, tr.Lambda
		}
		a.Targets = append(a.Targets, ct)
	}
	return nil
}

// FormatLambda prints λ, "unbounded" for +Inf.
func FormatLambda(v float64) string {
	if math.IsInf(v, 1) {
		return "unbounded"
	}
	return fmt.Sprintf("%.4g", v)
}

// Plan is the bundle's projection of the analysis (nil without an LP).
func (a *CapacityAnalysis) Plan() *bundle.CapacityPlan {
	if a.Reason != "" || a.Types == nil {
		return nil
	}
	plan := &bundle.CapacityPlan{Solver: a.Solver, Lambda: a.Lambda, Allocation: a.machines}
	for _, t := range a.Types {
		plan.Suggested = append(plan.Suggested, t.Suggested)
		plan.Load = append(plan.Load, t.Allocated)
		if a.HasDuals {
			plan.DualPrices = append(plan.DualPrices, t.Marginal)
		}
	}
	for _, w := range a.WhatIfs {
		plan.WhatIfs = append(plan.WhatIfs, bundle.WhatIf{Change: w.Change, Lambda: w.Lambda})
	}
	return plan
}

// Notes are why there is no plan, or what the solve said.
func (a *CapacityAnalysis) Notes() []string {
	if a.Reason != "" {
		return []string{a.Reason}
	}
	return a.Messages
}

// DualPriceTable is the report's table of the plan's dual prices (nil
// without them): per machine type, λ per machine and per the whole type,
// the share of λ and whether the type is a bottleneck.
func DualPriceTable(bd *bundle.Bundle, p *bundle.CapacityPlan) *report.TableBlock {
	if len(p.DualPrices) != len(bd.Cluster.Resources) {
		return nil
	}
	t := &report.TableBlock{Highlight: -1, Caption: "Dual price per machine type (λ per unit of capacity): how much λ grows per machine added (or per the type's machines); the prices sum to λ, and a type with a positive price is a bottleneck",
		Header: []string{"type", "machines", "λ per machine", "λ per whole type", "share of λ", "bottleneck"}}
	for k, r := range bd.Cluster.Resources {
		whole := p.DualPrices[k] * float64(r.Count)
		share, bn := 0.0, "no"
		if p.Lambda > 0 {
			share = whole / p.Lambda
		}
		if whole > 1e-9*p.Lambda {
			bn = "yes"
		}
		t.Rows = append(t.Rows, []string{r.Name, fmt.Sprint(r.Count), report.F4(p.DualPrices[k]), report.F4(whole), fmt.Sprintf("%.1f%%", 100*share), bn})
	}
	return t
}

// whatIfsSimulated reports whether any what-if has a replay.
func (a *CapacityAnalysis) whatIfsSimulated() bool {
	for _, w := range a.WhatIfs {
		if w.Sim != nil {
			return true
		}
	}
	return false
}
