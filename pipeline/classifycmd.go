package pipeline

import (
	"fmt"
	"io"
	"log/slog"

	"github.com/schedplan/schedplan/classify"
	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/report"
)

// Bounds of classify's counts: every restart is a k-means fit of the whole
// log (a billion restarts ran until killed), and each class is a queue of
// the emitted files and a row of the capacity LP.
const (
	MaxRestarts = 1000
	MaxClasses  = 1000
)

// ClassifyConfig is what `schedplan classify` is asked, as its flags give
// it: k (auto, users or N) and the range --k auto tries, the features (or
// the feature set), the scaling, the k-means seeding, restarts and seed,
// and the hold-out fraction of the size predictor (0: none).
type ClassifyConfig struct {
	K, Features, FeatureSet, Scaling, Init string
	KMin, KMax, Restarts                   int
	Seed                                   uint64
	Holdout                                float64
}

// Options parses and checks the configuration; errors name the flag.
func (c ClassifyConfig) Options() (classify.Options, error) {
	var opt classify.Options
	var err error
	if opt.K, err = classify.ParseK(c.K); err != nil {
		return opt, experiment.ParamErr("k", c.K, "%v", err)
	}
	if opt.Features, err = classify.ParseFeatures(c.Features); err != nil {
		return opt, experiment.ParamErr("features", c.Features, "%v", err)
	}
	if opt.FeatureSet, err = classify.ParseFeatureSet(c.FeatureSet); err != nil {
		return opt, experiment.ParamErr("feature-set", c.FeatureSet, "%v", err)
	}
	if opt.Scaling, opt.FeatureScaling, err = classify.ParseScaling(c.Scaling); err != nil {
		return opt, experiment.ParamErr("scaling", c.Scaling, "%v", err)
	}
	if opt.Init, err = classify.ParseInit(c.Init); err != nil {
		return opt, experiment.ParamErr("init", c.Init, "%v", err)
	}
	switch {
	case c.Restarts < 1 || c.Restarts > MaxRestarts:
		return opt, experiment.ParamErr("restarts", c.Restarts, "want 1 to %d k-means restarts (each is a full k-means fit of the log)", MaxRestarts)
	case c.KMin < 1 || c.KMax < c.KMin:
		return opt, experiment.ParamErr("k-min", c.KMin, "with --k-max %d: want 1 ≤ k-min ≤ k-max", c.KMax)
	case c.KMax > MaxClasses:
		return opt, experiment.ParamErr("k-max", c.KMax, "want at most %d classes", MaxClasses)
	case opt.K > MaxClasses:
		return opt, experiment.ParamErr("k", c.K, "want at most %d classes", MaxClasses)
	case c.Holdout != 0 && !(c.Holdout > 0 && c.Holdout < 1):
		return opt, experiment.ParamErr("holdout", c.Holdout, "not a fraction in (0, 1)")
	}
	opt.KMin, opt.KMax, opt.Restarts, opt.Seed = c.KMin, c.KMax, c.Restarts, c.Seed
	opt.OnK = func(s classify.KScore) {
		slog.Debug("k-means", "k", s.K, "inertia", s.Inertia, "silhouette", s.Silhouette)
	}
	return opt, nil
}

// ClassifyReport is what `schedplan classify` prints.
type ClassifyReport struct {
	Trace       string                  `json:"trace"`
	Cluster     string                  `json:"cluster"`
	Jobs        int                     `json:"jobs"`
	ArrivalRate float64                 `json:"arrival_rate_per_s"`
	Primary     *classify.Result        `json:"primary"`
	Secondary   *classify.Result        `json:"secondary"`
	HoldOut     *classify.HoldOutResult `json:"size_predictor,omitempty"`
	Wrote       []string                `json:"wrote,omitempty"`

	primary, secondary *classify.Result
	jobs               *data.Jobs
}

// Classify runs COSHH's two classifications of a log whose sizes are in
// container-seconds of the spec and, with a hold-out fraction, measures the
// class-based size predictor.
func (c ClassifyConfig) Classify(j *data.Jobs, sizes []float64, spec *cluster.Spec, opt classify.Options) (*ClassifyReport, error) {
	primary, secondary, err := classify.COSHH(j, sizes, spec, opt)
	if err != nil {
		return nil, err
	}
	rep := &ClassifyReport{Trace: j.Source, Cluster: spec.Name, Jobs: j.Len(), Primary: primary, Secondary: secondary,
		primary: primary, secondary: secondary, jobs: j}
	if s := secondary.Span; s > 0 {
		rep.ArrivalRate = float64(j.Len()) / s
	}
	if c.Holdout > 0 {
		if rep.HoldOut, err = classify.HoldOutPredictor(j, sizes, spec, c.Holdout, opt); err != nil {
			return nil, experiment.ParamErr("holdout", c.Holdout, "%v", err)
		}
	}
	return rep, nil
}

// WriteTables writes the classes table to out and every job's classes to
// jobsOut (each when not ""), recording them in Wrote.
func (r *ClassifyReport) WriteTables(out, jobsOut string, force bool) error {
	for _, o := range []struct {
		path string
		t    func() *data.Table
	}{{out, func() *data.Table { return classify.Table(r.primary, r.secondary) }},
		{jobsOut, func() *data.Table { return classify.JobsTable(r.jobs, r.primary, r.secondary) }}} {
		if o.path == "" {
			continue
		}
		if err := data.WriteTableFile(o.path, force, o.t()); err != nil {
			return err
		}
		r.Wrote = append(r.Wrote, o.path)
	}
	return nil
}

// WriteText prints the report: the trace, both classifications, the size
// predictor and the files written.
func (r *ClassifyReport) WriteText(w io.Writer) {
	fmt.Fprintf(w, "trace %s: %d jobs, arrival rate %.4g jobs/s; cluster %s\n", report.Printable(r.Trace), r.Jobs, r.ArrivalRate, r.Cluster)
	for _, c := range []*classify.Result{r.Primary, r.Secondary} {
		fmt.Fprintln(w)
		c.WriteText(w)
	}
	if r.HoldOut != nil {
		fmt.Fprintln(w)
		r.HoldOut.WriteText(w)
	}
	for _, p := range r.Wrote {
		fmt.Fprintf(w, "wrote %s\n", p)
	}
}
