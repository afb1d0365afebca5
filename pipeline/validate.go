package pipeline

import (
	"bytes"
	"fmt"
	"runtime"
	"sync"

	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/estimate"
)

// ValidationRow is one configuration on the validation window: metrics
// averaged over its runs (one run with exact sizes, Runs runs per σ > 0).
type ValidationRow struct {
	Name         string  `json:"name"`
	Policy       string  `json:"policy"`
	Sigma        float64 `json:"sigma"` // log-normal size-estimation error; 0 = exact
	Runs         int     `json:"runs"`
	Mean         float64 `json:"mean_response"`
	MeanMin      float64 `json:"mean_response_min"` // across runs
	MeanMax      float64 `json:"mean_response_max"`
	P50          float64 `json:"p50_response"`
	P99          float64 `json:"p99_response"`
	MeanSlowdown float64 `json:"mean_slowdown"`
	P99Slowdown  float64 `json:"p99_slowdown"`
	Gap          float64 `json:"gap_to_lower_bound"`
	Missed       float64 `json:"missed_deadlines"` // mean over runs
	MissedShare  float64 `json:"missed_share"`
	MaxLate      float64 `json:"max_lateness_s"`
}

// ValidationState holds the validation rows and the data behind the
// report's plots.
type ValidationState struct {
	Rows       []ValidationRow `json:"rows"`
	CDF        []Series        `json:"cdf"`
	ClassNames []string        `json:"class_names"`
	PerClass   []Series        `json:"per_class"`
	SigmaXs    []float64       `json:"sigma_xs"`
	SigmaBoxes []BoxGroup      `json:"sigma_boxes"`
	LoadXs     []float64       `json:"load_xs"`
	LoadCurves []XYSeries      `json:"load_curves"`
}

type valConfig struct{ name, spec string }

// validatedConfigs lists what validation runs: the tuned configuration, the
// paper's default and the first guess, the current scheduler and the
// baselines (each spec once).
func validatedConfigs(cfg RunConfig, tr *TuneReport) []valConfig {
	list := []valConfig{
		{"tuned las_mq", tr.Best.Spec()},
		{"paper default las_mq", PaperDefault.Spec()},
		{"first guess las_mq", tr.Result.FirstGuess.Spec()},
		{"current (" + cfg.Current + ")", cfg.Current},
	}
	seen := map[string]bool{}
	for _, c := range list {
		seen[c.spec] = true
	}
	for _, b := range cfg.Baselines {
		if !seen[b] {
			seen[b] = true
			list = append(list, valConfig{b, b})
		}
	}
	return list
}

// validate simulates every configuration on the validation window and
// returns the state and results.parquet.
func validate(in *Inputs, cs *classState, tr *TuneReport, b *Bounds, progress func(done, total int)) (*ValidationState, map[string][]byte, error) {
	cfg := in.Config
	_, valJobs := in.Split.Windows(in.SimJobs)
	configs := validatedConfigs(cfg, tr)
	ev := NewEvaluator(valJobs, cfg.Capacity)
	ev.Deadlines = b.Deadlines

	// Units of work: every configuration with exact sizes; every size-based
	// one with each σ > 0, Runs times; every configuration at each load.
	type unit struct {
		cfg   int
		sigma float64
		run   int
		load  float64 // 0: not a load unit
	}
	var units []unit
	for c := range configs {
		units = append(units, unit{cfg: c})
	}
	for c, vc := range configs {
		if !usesEstimates(vc.spec) {
			continue
		}
		for _, s := range cfg.Sigmas {
			if s > 0 {
				for r := 0; r < cfg.Runs; r++ {
					units = append(units, unit{cfg: c, sigma: s, run: r})
				}
			}
		}
	}
	for c := range configs {
		for _, f := range cfg.LoadFactors {
			units = append(units, unit{cfg: c, load: f})
		}
	}
	sums := make([]sim.Summary, len(units))
	rows := make([]*JobRows, len(configs))
	var mu sync.Mutex
	done := 0
	err := ParallelFor(len(units), runtime.GOMAXPROCS(0), func(_, k int) error {
		u := units[k]
		p, err := sim.ParsePolicy(configs[u.cfg].spec)
		if err != nil {
			return err
		}
		switch {
		case u.load > 0:
			sums[k], err = ev.Scaled(u.load).Run(p)
		case u.sigma > 0:
			jobs := append([]sim.Job(nil), valJobs...)
			sizes := make([]float64, len(jobs))
			for i, j := range jobs {
				sizes[i] = j.Size
			}
			est := estimate.ErrorModel{Kind: estimate.LogNormal, Sigma: u.sigma}.Apply(sizes, estimate.RunRand(cfg.Seed, uint64(u.run)), nil)
			for i := range jobs {
				jobs[i].Estimate = est[i]
			}
			e := NewEvaluator(jobs, cfg.Capacity)
			e.Deadlines = b.Deadlines
			sums[k], err = e.Run(p)
		default:
			rows[u.cfg] = &JobRows{}
			sums[k], err = ev.RunRows(p, configs[u.cfg].name, 0, rows[u.cfg])
		}
		if err != nil {
			return fmt.Errorf("%s: %w", configs[u.cfg].name, err)
		}
		if progress != nil {
			mu.Lock()
			done++
			progress(done, len(units))
			mu.Unlock()
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}

	st := &ValidationState{}
	// Rows: exact first, then each σ.
	group := func(c int, sigma float64) []sim.Summary {
		var out []sim.Summary
		for k, u := range units {
			if u.cfg == c && u.sigma == sigma && u.load == 0 {
				out = append(out, sums[k])
			}
		}
		return out
	}
	addRow := func(c int, sigma float64, runs []sim.Summary) {
		m := sim.MeanSummary(runs)
		means := make([]float64, len(runs))
		for i, s := range runs {
			means[i] = s.Response.Mean
		}
		q := sim.QuantilesOf(means)
		missed := 0.0
		for _, s := range runs {
			missed += float64(s.Missed) / float64(len(runs))
		}
		st.Rows = append(st.Rows, ValidationRow{
			Name: configs[c].name, Policy: configs[c].spec, Sigma: sigma, Runs: len(runs),
			Mean: m.Response.Mean, MeanMin: q.Min, MeanMax: q.Max, P50: m.Response.P50, P99: m.Response.P99,
			MeanSlowdown: m.Slowdown.Mean, P99Slowdown: m.Slowdown.P99, Gap: b.Gap(m.Response.Mean),
			Missed: missed, MissedShare: m.MissedShare, MaxLate: m.MaxLate,
		})
	}
	for c := range configs {
		addRow(c, 0, group(c, 0))
	}
	for _, s := range cfg.Sigmas {
		if s == 0 {
			continue
		}
		for c, vc := range configs {
			if usesEstimates(vc.spec) {
				addRow(c, s, group(c, s))
			}
		}
	}

	// Plot data.
	res := cs.Secondary.Result
	for _, c := range res.Classes {
		st.ClassNames = append(st.ClassNames, ClassName(c.ID)+" "+c.Label)
	}
	classOf := make([]int32, len(valJobs))
	for i := range valJobs {
		classOf[i] = cs.Secondary.classOf(in.Split.TuneJobs + i)
	}
	for c, vc := range configs {
		resp := rows[c].Response
		st.CDF = append(st.CDF, Series{Name: vc.name, Values: resp})
		sum, cnt := make([]float64, len(res.Classes)), make([]float64, len(res.Classes))
		for i, r := range resp {
			if k := classOf[i]; k >= 0 && int(k) < len(sum) {
				sum[k] += r
				cnt[k]++
			}
		}
		for k := range sum {
			if cnt[k] > 0 {
				sum[k] /= cnt[k]
			}
		}
		st.PerClass = append(st.PerClass, Series{Name: vc.name, Values: sum})
	}
	st.SigmaXs = cfg.Sigmas
	for c, vc := range configs {
		if !usesEstimates(vc.spec) {
			continue
		}
		g := BoxGroup{Name: vc.name}
		for _, s := range cfg.Sigmas {
			var sample []float64
			for _, run := range group(c, s) {
				sample = append(sample, run.Response.Mean)
			}
			g.Samples = append(g.Samples, sample)
		}
		st.SigmaBoxes = append(st.SigmaBoxes, g)
	}
	for _, f := range cfg.LoadFactors {
		st.LoadXs = append(st.LoadXs, f*cfg.Sizes.Load)
	}
	for c, vc := range configs {
		curve := XYSeries{Name: vc.name, X: st.LoadXs}
		for _, f := range cfg.LoadFactors {
			for k, u := range units {
				if u.cfg == c && u.load == f {
					curve.Y = append(curve.Y, sums[k].Response.Mean)
				}
			}
		}
		st.LoadCurves = append(st.LoadCurves, curve)
	}

	// results.parquet: one row per validation job and configuration (exact sizes).
	all := &JobRows{}
	for _, r := range rows {
		all.AppendRows(r)
	}
	ids := make([]string, len(valJobs))
	for i := range ids {
		ids[i] = in.Jobs.ID.At(in.Split.TuneJobs + i)
	}
	t := all.Table(ids)
	classCol := make([]int32, len(all.Job))
	for k, j := range all.Job {
		classCol[k] = classOf[j]
	}
	t.Add("class", classCol)
	var buf bytes.Buffer
	if err := data.WriteTable(&buf, t, data.FormatParquet); err != nil {
		return nil, nil, err
	}
	return st, map[string][]byte{"results.parquet": buf.Bytes()}, nil
}

// classOf returns the class of jobs-table row i (−1 when the row was not
// classified).
func (c *classOut) classOf(i int) int32 {
	if c.Rows == nil {
		if i < len(c.Assign) {
			return c.Assign[i]
		}
		return -1
	}
	for q, r := range c.Rows {
		if r == i {
			return c.Assign[q]
		}
	}
	return -1
}
