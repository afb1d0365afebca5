package main

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/estimate"
	"github.com/schedplan/schedplan/pipeline"
	"github.com/spf13/cobra"
)

// sweepSetting is one point of a sweep: error magnitude, load, d/n.
type sweepSetting struct {
	Sigma, Load, DN float64
}

// sweepPresets are the experiments of seed 001 §3: mean sojourn vs σ (load
// 0.9, d/n 4), vs load (σ 0 and 0.5, d/n 4), vs d/n (σ 0 and 0.5, load 0.9).
var sweepPresets = map[string]func() []sweepSetting{
	"sigma": func() []sweepSetting {
		return grid([]float64{0, 0.125, 0.25, 0.5, 1, 2, 4}, []float64{0.9}, []float64{4})
	},
	"load": func() []sweepSetting {
		return grid([]float64{0, 0.5}, []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1, 1.25, 1.5, 1.75, 2}, []float64{4})
	},
	"dn": func() []sweepSetting {
		return grid([]float64{0, 0.5}, []float64{0.9}, []float64{1, 2, 4, 8, 16})
	},
}

func grid(sigmas, loads, dns []float64) []sweepSetting {
	var out []sweepSetting
	for _, l := range loads {
		for _, d := range dns {
			for _, s := range sigmas {
				out = append(out, sweepSetting{s, l, d})
			}
		}
	}
	return out
}

// sweepSettings resolves the experiment name (sigma, load, dn, all) into
// settings, without duplicates, in a fixed order.
func sweepSettings(experiment string) ([]sweepSetting, error) {
	var names []string
	if experiment == "all" {
		names = []string{"sigma", "load", "dn"}
	} else if _, ok := sweepPresets[experiment]; ok {
		names = []string{experiment}
	} else {
		return nil, fmt.Errorf("--experiment %q: use sigma, load, dn or all", experiment)
	}
	var out []sweepSetting
	seen := map[sweepSetting]bool{}
	for _, n := range names {
		for _, s := range sweepPresets[n]() {
			if !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
	}
	return out, nil
}

// parseFloats parses a comma-separated list of numbers.
func parseFloats(flag, s string) ([]float64, error) {
	var out []float64
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("%s %q: %q is not a finite number", flag, s, f)
		}
		out = append(out, v)
	}
	return out, nil
}

// parseShard parses "i/N" (0 ≤ i < N).
func parseShard(s string) (i, n int, err error) {
	a, b, ok := strings.Cut(s, "/")
	if ok {
		i, err = strconv.Atoi(strings.TrimSpace(a))
		if err == nil {
			n, err = strconv.Atoi(strings.TrimSpace(b))
		}
	}
	if !ok || err != nil || n < 1 || i < 0 || i >= n {
		return 0, 0, fmt.Errorf("--shard %q: want i/N with 0 ≤ i < N, e.g. 0/8", s)
	}
	return i, n, nil
}

// sweepRows are the rows of a sweep results table.
type sweepRows struct {
	unit                                      []int64
	policy, errKind                           []string
	sigma, load, dn                           []float64
	run                                       []int32
	seed                                      []int64
	meanResp, p50, p90, p99, maxResp          []float64
	meanSlow, p99Slow, missed, makespan, util []float64
}

func (r *sweepRows) add(unit int, spec string, m estimate.ErrorModel, set sweepSetting, run int, seed uint64, s sim.Summary) {
	r.unit = append(r.unit, int64(unit))
	r.policy = append(r.policy, spec)
	r.errKind = append(r.errKind, string(m.Kind))
	r.sigma = append(r.sigma, set.Sigma)
	r.load = append(r.load, set.Load)
	r.dn = append(r.dn, set.DN)
	r.run = append(r.run, int32(run))
	r.seed = append(r.seed, int64(seed))
	r.meanResp = append(r.meanResp, s.Response.Mean)
	r.p50 = append(r.p50, s.Response.P50)
	r.p90 = append(r.p90, s.Response.P90)
	r.p99 = append(r.p99, s.Response.P99)
	r.maxResp = append(r.maxResp, s.Response.Max)
	r.meanSlow = append(r.meanSlow, s.Slowdown.Mean)
	r.p99Slow = append(r.p99Slow, s.Slowdown.P99)
	r.missed = append(r.missed, s.MissedShare)
	r.makespan = append(r.makespan, s.Makespan)
	r.util = append(r.util, s.Utilisation)
}

func (r *sweepRows) table() *data.Table {
	t := &data.Table{}
	t.Add("unit", r.unit)
	t.Add("policy", r.policy)
	t.Add("error", r.errKind)
	t.Add("sigma", r.sigma)
	t.Add("load", r.load)
	t.Add("dn", r.dn)
	t.Add("run", r.run)
	t.Add("seed", r.seed)
	t.Add("mean_response", r.meanResp)
	t.Add("p50_response", r.p50)
	t.Add("p90_response", r.p90)
	t.Add("p99_response", r.p99)
	t.Add("max_response", r.maxResp)
	t.Add("mean_slowdown", r.meanSlow)
	t.Add("p99_slowdown", r.p99Slow)
	t.Add("missed_share", r.missed)
	t.Add("makespan", r.makespan)
	t.Add("utilisation", r.util)
	return t
}

func init() {
	var (
		tf       traceFlags
		ef       errorFlags
		policies string
		preset   string
		sigmas   string
		loads    string
		dns      string
		errKind  string
		capacity float64
		shard    string
		out      string
		force    bool
	)
	cmd := &cobra.Command{
		Use:   "sweep",
		Short: "Run seed 001's experiments as data: mean sojourn vs σ, vs load, vs d/n (shardable)",
		Long: `sweep runs every policy on every setting (estimation error σ, load, d/n) for
--runs runs and writes one row per (policy, setting, run) with the run's mean,
p50, p90, p99 and max response, mean and p99 slowdown, share of missed PS
deadlines, makespan and utilisation.

Settings come from --experiment (seed 001 §3):
  sigma  σ ∈ {0, 0.125, 0.25, 0.5, 1, 2, 4}, load 0.9, d/n 4
  load   load ∈ {0.1, …, 2}, σ ∈ {0, 0.5}, d/n 4
  dn     d/n ∈ {1, 2, 4, 8, 16}, σ ∈ {0, 0.5}, load 0.9
  all    all three
or, when any of --sigmas, --loads, --dns is given, from their product
(defaults σ 0, load 0.9, d/n 4). Sizes are normalised to each load (explicit
sizes and task-seconds too); d/n only matters for sizes from bytes. Run r of
every setting draws its errors from PCG(--seed, r), so settings share their
random numbers.

The work is a list of units (setting × run), numbered in a fixed order.
--shard i/N runs only the units u with u mod N = i, so N independent jobs
(e.g. a Kubernetes Indexed Job) can each write a part; "schedplan sweep merge"
combines the parts. Results do not depend on --workers or on sharding.`,
		Example: `  schedplan sweep --experiment sigma --runs 100 --out sigma.parquet
  schedplan sweep --experiment all --runs 100 --shard 3/8 --out part-3.parquet
  schedplan sweep merge --out sweep.parquet part-*.parquet
  schedplan sweep --sigmas 0,0.5,1 --loads 0.5,0.9 --policy fsp+ps,srpt --out s.csv`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			specs, err := parsePolicies(policies)
			if err != nil {
				return err
			}
			if _, err := ef.model(cmd); err != nil {
				return err
			}
			kind := estimate.ErrorKind(errKind)
			if kind != estimate.LogNormal && kind != estimate.Uniform {
				return fmt.Errorf("--error %q: use lognormal or uniform", errKind)
			}
			var settings []sweepSetting
			fl := cmd.Flags()
			if fl.Changed("sigmas") || fl.Changed("loads") || fl.Changed("dns") {
				var sv, lv, dv []float64
				if sv, err = parseFloats("--sigmas", sigmas); err != nil {
					return err
				}
				if lv, err = parseFloats("--loads", loads); err != nil {
					return err
				}
				if dv, err = parseFloats("--dns", dns); err != nil {
					return err
				}
				settings = grid(sv, lv, dv)
			} else if settings, err = sweepSettings(preset); err != nil {
				return err
			}
			for _, s := range settings {
				m := estimate.ErrorModel{Kind: kind, Sigma: s.Sigma, I: s.Sigma}
				if err := m.Validate(); err != nil {
					return fmt.Errorf("--sigmas: %w", err)
				}
				if !(s.Load > 0) || !(s.DN >= 0) {
					return fmt.Errorf("setting %+v: load must be positive and d/n non-negative", s)
				}
			}
			si, sn := 0, 1
			if shard != "" {
				if si, sn, err = parseShard(shard); err != nil {
					return err
				}
			}
			if out == "" {
				return errors.New("--out is required (a .parquet, .arrow or .csv file)")
			}
			format, err := checkOut(out, force)
			if err != nil {
				return err
			}
			j, err := tf.read()
			if err != nil {
				return err
			}
			// Units: settings × runs, numbered setting-major.
			var units []int
			total := len(settings) * ef.runs
			for u := si; u < total; u += sn {
				units = append(units, u)
			}
			// One experiment (sizes, PS deadlines) per (load, d/n), built
			// on first use.
			type sizeKey struct{ load, dn float64 }
			var mu sync.Mutex
			exps := map[sizeKey]*experiment{}
			expFor := func(load, dn float64) (*experiment, error) {
				mu.Lock()
				defer mu.Unlock()
				k := sizeKey{load, dn}
				if x := exps[k]; x != nil {
					return x, nil
				}
				sizes, _, err := estimate.Sizes(j, estimate.SizeOptions{DN: dn, Load: load, NormaliseAll: true})
				if err != nil {
					return nil, err
				}
				x, err := newExperiment(j, sizes, capacity, specs)
				if err != nil {
					return nil, err
				}
				exps[k] = x
				return x, nil
			}
			results := make([][]sim.Summary, len(units))
			workers := make([]simWorker, ef.nworkers())
			slog.Info("sweep", "settings", len(settings), "runs", ef.runs, "units", total, "shard", fmt.Sprintf("%d/%d", si, sn), "units_here", len(units))
			bar := newProgress("sweep", len(units))
			var finished atomic.Int64
			err = pipeline.ParallelFor(len(units), len(workers), func(w, k int) error {
				defer func() { bar.set(int(finished.Add(1)), len(units)) }()
				u := units[k]
				set, run := settings[u/ef.runs], u%ef.runs
				x, err := expFor(set.Load, set.DN)
				if err != nil {
					return err
				}
				m := estimate.ErrorModel{Kind: kind, Sigma: set.Sigma, I: set.Sigma}
				results[k], err = workers[w].run(x, m, ef.seed, run, nil)
				return err
			})
			bar.finish()
			if err != nil {
				return err
			}
			rows := &sweepRows{}
			for k, u := range units {
				set, run := settings[u/ef.runs], u%ef.runs
				m := estimate.ErrorModel{Kind: kind, Sigma: set.Sigma, I: set.Sigma}
				for p, spec := range specs {
					rows.add(u, spec, m, set, run, ef.seed, results[k][p])
				}
			}
			t := rows.table()
			if err := data.WriteFileAtomic(out, force, func(w io.Writer) error { return data.WriteTable(w, t, format) }); err != nil {
				return err
			}
			slog.Info("sweep written", "file", out, "rows", t.Len())
			return nil
		},
	}
	tf.register(cmd)
	ef.register(cmd, false)
	f := cmd.Flags()
	f.StringVarP(&policies, "policy", "p", "fifo,ps,srpt,fsp+fifo,fsp+ps", "policies, comma-separated")
	f.StringVar(&preset, "experiment", "sigma", "preset settings: sigma, load, dn or all")
	f.StringVar(&sigmas, "sigmas", "0", "error magnitudes, comma-separated (σ, or I with --error uniform)")
	f.StringVar(&loads, "loads", "0.9", "loads, comma-separated")
	f.StringVar(&dns, "dns", "4", "d/n values, comma-separated")
	f.StringVar(&errKind, "error", "lognormal", "error model: lognormal or uniform")
	f.Float64Var(&capacity, "capacity", 1, "server capacity C")
	f.StringVar(&shard, "shard", "", "run only shard i of N (i/N, 0-based)")
	f.StringVarP(&out, "out", "o", "", "results file (.parquet, .arrow or .csv)")
	f.BoolVar(&force, "force", false, "overwrite --out if it exists")

	var mergeOut string
	var mergeForce bool
	merge := &cobra.Command{
		Use:     "merge PART...",
		Short:   "Combine sweep part files into one table, ordered by unit",
		Example: `  schedplan sweep merge --out sweep.parquet part-*.parquet`,
		Args:    cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if mergeOut == "" {
				return errors.New("--out is required")
			}
			format, err := data.FormatOf(mergeOut)
			if err != nil {
				return fmt.Errorf("--out: %w", err)
			}
			t, err := mergeSweepParts(args)
			if err != nil {
				return err
			}
			if err := data.WriteFileAtomic(mergeOut, mergeForce, func(w io.Writer) error { return data.WriteTable(w, t, format) }); err != nil {
				return err
			}
			slog.Info("sweep parts merged", "parts", len(args), "rows", t.Len(), "file", mergeOut)
			return nil
		},
	}
	merge.Flags().StringVarP(&mergeOut, "out", "o", "", "merged file (.parquet, .arrow or .csv)")
	merge.Flags().BoolVar(&mergeForce, "force", false, "overwrite --out if it exists")
	cmd.AddCommand(merge)
	rootCmd.AddCommand(cmd)
}

// mergeSweepParts reads sweep parts, checks that they have the same columns
// and no unit twice, and returns their rows ordered by unit (stable).
func mergeSweepParts(paths []string) (*data.Table, error) {
	var all *data.Table
	owner := map[int64]string{}
	for _, p := range paths {
		t, err := data.ReadTable(p, "")
		if err != nil {
			return nil, err
		}
		units, ok := t.Col("unit").([]int64)
		if !ok {
			return nil, fmt.Errorf("%s: not a sweep part (no int64 column \"unit\")", p)
		}
		seen := map[int64]bool{}
		for _, u := range units {
			if seen[u] {
				continue
			}
			seen[u] = true
			if q, dup := owner[u]; dup {
				return nil, fmt.Errorf("%s: unit %d is also in %s (overlapping shards?)", p, u, q)
			}
			owner[u] = p
		}
		if all == nil {
			all = t
			continue
		}
		if !slices.Equal(all.Names, t.Names) {
			return nil, fmt.Errorf("%s: columns %v differ from %s's %v", p, t.Names, paths[0], all.Names)
		}
		for k := range all.Cols {
			if all.Cols[k], err = appendCol(all.Cols[k], t.Cols[k]); err != nil {
				return nil, fmt.Errorf("%s: column %q: %w", p, t.Names[k], err)
			}
		}
	}
	units := all.Col("unit").([]int64)
	var hi int64 = -1
	for u := range owner {
		hi = max(hi, u)
	}
	if missing := int(hi+1) - len(owner); missing > 0 {
		slog.Warn("sweep parts leave units out: a shard may be missing", "units_present", len(owner), "highest_unit", hi, "missing", missing)
	}
	perm := make([]int, len(units))
	for i := range perm {
		perm[i] = i
	}
	sort.SliceStable(perm, func(a, b int) bool { return units[perm[a]] < units[perm[b]] })
	for k := range all.Cols {
		all.Cols[k] = permuteCol(all.Cols[k], perm)
	}
	return all, nil
}

func appendCol(a, b any) (any, error) {
	switch x := a.(type) {
	case []float64:
		if y, ok := b.([]float64); ok {
			return append(x, y...), nil
		}
	case []int64:
		if y, ok := b.([]int64); ok {
			return append(x, y...), nil
		}
	case []int32:
		if y, ok := b.([]int32); ok {
			return append(x, y...), nil
		}
	case []string:
		if y, ok := b.([]string); ok {
			return append(x, y...), nil
		}
	case []bool:
		if y, ok := b.([]bool); ok {
			return append(x, y...), nil
		}
	}
	return nil, fmt.Errorf("type %T does not match %T", b, a)
}

func permuteCol(c any, perm []int) any {
	switch x := c.(type) {
	case []float64:
		return permute(x, perm)
	case []int64:
		return permute(x, perm)
	case []int32:
		return permute(x, perm)
	case []string:
		return permute(x, perm)
	case []bool:
		return permute(x, perm)
	}
	return c
}

func permute[T any](x []T, perm []int) []T {
	out := make([]T, len(x))
	for i, p := range perm {
		out[i] = x[p]
	}
	return out
}
