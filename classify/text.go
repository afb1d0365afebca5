package classify

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"github.com/schedplan/schedplan/estimate"
)

// WriteText prints the classification as COSHH's Table 4 (Rasooli and
// Down): per class its jobs, mean duration, bytes, task-seconds, mean size,
// arrival rate α and execution rate μ per machine type; then the curve of
// the choice of k.
func (r *Result) WriteText(w io.Writer) {
	if len(r.Classes) == 0 {
		fmt.Fprintf(w, "%s classification: no classes: %s\n", r.Name, r.Reason)
		return
	}
	methods := make([]string, len(r.Features))
	for q, f := range r.Features {
		methods[q] = f + ":" + string(r.Scaling.Methods[q])
	}
	how := "fixed"
	switch {
	case r.KRule == "auto" && len(r.Curve) == 0:
		how = "automatic, without a search: too few distinct jobs"
	case r.KRule == "auto":
		how = fmt.Sprintf("best silhouette over k = %d..%d; elbow of inertia at k = %d", r.Curve[0].K, r.Curve[len(r.Curve)-1].K, r.Elbow)
	case r.KRule == "users":
		how = "one per user"
	}
	fmt.Fprintf(w, "%s classification: %d jobs, k = %d (%s), silhouette %s, inertia %.4g, %d iterations\n",
		r.Name, r.Jobs(), r.K, how, fmtFloat(r.Silhouette, "%.3f"), r.Inertia, r.Iterations)
	fmt.Fprintf(w, "features: %s\n", strings.Join(methods, " "))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := "class\tlabel\tjobs\tshare\tduration (s)\tinput\tshuffle\toutput\tmap time\treduce time\tmean size\tα (jobs/s)\t"
	for _, n := range r.Resources {
		head += "μ " + n + "\t"
	}
	fmt.Fprintln(tw, head)
	for _, c := range r.Classes {
		fmt.Fprintf(tw, "%d\t%s\t%d\t%.1f%%\t%s\t%s\t%s\t%s\t%s\t%s\t%.4g\t%s\t", c.ID, c.Label, c.Count, 100*c.Share,
			fmtFloat(c.MeanDuration, "%.0f"), fmtBytes(c.MeanInputBytes), fmtBytes(c.MeanShuffleBytes), fmtBytes(c.MeanOutputBytes),
			fmtFloat(c.MeanMapTaskSeconds, "%.0f"), fmtFloat(c.MeanReduceTaskSeconds, "%.0f"), c.MeanSize, fmtFloat(c.Alpha, "%.4g"))
		for _, m := range c.Mu {
			fmt.Fprintf(tw, "%.3g\t", m)
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	if len(r.Curve) > 0 {
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "k\tinertia\tsilhouette\t\t")
		for _, s := range r.Curve {
			mark := ""
			if s.K == r.K {
				mark = "chosen"
			}
			if s.K == r.Elbow {
				mark = strings.TrimPrefix(mark+", elbow", ", ")
			}
			fmt.Fprintf(tw, "%d\t%.4g\t%s\t%s\t\n", s.K, s.Inertia, fmtFloat(s.Silhouette, "%.3f"), mark)
		}
		tw.Flush()
	}
	for _, warning := range r.Warnings {
		fmt.Fprintf(w, "note: %s\n", warning)
	}
}

// predictors are the hold-out's predictors, in print order.
func (h *HoldOutResult) predictors() []struct {
	name string
	e    estimate.PredictionError
} {
	return []struct {
		name string
		e    estimate.PredictionError
	}{{"class mean", h.ClassMean}, {"class median", h.ClassMedian}, {"global mean", h.GlobalMean}, {"global median", h.GlobalMed}}
}

// WriteText prints the predictors' errors beside each other.
func (h *HoldOutResult) WriteText(w io.Writer) {
	fmt.Fprintf(w, "class-based size predictor: classes fitted on the first %.0f%% of the jobs by submit time (%d jobs; features %s; k = %d), tested on the other %d\n",
		100*h.TrainFraction, h.Train, strings.Join(h.Features, ","), h.K, h.Test)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "predictor\tmedian |rel err|\tmean |rel err|\tmedian |log err|\tmean |log err|\trms log err\twithin ×2\t")
	for _, p := range h.predictors() {
		e := p.e
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", p.name, fmtFloat(e.MedianAbsRel, "%.3g"), fmtFloat(e.MeanAbsRel, "%.3g"),
			fmtFloat(e.MedianAbsLog, "%.3g"), fmtFloat(e.MeanAbsLog, "%.3g"), fmtFloat(e.RMSLog, "%.3g"), fmtFloat(100*e.WithinFactor2, "%.1f%%"))
	}
	tw.Flush()
}

// MarshalJSON encodes the hold-out with NaN errors (no job to measure) as
// null, the errors keyed by predictor.
func (h *HoldOutResult) MarshalJSON() ([]byte, error) {
	type errJSON struct {
		Jobs          int       `json:"jobs"`
		Skipped       int       `json:"skipped"`
		MedianAbsRel  jsonFloat `json:"median_abs_rel_error"`
		MeanAbsRel    jsonFloat `json:"mean_abs_rel_error"`
		MedianAbsLog  jsonFloat `json:"median_abs_log_error"`
		MeanAbsLog    jsonFloat `json:"mean_abs_log_error"`
		RMSLog        jsonFloat `json:"rms_log_error"`
		WithinFactor2 jsonFloat `json:"within_factor_2"`
		MeanSignedLog jsonFloat `json:"mean_log_bias"`
	}
	errs := map[string]errJSON{}
	for _, p := range h.predictors() {
		e := p.e
		errs[strings.ReplaceAll(p.name, " ", "_")] = errJSON{e.Jobs, e.Skipped, jsonFloat(e.MedianAbsRel), jsonFloat(e.MeanAbsRel),
			jsonFloat(e.MedianAbsLog), jsonFloat(e.MeanAbsLog), jsonFloat(e.RMSLog), jsonFloat(e.WithinFactor2), jsonFloat(e.MeanSignedLog)}
	}
	return json.Marshal(struct {
		TrainFraction float64            `json:"train_fraction"`
		Features      []string           `json:"features"`
		K             int                `json:"k"`
		TrainJobs     int                `json:"train_jobs"`
		TestJobs      int                `json:"test_jobs"`
		Errors        map[string]errJSON `json:"errors"`
	}{h.TrainFraction, h.Features, h.K, h.Train, h.Test, errs})
}

func fmtFloat(v float64, format string) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "-"
	}
	return fmt.Sprintf(format, v)
}

// fmtBytes prints a byte count with a decimal unit, as COSHH's Table 4 does
// (21KB, 1.9GB, 7.6TB).
func fmtBytes(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	units := []string{"B", "KB", "MB", "GB", "TB", "PB", "EB"}
	u := 0
	for math.Abs(v) >= 1000 && u < len(units)-1 {
		v /= 1000
		u++
	}
	if u == 0 {
		return fmt.Sprintf("%.0f%s", v, units[u])
	}
	if v < 10 {
		return fmt.Sprintf("%.1f%s", v, units[u])
	}
	return fmt.Sprintf("%.0f%s", v, units[u])
}
