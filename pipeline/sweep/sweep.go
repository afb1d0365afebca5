package sweep

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/estimate"
	"github.com/schedplan/schedplan/pipeline/experiment"
)

// SweepSetting is one point of a sweep: the size-estimation error's
// magnitude (σ of the log-normal model, or I of the uniform one), the load
// the sizes are normalised to, and d/n.
type SweepSetting struct {
	Sigma float64 `json:"sigma"`
	Load  float64 `json:"load"`
	DN    float64 `json:"dn"`
}

// sweepPresets are the experiments of Dell'Amico's simulator report (seed
// 001 §3): mean sojourn vs σ (load 0.9, d/n 4), vs load (σ 0 and 0.5, d/n
// 4), vs d/n (σ 0 and 0.5, load 0.9).
var sweepPresets = map[string]func() []SweepSetting{
	"sigma": func() []SweepSetting {
		return SweepGrid([]float64{0, 0.125, 0.25, 0.5, 1, 2, 4}, []float64{0.9}, []float64{4})
	},
	"load": func() []SweepSetting {
		return SweepGrid([]float64{0, 0.5}, []float64{0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1, 1.25, 1.5, 1.75, 2}, []float64{4})
	},
	"dn": func() []SweepSetting {
		return SweepGrid([]float64{0, 0.5}, []float64{0.9}, []float64{1, 2, 4, 8, 16})
	},
}

// SweepPresetNames are the names SweepPreset knows.
var SweepPresetNames = []string{"sigma", "load", "dn", "all"}

// SweepGrid is the product of the values, loads outermost, σ innermost.
func SweepGrid(sigmas, loads, dns []float64) []SweepSetting {
	var out []SweepSetting
	for _, l := range loads {
		for _, d := range dns {
			for _, s := range sigmas {
				out = append(out, SweepSetting{s, l, d})
			}
		}
	}
	return out
}

// SweepPreset resolves a preset name (sigma, load, dn, all) into settings,
// without duplicates, in a fixed order.
func SweepPreset(name string) ([]SweepSetting, error) {
	var names []string
	if name == "all" {
		names = []string{"sigma", "load", "dn"}
	} else if _, ok := sweepPresets[name]; ok {
		names = []string{name}
	} else {
		return nil, experiment.ParamErr("experiment", name, "use %s", strings.Join(SweepPresetNames, ", "))
	}
	var out []SweepSetting
	seen := map[SweepSetting]bool{}
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

// SweepRequest is what `schedplan sweep` is asked, as its flags give it:
// the policies, the settings (the product of Sigmas, Loads and DNs when
// Grid, else the Preset's) and the shard ("" or i/N).
type SweepRequest struct {
	Policies, Preset, Sigmas, Loads, DNs, Shard string
	Grid                                        bool
}

// MaxSweepSettings bounds the settings of a --sigmas × --loads × --dns
// grid, before it is built; the work of the settings allowed is then
// estimated and checked (Sweep.Cost).
const MaxSweepSettings = 100_000

// Configure parses the request into s (Policies, Settings, Shard, Shards).
func (r SweepRequest) Configure(s *Sweep) error {
	var err error
	if s.Policies, err = experiment.ParsePolicies("policy", r.Policies); err != nil {
		return err
	}
	if r.Grid {
		var lists [3][]float64
		for i, f := range []struct{ param, v string }{{"sigmas", r.Sigmas}, {"loads", r.Loads}, {"dns", r.DNs}} {
			if lists[i], err = experiment.ParseFloats(f.param, f.v); err != nil {
				return err
			}
		}
		if n := float64(len(lists[0])) * float64(len(lists[1])) * float64(len(lists[2])); n > MaxSweepSettings {
			return experiment.ParamErr("sigmas", fmt.Sprintf("(%d values)", len(lists[0])), "with %d --loads and %d --dns: %.0f settings, want at most %d", len(lists[1]), len(lists[2]), n, MaxSweepSettings)
		}
		s.Settings = SweepGrid(lists[0], lists[1], lists[2])
	} else if s.Settings, err = SweepPreset(r.Preset); err != nil {
		return err
	}
	s.Shard, s.Shards = 0, 1
	if r.Shard != "" {
		s.Shard, s.Shards, err = ParseShard(r.Shard)
	}
	return err
}

// MergeSweepFiles reads sweep part files and merges them (MergeSweepParts).
func MergeSweepFiles(paths []string) (*data.Table, error) {
	parts := make([]*data.Table, len(paths))
	for k, p := range paths {
		var err error
		if parts[k], err = data.ReadTable(p, ""); err != nil {
			return nil, err
		}
	}
	return MergeSweepParts(paths, parts)
}

// MaxShards bounds N in --shard i/N: more shards than this is not a
// plausible deployment (each shard is a process writing a part), and a
// huge N only makes a merge check a huge list of missing parts.
const MaxShards = 10000

// ParseShard parses "i/N" (0 ≤ i < N ≤ MaxShards).
func ParseShard(s string) (i, n int, err error) {
	a, b, ok := strings.Cut(s, "/")
	if ok {
		i, err = strconv.Atoi(strings.TrimSpace(a))
		if err == nil {
			n, err = strconv.Atoi(strings.TrimSpace(b))
		}
	}
	if !ok || err != nil || n < 1 || n > MaxShards || i < 0 || i >= n {
		return 0, 0, experiment.ParamErr("shard", s, "want i/N with 0 ≤ i < N ≤ %d, e.g. 0/8", MaxShards)
	}
	return i, n, nil
}

// Sweep runs every policy at every setting, Runs runs each, and gives one
// row per (setting, run, policy). The work is a list of units (setting ×
// run, numbered setting-major); a shard i of N runs the units u with u mod
// N = i, so N independent jobs can each write a part that MergeSweepParts
// combines. Run r of every setting draws its errors from
// estimate.RunRand(Seed, r), so settings share their random numbers, and
// results do not depend on sharding or workers.
type Sweep struct {
	Jobs *data.Jobs `json:"-"` // in ID by content
	// Spec gives the users' weights (and nothing else: sizes are normalised
	// to each setting's load, so the capacity is 1 unless given).
	Spec     *cluster.Spec `json:"spec"`
	Policies []string      `json:"policies"`
	// Errors is lognormal (a setting's Sigma is σ) or uniform (it is I).
	Errors   estimate.ErrorKind `json:"errors"`
	Settings []SweepSetting     `json:"settings"`
	Runs     int                `json:"runs"`
	Seed     uint64             `json:"seed"`
	// Capacity of the fluid server; 0: 1, as sizes are normalised.
	Capacity      float64 `json:"capacity"`
	Shard, Shards int     `json:"-"`
}

// SweepColumns is the results schema: one row per unit and policy.
var SweepColumns = []string{"unit", "units", "sweep", "policy", "error", "sigma", "load", "dn", "run", "runs", "seed",
	"mean_response", "p50_response", "p90_response", "p99_response", "max_response",
	"mean_slowdown", "p99_slowdown", "missed_share", "makespan", "utilisation"}

func (s *Sweep) capacity() float64 {
	if s.Capacity > 0 {
		return s.Capacity
	}
	return 1
}

// Check validates the sweep's parameters.
func (s *Sweep) Check() error {
	if len(s.Policies) == 0 {
		return experiment.ParamErr("policy", "", "no policy given")
	}
	for _, p := range s.Policies {
		if _, err := experiment.Fluid.Policy(p); err != nil {
			return experiment.ParamErr("policy", p, "%v", err)
		}
	}
	if s.Errors != estimate.LogNormal && s.Errors != estimate.Uniform {
		return experiment.ParamErr("error", s.Errors, "use lognormal or uniform")
	}
	if len(s.Settings) == 0 {
		return experiment.ParamErr("sigmas", "", "no setting")
	}
	for _, set := range s.Settings {
		if err := s.model(set).Validate(); err != nil {
			return experiment.ParamErr("sigmas", set.Sigma, "%v", err)
		}
		if !(set.Load > 0) || math.IsInf(set.Load, 0) {
			return experiment.ParamErr("loads", set.Load, "a load must be a finite positive number")
		}
		if !(set.DN > 0) || math.IsInf(set.DN, 0) {
			return experiment.ParamErr("dns", set.DN, "d/n must be a finite positive ratio")
		}
	}
	switch {
	case s.Runs < 1 || s.Runs > experiment.MaxRuns:
		return experiment.ParamErr("runs", s.Runs, "want 1 to %d runs", experiment.MaxRuns)
	case s.Shards < 1 || s.Shard < 0 || s.Shard >= s.Shards:
		return experiment.ParamErr("shard", fmt.Sprintf("%d/%d", s.Shard, s.Shards), "want i/N with 0 ≤ i < N")
	case s.Shards > len(s.Settings)*s.Runs:
		return experiment.ParamErr("shard", fmt.Sprintf("%d/%d", s.Shard, s.Shards), "the sweep has %d units (%d settings × %d runs): at most %d shards, or raise --runs", len(s.Settings)*s.Runs, len(s.Settings), s.Runs, len(s.Settings)*s.Runs)
	case !(s.Capacity >= 0) || math.IsInf(s.Capacity, 0):
		return experiment.ParamErr("capacity", s.Capacity, "want a finite positive capacity (0: 1, as sizes are normalised)")
	}
	return nil
}

func (s *Sweep) model(set SweepSetting) estimate.ErrorModel {
	return estimate.ErrorModel{Kind: s.Errors, Sigma: set.Sigma, I: set.Sigma}
}

// Cost estimates the shard's work and memory.
func (s *Sweep) Cost() experiment.Cost {
	units := float64(len(s.Settings)) * float64(s.Runs) / float64(max(1, s.Shards))
	n := float64(s.Jobs.Len())
	p := float64(len(s.Policies))
	return experiment.Cost{Simulations: units * p, JobSteps: units * p * n, Bytes: units * p * 3 * experiment.SummaryBytes}
}

// ID identifies the sweep's parameters and input (not its shard), so that
// parts of different sweeps are not merged.
func (s *Sweep) ID() (string, error) {
	h := sha256.New()
	if err := data.Write(h, s.Jobs, data.FormatArrow); err != nil {
		return "", err
	}
	params := *s
	params.Capacity = s.capacity()
	p, err := json.Marshal(params)
	if err != nil {
		return "", err
	}
	h.Write(p)
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// Run runs the shard's units and returns its part of the results table.
func (s *Sweep) Run(ctx context.Context, opt experiment.RunOptions) (*data.Table, error) {
	if err := s.Check(); err != nil {
		return nil, err
	}
	id, err := s.ID()
	if err != nil {
		return nil, err
	}
	type sized struct{ load, dn float64 }
	jobs := map[sized][]sim.Job{}
	deadlines := map[sized][]float64{}
	var xs []*experiment.Experiment
	var setOf []int
	for si, set := range s.Settings {
		first := si * s.Runs
		sel := func(r int) bool { return (first+r)%s.Shards == s.Shard }
		if r0 := ((s.Shard-first)%s.Shards + s.Shards) % s.Shards; r0 >= s.Runs {
			continue // no run of this setting is in the shard
		}
		k := sized{set.Load, set.DN}
		if jobs[k] == nil {
			sizes, _, err := estimate.Sizes(s.Jobs, estimate.SizeOptions{DN: set.DN, Load: set.Load, NormaliseAll: true})
			if err != nil {
				return nil, err
			}
			if jobs[k], err = experiment.JobsOf(s.Jobs, sizes, s.Spec); err != nil {
				return nil, err
			}
			if deadlines[k], err = experiment.PSDeadlines(jobs[k], s.capacity()); err != nil {
				return nil, fmt.Errorf("%s: %w", s.Jobs.Source, err)
			}
		}
		xs = append(xs, &experiment.Experiment{Jobs: jobs[k], Capacity: s.capacity(), Deadlines: deadlines[k], Policies: s.Policies,
			Errors: s.model(set), Runs: s.Runs, Seed: s.Seed, Select: sel})
		setOf = append(setOf, si)
	}
	res, err := experiment.RunExperiments(ctx, opt, xs...)
	if err != nil {
		return nil, err
	}
	rows := &sweepRows{}
	total := int64(len(s.Settings) * s.Runs)
	for k, r := range res {
		set := s.Settings[setOf[k]]
		for i, run := range r.Policies[0].Runs {
			for _, pr := range r.Policies {
				rows.add(int64(setOf[k]*s.Runs+run), total, id, pr.Policy, s.Errors, set, run, s.Runs, s.Seed, pr.Summaries[i])
			}
		}
	}
	return rows.table(), nil
}

// sweepRows are the rows of a sweep results table (SweepColumns).
type sweepRows struct {
	unit, units, seed                         []int64
	id, policy, errKind                       []string
	sigma, load, dn                           []float64
	run, runs                                 []int32
	meanResp, p50, p90, p99, maxResp          []float64
	meanSlow, p99Slow, missed, makespan, util []float64
}

func (r *sweepRows) add(unit, units int64, id, spec string, kind estimate.ErrorKind, set SweepSetting, run, runs int, seed uint64, s sim.Summary) {
	r.unit, r.units, r.id = append(r.unit, unit), append(r.units, units), append(r.id, id)
	r.policy, r.errKind = append(r.policy, spec), append(r.errKind, string(kind))
	r.sigma, r.load, r.dn = append(r.sigma, set.Sigma), append(r.load, set.Load), append(r.dn, set.DN)
	r.run, r.runs, r.seed = append(r.run, int32(run)), append(r.runs, int32(runs)), append(r.seed, int64(seed))
	r.meanResp, r.p50, r.p90 = append(r.meanResp, s.Response.Mean), append(r.p50, s.Response.P50), append(r.p90, s.Response.P90)
	r.p99, r.maxResp = append(r.p99, s.Response.P99), append(r.maxResp, s.Response.Max)
	r.meanSlow, r.p99Slow = append(r.meanSlow, s.Slowdown.Mean), append(r.p99Slow, s.Slowdown.P99)
	r.missed, r.makespan, r.util = append(r.missed, s.MissedShare), append(r.makespan, s.Makespan), append(r.util, s.Utilisation)
}

func (r *sweepRows) table() *data.Table {
	cols := []any{r.unit, r.units, r.id, r.policy, r.errKind, r.sigma, r.load, r.dn, r.run, r.runs, r.seed,
		r.meanResp, r.p50, r.p90, r.p99, r.maxResp, r.meanSlow, r.p99Slow, r.missed, r.makespan, r.util}
	return &data.Table{Names: slices.Clone(SweepColumns), Cols: cols}
}

// sweepParts are the parts of a sweep.
var sweepParts = experiment.PartKind{What: "sweep", IDColumn: "sweep",
	Check: func(name string, t *data.Table) error {
		for _, c := range []struct {
			name string
			typ  any
		}{{"runs", []int32{}}, {"seed", []int64{}}, {"error", []string{}}, {"policy", []string{}}} {
			col := t.Col(c.name)
			if col == nil || fmt.Sprintf("%T", col) != fmt.Sprintf("%T", c.typ) {
				return fmt.Errorf("%s: not a sweep part of this schedplan (no %T column %q)", name, c.typ, c.name)
			}
		}
		return nil
	},
	Differs: func(aName string, a *data.Table, _ string, b *data.Table) string {
		pa, pb := readSweepPart(a), readSweepPart(b)
		for _, d := range []struct{ what, x, y string }{
			{"runs", fmt.Sprint(pa.runs), fmt.Sprint(pb.runs)},
			{"seed", fmt.Sprint(pa.seed), fmt.Sprint(pb.seed)},
			{"policies", pa.policies, pb.policies},
			{"error model", pa.errKind, pb.errKind},
		} {
			if d.x != d.y {
				return fmt.Sprintf("%s: %s, but %s has %s", d.what, d.y, aName, d.x)
			}
		}
		return ""
	},
}

// sweepPart is what a part says of the sweep it belongs to.
type sweepPart struct {
	runs     int32
	seed     int64
	errKind  string
	policies string
}

// readSweepPart reads a non-empty part's parameters.
func readSweepPart(t *data.Table) *sweepPart {
	pol := slices.Clone(t.Col("policy").([]string))
	slices.Sort(pol)
	return &sweepPart{runs: t.Col("runs").([]int32)[0], seed: t.Col("seed").([]int64)[0], errKind: t.Col("error").([]string)[0],
		policies: strings.Join(slices.Compact(pol), ",")}
}

// MergeSweepParts combines sweep parts (names[k] names parts[k] in
// messages) into one table ordered by unit, byte-identical to the table of
// an unsharded sweep. Parts of different sweeps (other runs, seed,
// policies, error model, trace or settings), a unit in two parts, or units
// in none (a missing shard) are errors that name them (see MergeParts).
func MergeSweepParts(names []string, parts []*data.Table) (*data.Table, error) {
	return experiment.MergeParts(sweepParts, "", names, parts)
}
