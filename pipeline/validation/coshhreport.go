package validation

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/schedplan/schedplan/pipeline/bundle"
	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/report"
)

// COSHHSection is the report's COSHH part: the emitted plan's allocation
// as a class × machine-type heat map, seed 003 §5.1's metrics of COSHH,
// FIFO and Fair on the validation window (all jobs, per user, per class)
// and the tuning grid.
func COSHHSection(v *COSHHValidation, c *bundle.COSHHConfig) (report.Section, error) {
	s := report.Section{ID: "coshh", Title: "COSHH scheduler (task level)"}
	if v == nil || c == nil {
		s.Intro = "COSHH was not simulated."
		if v != nil {
			s.Intro = v.Note
		}
		// The figure's place says why, as every figure of the report does.
		fig, err := report.NewFigure("COSHH allocation", "", func() ([]byte, error) { return nil, &report.NoFigure{Reason: "no COSHH plan"} })
		s.Figures = []report.Figure{fig}
		return s, err
	}
	s.Intro = fmt.Sprintf("k = %d classes, re-classification tolerance %g, chosen on the tuning window (fitted on %d jobs, COSHH simulated on the next %d; least mean completion time); the plan fitted on the whole tuning window (%d jobs) is in schedplan.yaml and was simulated from there on the validation window, where it ended with %d classes. λ = %.4g. %s. Scheduler overhead here counts Alg. 1 runs, Alg. 2 decisions, re-classifications and LP solves; their wall-clock times are logged by the run (\"coshh comparison: scheduler overhead\"), not written, as they differ between identical runs.",
		v.K, v.Tolerance, v.FitJobs, v.SimJobs, c.FittedOn, v.FinalClasses, c.Secondary.Lambda, v.Note)
	var rows []string
	var z [][]float64
	for i, cl := range c.Secondary.Classes {
		rows = append(rows, cl.Name+" "+cl.Label)
		row := make([]float64, len(c.Types))
		for t := range c.Types {
			if t < len(c.Secondary.Allocation) && i < len(c.Secondary.Allocation[t]) {
				row[t] = c.Secondary.Allocation[t][i]
			}
		}
		z = append(z, row)
	}
	fig, err := report.NewFigure("COSHH allocation", "δ: each class's fraction of each machine type's machines (secondary classification, the LP of schedplan.yaml)", func() ([]byte, error) {
		return report.PlotHeatMap("Allocation δ (fraction of the type's machines)", "machine type", "class", rows, c.Types, z)
	})
	if err != nil {
		return s, err
	}
	s.Figures = []report.Figure{fig}
	mt := report.TableBlock{Highlight: 0, Caption: fmt.Sprintf("Seed 003 §5.1's metrics on the validation window; time averages over the first arrival to %.4g s (the last completion of any run). The window's %s", v.Horizon, v.LoadNote()),
		Header: []string{"scheduler", "jobs", "mean completion (s)", "Dissatisfaction", "Fairness (variance of share/weight)", "Fairness (Σ|Δ − avg|)", "Locality (% local map tasks)", "Alg. 1 runs", "Alg. 2 decisions", "re-classifications", "LP solves"}}
	for _, r := range v.Runs {
		mt.Rows = append(mt.Rows, []string{v.RowName(r.Config), fmt.Sprint(r.Jobs), report.F4(r.MeanCompletion), report.F4(r.Dissatisfaction), report.F4(r.Fairness), report.F4(r.FairnessAbs), report.F4(r.Locality()),
			fmt.Sprint(r.Alg1Runs), fmt.Sprint(r.Alg2Decisions), fmt.Sprint(r.Replans), fmt.Sprint(r.LPSolves)})
	}
	ut := report.TableBlock{Highlight: -1, Caption: "Per user: mean completion (s), time-averaged UserDissatisfaction and containers held, Locality (%); the window and offered load above (" + experiment.LoadCell(experiment.LoadOf(v.OfferedLoad)) + ")",
		Header: []string{"scheduler", "user", "jobs", "mean completion (s)", "Dissatisfaction", "mean containers", "Locality (%)"}}
	for _, r := range v.Users {
		ut.Rows = append(ut.Rows, []string{r.Config, r.Key, fmt.Sprint(r.Jobs), report.F4(r.MeanCompletion), report.F4(r.Dissatisfaction), report.F4(r.MeanContainers), report.F4(r.Locality())})
	}
	ct := report.TableBlock{Highlight: -1, Caption: "Per class of the plan (a job's class: its nearest centre): mean completion (s), Locality (%); the window and offered load above (" + experiment.LoadCell(experiment.LoadOf(v.OfferedLoad)) + ")",
		Header: []string{"scheduler", "class", "jobs", "mean completion (s)", "Locality (%)"}}
	for _, r := range v.Classes {
		ct.Rows = append(ct.Rows, []string{r.Config, r.Key, fmt.Sprint(r.Jobs), report.F4(r.MeanCompletion), report.F4(r.Locality())})
	}
	gt := report.TableBlock{Highlight: -1, Caption: "Tuning grid (COSHH's mean completion time on " + gridWindow(v.FitJobs, v.SimJobs) + "; offered load: " + experiment.ExecLoadDef + ", OVERLOADED above 1: means of an overloaded system)",
		Header: []string{"k", "tolerance", "offered load", "mean completion (s)", "classes at the end", "re-classifications", "λ", "error"}}
	for _, g := range v.Grid {
		if g.K == v.K && g.Tolerance == v.Tolerance && g.Error == "" {
			gt.Highlight = len(gt.Rows)
		}
		gt.Rows = append(gt.Rows, []string{fmt.Sprint(g.K), fmt.Sprint(g.Tolerance), experiment.LoadCell(experiment.LoadOf(g.OfferedLoad)), report.F4(g.MeanCompletion), fmt.Sprint(g.Classes), fmt.Sprint(g.Replans), report.F4(g.Lambda), strings.TrimSpace(g.Error)})
	}
	s.Tables = []report.TableBlock{mt, ut, ct, gt}
	return s, nil
}

// WriteText prints COSHH's comparison: the metrics of every scheduler over
// the validation window.
func (v *COSHHValidation) WriteText(w io.Writer) {
	if len(v.Runs) == 0 {
		fmt.Fprintf(w, "coshh: %s\n\n", v.Note)
		return
	}
	fmt.Fprintf(w, "COSHH (k = %d, tolerance %g, tuned on the tuning window; %d classes at the end) beside FIFO and Fair, task level with the execution-time model, validation window; Dissatisfaction and Fairness are time averages over the %s from the window's first arrival to the last completion\n%s\n",
		v.K, v.Tolerance, v.FinalClasses, experiment.FormatSpan(v.Horizon-v.FirstArrival), v.LoadNote())
	tw := report.NewTable(w, tabwriter.AlignRight)
	fmt.Fprintln(tw, "scheduler\tmean completion (s)\tDissatisfaction\tFairness (var share/weight)\tLocality (%)\tAlg. 1 runs\tAlg. 2 decisions\tre-classifications\tLP solves\t")
	for _, r := range v.Runs {
		fmt.Fprintf(tw, "%s\t%.4g\t%.4g\t%.4g\t%.1f\t%d\t%d\t%d\t%d\t\n", v.RowName(r.Config), r.MeanCompletion, r.Dissatisfaction, r.Fairness, r.Locality(), r.Alg1Runs, r.Alg2Decisions, r.Replans, r.LPSolves)
	}
	tw.Flush()
	fmt.Fprintln(w, "(per user and per class: coshh.parquet and the report; wall-clock overhead: the run's log)")
	fmt.Fprintln(w)
}

// gridWindow says which jobs the tuning grid simulated: the tuning
// window's last sim jobs (COSHHGridMaxJobs, COSHHGridMaxTasks), fitted on
// the fit jobs before them.
func gridWindow(fit, sim int) string {
	if sim <= 0 {
		return "the tuning window's last jobs"
	}
	return fmt.Sprintf("the tuning window's last %d jobs, fitted on the %d before them", sim, fit)
}
