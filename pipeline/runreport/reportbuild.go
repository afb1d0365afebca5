package runreport

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/schedplan/schedplan/pipeline/bundle"
	"github.com/schedplan/schedplan/pipeline/capacity"
	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/inputs"
	"github.com/schedplan/schedplan/pipeline/report"
	"github.com/schedplan/schedplan/pipeline/tasklevel"
	"github.com/schedplan/schedplan/pipeline/tunedeploy"
	"github.com/schedplan/schedplan/pipeline/tuner"
	"github.com/schedplan/schedplan/pipeline/validation"
)

// BuildReport renders report.html from the stages' states.
func BuildReport(in *inputs.Inputs, bd *bundle.Bundle, cs *inputs.Classes, capSt *CapacityState, tr *tuner.TuneReport, b *experiment.Bounds, vs *validation.ValidationState, res *RunResult) ([]byte, error) {
	w := in.Workload
	rep := &report.Report{
		Title:    "schedplan report: " + w.Source,
		Subtitle: fmt.Sprintf("%d jobs over %s; tuned on the first %d, validated on the last %d (by submit time); seed %d", w.Jobs, experiment.FormatSpan(w.Span), in.Split.TuneJobs, in.Split.ValidJobs, in.Config.Seed),
	}
	// The one verdict first: the decision on the first screen, then how
	// it was reached.
	rep.Decision = res.Deploy.Decision("")
	if res.DeployTuning != nil && res.Deploy != nil {
		vsec, err := tunedeploy.DeploySection(res.DeployTuning, res.Deploy)
		if err != nil {
			return nil, err
		}
		rep.Sections = append(rep.Sections, vsec)
	}

	// Workload.
	wt := report.TableBlock{Header: []string{"", "value"}, Highlight: -1, Rows: [][]string{
		{"jobs", fmt.Sprint(w.Jobs)},
		{"submit span", fmt.Sprintf("%s .. %s (%s)", experiment.FormatInstant(w.FirstSubmit), experiment.FormatInstant(w.LastSubmit), experiment.FormatSpan(w.Span))},
		{"arrival rate", report.F4(w.ArrivalRate) + " jobs/s"},
		{"sizes from", string(w.SizeSource)},
		{"size mean / p50 / p90 / p99 / max", strings.Join([]string{report.F4(w.Size.Mean), report.F4(w.Size.P50), report.F4(w.Size.P90), report.F4(w.Size.P99), report.F4(w.Size.Max)}, " / ")},
		{"zero-size jobs", fmt.Sprint(w.ZeroSize)},
		{"work in the largest 1% of jobs", fmt.Sprintf("%.1f%%", 100*w.TopShare)},
		{"users", fmt.Sprint(len(w.Users))},
	}}
	rep.Sections = append(rep.Sections, report.Section{ID: "workload", Title: "Workload", Tables: []report.TableBlock{wt}})

	// Classes.
	sec := cs.Secondary.Result
	ct := report.TableBlock{Highlight: -1, Caption: fmt.Sprintf("Secondary classification (all jobs): k = %d (%s), features %s", sec.K, sec.KRule, strings.Join(sec.Features, ", ")),
		Header: []string{"class", "label", "jobs", "share", "mean size", "α (jobs/s)", "input bytes", "shuffle bytes", "output bytes"}}
	for _, c := range sec.Classes {
		ct.Rows = append(ct.Rows, []string{bundle.ClassName(c.ID), c.Label, fmt.Sprint(c.Count), fmt.Sprintf("%.1f%%", 100*c.Share), report.F4(c.MeanSize), report.F4(c.Alpha), report.F4(c.MeanInputBytes), report.F4(c.MeanShuffleBytes), report.F4(c.MeanOutputBytes)})
	}
	intro := "k-means (k-means++ seeding, restarts) on log-scaled features; sizes here are container-seconds of the cluster."
	if p := cs.Primary.Result; len(p.Classes) == 0 {
		intro += " Primary classification (users with a min share): " + p.Reason + "."
	}
	rep.Sections = append(rep.Sections, report.Section{ID: "classes", Title: "Job classes", Intro: intro, Tables: []report.TableBlock{ct}})

	// Capacity.
	capSec := report.Section{ID: "capacity", Title: "Capacity (COSHH LP)"}
	if p := capSt.Secondary; p != nil {
		capSec.Intro = fmt.Sprintf("λ = %.4g: the cluster sustains %.3g × today's arrival rates (solver %s). Allocation in machines of each type per class.", p.Lambda, p.Lambda, p.Solver)
		at := report.TableBlock{Highlight: -1, Header: append([]string{"type", "machines", "suggested classes", "allocated"}, classNames(bd)...)}
		for t, r := range bd.Cluster.Resources {
			row := []string{r.Name, fmt.Sprint(r.Count), "{" + strings.Join(p.Suggested[t], ", ") + "}", fmt.Sprintf("%.1f%%", 100*p.Load[t])}
			for _, v := range p.Allocation[t] {
				row = append(row, report.F4(v))
			}
			at.Rows = append(at.Rows, row)
		}
		wt := report.TableBlock{Highlight: -1, Caption: "What-ifs", Header: []string{"change", "λ", "vs today"}}
		for _, wi := range p.WhatIfs {
			wt.Rows = append(wt.Rows, []string{wi.Change, report.F4(wi.Lambda), report.Pct(wi.Lambda/p.Lambda - 1)})
		}
		capSec.Tables = []report.TableBlock{at, wt}
		if dt := capacity.DualPriceTable(bd, p); dt != nil {
			capSec.Tables = append(capSec.Tables, *dt)
		}
		if c := res.CapacityCheck; c != nil {
			// The headroom in the user's terms, checked by replays, and 1/λ
			// as the product of the views' loads (the console's headline).
			capSec.Intro = strings.ReplaceAll(strings.TrimPrefix(c.Headline(p.Lambda), "capacity: "), "\n  ", "; ") + ". " + capSec.Intro
			if h := c.Headroom; h != nil {
				capSec.Tables = append(capSec.Tables, headroomTable(h))
			}
		}
	} else {
		capSec.Intro = "No LP: " + strings.Join(capSt.SecondaryNotes, "; ")
	}
	rep.Sections = append(rep.Sections, capSec)

	// Tuning.
	tuning, err := tuningSections(tr, in.WindowLoad(0, in.Split.TuneJobs), experiment.LoadOf(vs.OfferedLoad))
	if err != nil {
		return nil, err
	}
	if len(tuning) > 0 {
		tuning[0].Intro += bd.DeployedText()
	}
	rep.Sections = append(rep.Sections, tuning...)

	// Bounds.
	bt := report.TableBlock{Highlight: -1, Caption: "The validation window's " + experiment.LoadSentence(experiment.LoadOf(vs.OfferedLoad), experiment.FluidLoadDef), Header: []string{"bound (validation window, exact sizes)", "mean response"}, Rows: [][]string{
		{"SRPT: lower bound for every policy", report.F4(b.SRPTMean)},
		{fmt.Sprintf("FSP: a protective schedule (misses %d PS deadlines)", b.FSPMissed), report.F4(b.FSPMean)},
		{"PS: the protective deadlines", report.F4(b.PSMean)},
	}}
	rep.Sections = append(rep.Sections, report.Section{ID: "bounds", Title: "Bounds", Tables: []report.TableBlock{bt}})

	// Validation.
	winLoad := experiment.LoadSentence(experiment.LoadOf(vs.OfferedLoad), experiment.FluidLoadDef)
	vt := report.TableBlock{Highlight: -1, SpecsLast: true, Caption: "Responses in seconds; slowdown = response / (size / capacity); the validation window's " + winLoad, Header: []string{"configuration", "σ", "runs", "mean", "min–max over runs", "p99", "mean slowdown", "p99 slowdown", "gap to bound", "missed PS deadlines", "policy"}}
	for k, r := range vs.Rows {
		if r.Name == "tuned las_mq" {
			vt.Highlight = k
		}
		vt.Rows = append(vt.Rows, []string{r.Name, fmt.Sprint(r.Sigma), fmt.Sprint(r.Runs), report.F4(r.Mean), report.F4(r.MeanMin) + "–" + report.F4(r.MeanMax), report.F4(r.P99), report.F4(r.MeanSlowdown), report.F4(r.P99Slowdown), report.Pct(r.Gap), fmt.Sprintf("%.1f (%.1f%%)", r.Missed, 100*r.MissedShare), report.ShownSpec(r.Policy)})
	}
	verdict := Verdict(res)
	var figs []report.Figure
	for _, f := range []struct {
		title, caption string
		plot           func() ([]byte, error)
	}{
		{"Response-time CDFs", "one curve per configuration, exact sizes", func() ([]byte, error) {
			return report.PlotCDF("Response time CDF, validation window", "response time (s)", vs.CDF)
		}},
		{"Per-class mean response", "classes of the secondary classification", func() ([]byte, error) {
			return report.PlotBars("Mean response per class, validation window", "mean response (s)", vs.ClassNames, vs.PerClass)
		}},
		{"Sojourn vs σ", fmt.Sprintf("size-based policies, %d runs per σ (box: quartiles over runs)", in.Config.Runs), func() ([]byte, error) {
			return report.PlotBoxes("Mean response vs size-estimation error", "σ (log-normal)", "mean response (s)", vs.SigmaXs, vs.SigmaBoxes)
		}},
		{"Sojourn vs load", validation.LoadCurveCaption(vs), func() ([]byte, error) {
			return report.PlotLines("Mean response vs offered load, validation window", validation.LoadCurveAxis(vs), "mean response (s)", vs.LoadCurves, true)
		}},
	} {
		fig, err := report.NewFigure(f.title, f.caption, f.plot)
		if err != nil {
			return nil, err
		}
		figs = append(figs, fig)
	}
	tables := []report.TableBlock{vt}
	if t := vs.Task; t != nil {
		vt.Caption = "Fluid level (the bound-level view): one server of the cluster's capacity; the validation window's " + winLoad
		tables[0] = vt
		tt := report.TableBlock{Highlight: -1, SpecsLast: true, Caption: fmt.Sprintf("Task level: %d machines, %d containers, %.4g container-seconds/s, %d tasks; the emitted YARN files loaded back and simulated. Responses in seconds. The fluid bounds at the cluster's total rate are lower bounds for the task level; "+tasklevel.TaskMetricsNote+". Each row's offered load: %s.", t.Machines, t.Containers, t.RateCS, t.Tasks, t.LoadNote()),
			Header: []string{"configuration", "offered load", "mean", "p99", "mean slowdown", "gap to fluid SRPT bound", "missed deadlines (vs current)", "policy"}}
		for k, r := range t.Rows {
			if r.Name == validation.TaskTunedName {
				tt.Highlight = k
			}
			tt.Rows = append(tt.Rows, []string{r.Name, experiment.LoadCell(experiment.LoadOf(r.OfferedLoad)), report.F4(r.Mean), report.F4(r.P99), report.F4(r.MeanSlowdown), report.Pct(r.Gap), fmt.Sprintf("%.1f (%.1f%%)", r.Missed, 100*r.MissedShare), report.ShownSpec(r.Policy)})
		}
		tables = append(tables, tt)
		verdict += " At task level, " + validation.OneReplayNote + ", " + t.RowsText() + "."
		if v := t.EmittedVerdict(); v != "" {
			verdict += " " + v + "."
		}
		verdict += hpfspVerdict(t)
	}
	rep.Sections = append(rep.Sections, report.Section{ID: "validation", Title: "Validation", Intro: verdict, Tables: tables, Figures: figs})
	coshh, err := validation.COSHHSection(vs.COSHH, bd.COSHH)
	if err != nil {
		return nil, err
	}
	rep.Sections = append(rep.Sections, coshh)
	rep.Sections = append(rep.Sections, vs.Calibration.Section())

	var buf bytes.Buffer
	if err := report.WriteReport(&buf, rep); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func classNames(bd *bundle.Bundle) []string {
	var out []string
	for _, c := range bd.Classes {
		out = append(out, c.Name)
	}
	return out
}

// headroomTable is the capacity check's replays: today's rate, 0.9λ and λ,
// then the bisection's toward the p99 target.
func headroomTable(h *capacity.Headroom) report.TableBlock {
	t := report.TableBlock{Highlight: -1, Caption: fmt.Sprintf("The log replayed at task level at scaled arrival rates (%d of %d jobs, %s, execution-time model)", h.Jobs, h.Of, h.Scheduler),
		Header: capacity.ReplayHeader}
	for _, rp := range append(append([]capacity.Replay(nil), h.Replays...), h.P99Search...) {
		t.Rows = append(t.Rows, rp.Row())
	}
	return t
}
