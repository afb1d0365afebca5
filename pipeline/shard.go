package pipeline

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/inputs"
	"github.com/schedplan/schedplan/pipeline/sweep"
	"github.com/schedplan/schedplan/pipeline/tuner"
)

// This file shards the two heavy stages, tune and validate, over processes
// (Kubernetes Indexed Jobs; see deploy/), on top of the runner's stamps:
//
//	schedplan run --until emit                 # the stages before (once)
//	schedplan run --stage validate --shard i/N # N processes, one part each
//	schedplan run --stage validate --merge     # the stage from the parts
//	schedplan run                              # the rest
//
// A shard reads the stages before its stage from their stamps (it refuses
// to compute them: N shards would race), takes the output directory's lock
// shared (so shards run side by side, and never beside a run), computes its
// units and writes parts/<stage>-<i>-of-<N>.parquet. The merge checks the
// parts (MergeParts: a missing shard, a shard given twice, a part of other
// inputs or parameters — its stage key differs — are errors), feeds the
// units' results to the stage in the order an unsharded run computes them,
// and writes the stage's files and stamp: what follows is byte for byte the
// unsharded run's.
//
// The units. Validate: every simulation of the stage's experiments (policy
// × σ × run, the exact-size runs with their per-job rows, the load curve),
// numbered as RunExperiments numbers them. Tune: the scoring tasks
// (candidate × fold × σ) of the search's first batch — the baselines, the
// structural candidates and the space-filling sequence, about 60% of the
// budget, which depend on no score; the coordinate search that follows
// depends on every score before it and runs in the merge, as do the final
// check of a sampled search and the sensitivity curves.

// ShardedStages are the stages that shard.
var ShardedStages = []string{"tune", "validate"}

// StageNames are the pipeline's stages in order.
var StageNames = stageNames()

// stageNames reads the names off the stage table (stages), the one place
// they are listed.
func stageNames() []string {
	p := &pipelineRun{in: &inputs.Inputs{}}
	var names []string
	for _, s := range p.stages() {
		names = append(names, s.name)
	}
	return names
}

// checkStageOptions validates the options (checkParams).
func checkStageOptions(o *inputs.StageOptions) error {
	if o.Until != "" && !slices.Contains(StageNames, o.Until) {
		return experiment.ParamErr("until", o.Until, "no such stage; the stages are %s", strings.Join(StageNames, ", "))
	}
	sharding := o.Shard != "" || o.Merge
	switch {
	case o.Stage == "" && sharding:
		return experiment.ParamErr("stage", "", "--shard and --merge need the stage: --stage %s", strings.Join(ShardedStages, " or "))
	case o.Stage != "" && !slices.Contains(ShardedStages, o.Stage):
		return experiment.ParamErr("stage", o.Stage, "only %s shard", strings.Join(ShardedStages, " and "))
	case o.Stage != "" && !sharding:
		return experiment.ParamErr("stage", o.Stage, "give --shard i/N or --merge")
	case o.Shard != "" && o.Merge:
		return experiment.ParamErr("merge", true, "--shard computes a part and --merge combines them: give one")
	case o.Stage != "" && o.Until != "":
		return experiment.ParamErr("until", o.Until, "a shard or a merge stops after its stage: --until is for whole stages")
	}
	if o.Shard != "" {
		i, n, err := sweep.ParseShard(o.Shard)
		if err != nil {
			return err
		}
		o.Index, o.Count = i, n
	}
	return nil
}

// PartPath is the file shard i of n of a stage writes, relative to the
// output directory.
func PartPath(stage string, i, n int) string {
	return filepath.Join(PartsDir, fmt.Sprintf("%s-%04d-of-%04d.parquet", stage, i, n))
}

// PartsDir is the folder of the output directory that holds parts.
const PartsDir = "parts"

// partKeyColumn is the column of a stage part that holds the stage's key.
const partKeyColumn = "stage_key"

// stageParts are the parts of a stage.
func stageParts(stage string) experiment.PartKind {
	return experiment.PartKind{What: stage + " stage", IDColumn: partKeyColumn}
}

// tunePartTable is a tune part: one row per scored task.
func tunePartTable(key string, scored []tuner.ScoredTask) *data.Table {
	sort.Slice(scored, func(a, b int) bool { return scored[a].Unit < scored[b].Unit })
	n := len(scored)
	unit, units := make([]int64, n), make([]int64, n)
	keys, spec := make([]string, n), make([]string, n)
	chunk, sigma := make([]int32, n), make([]int32, n)
	whole := make([]bool, n)
	mean, p99, p99s, means, missed := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	for k, s := range scored {
		unit[k], units[k], keys[k] = int64(s.Unit), int64(s.Units), key
		spec[k], chunk[k], sigma[k], whole[k] = s.Task.Spec, int32(s.Task.Chunk), int32(s.Task.Sigma), s.Task.Whole
		mean[k], p99[k], p99s[k], means[k], missed[k] = s.Score.Mean, s.Score.P99, s.Score.P99Slowdown, s.Score.MeanSlowdown, s.Score.Missed
	}
	t := &data.Table{}
	for _, c := range []struct {
		name string
		col  any
	}{{experiment.PartUnit, unit}, {experiment.PartUnits, units}, {partKeyColumn, keys}, {"policy", spec}, {"chunk", chunk}, {"sigma_index", sigma},
		{"whole", whole}, {"mean_response", mean}, {"p99_response", p99}, {"p99_slowdown", p99s}, {"mean_slowdown", means}, {"missed_share", missed}} {
		t.Add(c.name, c.col)
	}
	return t
}

// tuneKnown reads merged tune parts back into scores.
func tuneKnown(t *data.Table) (map[tuner.TuneTask]tuner.Score, error) {
	spec, ok1 := t.Col("policy").([]string)
	chunk, ok2 := t.Col("chunk").([]int32)
	sigma, ok3 := t.Col("sigma_index").([]int32)
	whole, ok4 := t.Col("whole").([]bool)
	var f [5][]float64
	ok := ok1 && ok2 && ok3 && ok4
	for k, name := range []string{"mean_response", "p99_response", "p99_slowdown", "mean_slowdown", "missed_share"} {
		var okf bool
		f[k], okf = t.Col(name).([]float64)
		ok = ok && okf
	}
	if !ok {
		return nil, errors.New("not a tune part of this schedplan (columns missing or of another type)")
	}
	out := make(map[tuner.TuneTask]tuner.Score, t.Len())
	for i := range spec {
		out[tuner.TuneTask{Spec: spec[i], Chunk: int(chunk[i]), Sigma: int(sigma[i]), Whole: whole[i]}] = tuner.Score{Mean: f[0][i], P99: f[1][i], P99Slowdown: f[2][i], MeanSlowdown: f[3][i], Missed: f[4][i]}
	}
	return out, nil
}

// summaryField is one numeric field of sim.Summary, flattened.
type summaryField struct {
	name  string
	index []int
	isInt bool
}

// summaryFields lists sim.Summary's numeric fields (nested structs
// flattened, names joined by "_"), so that a part holds every field
// whatever the summary grows.
var summaryFields = func() []summaryField {
	var out []summaryField
	var walk func(t reflect.Type, prefix string, index []int)
	walk = func(t reflect.Type, prefix string, index []int) {
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			idx := append(slices.Clone(index), i)
			name := prefix + strings.ToLower(f.Name)
			switch f.Type.Kind() {
			case reflect.Struct:
				walk(f.Type, name+"_", idx)
			case reflect.Int:
				out = append(out, summaryField{"summary_" + name, idx, true})
			case reflect.Float64:
				out = append(out, summaryField{"summary_" + name, idx, false})
			default:
				panic(fmt.Sprintf("sim.Summary field %s of kind %s: parts cannot hold it", f.Name, f.Type.Kind()))
			}
		}
	}
	walk(reflect.TypeOf(sim.Summary{}), "", nil)
	return out
}()

// validatePartTable is a validate part: for each unit, a summary row (job
// −1) and then its per-job rows (when the experiment keeps rows).
func validatePartTable(key string, h *experiment.UnitHook) *data.Table {
	us := make([]int, 0, len(h.Mine))
	for u := range h.Mine {
		us = append(us, u)
	}
	sort.Ints(us)
	var unit, units []int64
	var keys []string
	all := &experiment.JobRows{}
	ints := make([][]int64, len(summaryFields))
	floats := make([][]float64, len(summaryFields))
	add := func(u int, s *sim.Summary) {
		unit, units, keys = append(unit, int64(u)), append(units, int64(h.Units)), append(keys, key)
		v := reflect.ValueOf(sim.Summary{})
		if s != nil {
			v = reflect.ValueOf(*s)
		}
		for k, f := range summaryFields {
			if fv := v.FieldByIndex(f.index); f.isInt {
				ints[k] = append(ints[k], fv.Int())
			} else {
				floats[k] = append(floats[k], fv.Float())
			}
		}
	}
	for _, u := range us {
		r := h.Mine[u]
		add(u, &r.Summary)
		all.AppendRows(summaryRow)
		if r.Rows != nil {
			for range r.Rows.Job {
				add(u, nil)
			}
			all.AppendRows(r.Rows)
		}
	}
	t := &data.Table{}
	t.Add(experiment.PartUnit, unit)
	t.Add(experiment.PartUnits, units)
	t.Add(partKeyColumn, keys)
	for k, f := range summaryFields {
		if f.isInt {
			t.Add(f.name, ints[k])
		} else {
			t.Add(f.name, floats[k])
		}
	}
	rows := all.Table(nil)
	for k, name := range rows.Names {
		t.Add(name, rows.Cols[k])
	}
	return t
}

// summaryRow is the job-row part of a unit's summary row.
var summaryRow = &experiment.JobRows{Policy: []string{""}, Run: []int32{-1}, Job: []int32{-1}, Arrival: []float64{0}, Size: []float64{0},
	Estimate: []float64{0}, Completion: []float64{0}, Response: []float64{0}, Slowdown: []float64{0}, Deadline: []float64{0}, Missed: []bool{false}}

// validateKnown reads merged validate parts back into unit results.
func validateKnown(t *data.Table) (map[int]experiment.UnitResult, error) {
	bad := errors.New("not a validate part of this schedplan (columns missing or of another type)")
	unit := t.Col(experiment.PartUnit).([]int64)
	summary := reflect.New(reflect.TypeOf(sim.Summary{})).Elem()
	cols := make([]any, len(summaryFields))
	for k, f := range summaryFields {
		cols[k] = t.Col(f.name)
		if _, ok := cols[k].([]int64); f.isInt && !ok {
			return nil, bad
		} else if _, ok := cols[k].([]float64); !f.isInt && !ok {
			return nil, bad
		}
	}
	rows := &experiment.JobRows{}
	var ok [11]bool
	rows.Policy, ok[0] = t.Col("policy").([]string)
	rows.Run, ok[1] = t.Col("run").([]int32)
	rows.Job, ok[2] = t.Col("job").([]int32)
	rows.Arrival, ok[3] = t.Col("arrival").([]float64)
	rows.Size, ok[4] = t.Col("size").([]float64)
	rows.Estimate, ok[5] = t.Col("estimate").([]float64)
	rows.Completion, ok[6] = t.Col("completion").([]float64)
	rows.Response, ok[7] = t.Col("response").([]float64)
	rows.Slowdown, ok[8] = t.Col("slowdown").([]float64)
	rows.Deadline, ok[9] = t.Col("ps_deadline").([]float64)
	rows.Missed, ok[10] = t.Col("missed_deadline").([]bool)
	if slices.Contains(ok[:], false) {
		return nil, bad
	}
	out := map[int]experiment.UnitResult{}
	for i := 0; i < len(unit); {
		if rows.Job[i] != -1 {
			return nil, fmt.Errorf("unit %d: job rows without a summary row", unit[i])
		}
		for k, f := range summaryFields {
			if fv := summary.FieldByIndex(f.index); f.isInt {
				fv.SetInt(cols[k].([]int64)[i])
			} else {
				fv.SetFloat(cols[k].([]float64)[i])
			}
		}
		r := experiment.UnitResult{Summary: summary.Interface().(sim.Summary)}
		j := i + 1
		for j < len(unit) && unit[j] == unit[i] {
			j++
		}
		if j > i+1 {
			r.Rows = rows.Slice(i+1, j)
		}
		out[int(unit[i])] = r
		i = j
	}
	return out, nil
}

// partName matches a stage's part files.
func partName(stage string) *regexp.Regexp {
	return regexp.MustCompile(`^` + regexp.QuoteMeta(stage) + `-[0-9]+-of-([0-9]+)\.parquet$`)
}

// readStageParts reads and merges the parts of a stage in dir, which must
// all be of the stage's key.
func readStageParts(dir, stage, key string) (*data.Table, []string, error) {
	entries, err := os.ReadDir(filepath.Join(dir, PartsDir))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, nil, err
	}
	re := partName(stage)
	var names []string
	var parts []*data.Table
	var count, first string // the shard count N of the first part, its file
	for _, e := range entries {
		m := re.FindStringSubmatch(e.Name())
		if !e.Type().IsRegular() || m == nil {
			continue
		}
		p := filepath.Join(dir, PartsDir, e.Name())
		if n := strings.TrimLeft(m[1], "0"); count == "" {
			count, first = n, p
		} else if n != count {
			return nil, nil, fmt.Errorf("%s is a shard of %s, %s of %s: the parts of one merge come from one --shard i/N; remove the other N's parts", p, m[1], first, count)
		}
		t, err := data.ReadTable(p, data.FormatParquet)
		if err != nil {
			return nil, nil, err
		}
		names, parts = append(names, p), append(parts, t)
	}
	if len(parts) == 0 {
		return nil, nil, fmt.Errorf("no part of the %s stage in %s: run the shards first (schedplan run --stage %s --shard i/N)", stage, filepath.Join(dir, PartsDir), stage)
	}
	t, err := experiment.MergeParts(stageParts(stage), key, names, parts)
	return t, names, err
}

// stagePart is the stage a run shards or merges.
type stagePart struct {
	stage, key string
	opt        *inputs.StageOptions
	tune       *tuner.TuneShard
	units      *experiment.UnitHook
	merged     []string // the part files a merge read
}

// tuneShard is the tune stage's TuneShard: nil unless the stage is
// sharded or merged.
func (p *pipelineRun) tuneShard() (*tuner.TuneShard, error) {
	sp := p.part
	if sp == nil || sp.stage != "tune" {
		return nil, nil
	}
	sp.tune = &tuner.TuneShard{Index: sp.opt.Index, Count: sp.opt.Count}
	var err error
	if sp.tune.Known, err = mergedParts(p, tuneKnown); err != nil {
		return nil, err
	}
	return sp.tune, nil
}

// unitHook is the validate stage's UnitHook: nil unless the stage is
// sharded or merged.
func (p *pipelineRun) unitHook() (*experiment.UnitHook, error) {
	sp := p.part
	if sp == nil || sp.stage != "validate" {
		return nil, nil
	}
	sp.units = &experiment.UnitHook{Index: sp.opt.Index, Count: sp.opt.Count}
	var err error
	if sp.units.Known, err = mergedParts(p, validateKnown); err != nil {
		return nil, err
	}
	return sp.units, nil
}

// mergedParts reads the parts of a merged stage and parses them with known
// (the zero K when the stage is sharded, not merged), recording the part
// files read.
func mergedParts[K any](p *pipelineRun, known func(*data.Table) (K, error)) (K, error) {
	var zero K
	sp := p.part
	if !sp.opt.Merge {
		return zero, nil
	}
	t, names, err := readStageParts(p.r.Dir, sp.stage, sp.key)
	if err != nil {
		return zero, err
	}
	k, err := known(t)
	if err != nil {
		return zero, fmt.Errorf("%s: %w", strings.Join(names, ", "), err)
	}
	sp.merged = names
	return k, nil
}

// writeShard computes a shard's units of stage s and writes its part.
func (p *pipelineRun) writeShard(ctx context.Context, s stage) error {
	sp := p.part
	name := fmt.Sprintf("%s shard %d/%d", s.name, sp.opt.Index, sp.opt.Count)
	if p.r.upToDate(filepath.Join(p.r.Dir, StampDir, s.name+".json"), s.name, sp.key, &stamped{State: s.state}) {
		// Merged already (a retried or resubmitted shard): no part, which
		// no merge would read.
		p.r.hook(name, StageSkip, nil)
		return nil
	}
	p.r.hook(name, StageStart, nil)
	err := p.shardPart(ctx, s)
	p.r.hook(name, StageDone, err)
	return err
}

func (p *pipelineRun) shardPart(ctx context.Context, s stage) error {
	sp := p.part
	_, err := interruptible(ctx, func() (map[string][]byte, error) { return s.run(ctx) })
	switch {
	case err == nil:
		return fmt.Errorf("stage %s: every unit is computed already; nothing to shard", s.name)
	case !errors.Is(err, tuner.ErrShardDone):
		return fmt.Errorf("stage %s, shard %d/%d: %w", s.name, sp.opt.Index, sp.opt.Count, err)
	}
	var t *data.Table
	if sp.tune != nil {
		t = tunePartTable(sp.key, sp.tune.Scored)
	} else {
		t = validatePartTable(sp.key, sp.units)
	}
	path := filepath.Join(p.r.Dir, PartPath(s.name, sp.opt.Index, sp.opt.Count))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := data.WriteTable(&buf, t, data.FormatParquet); err != nil {
		return err
	}
	if err := data.WriteBytesAtomic(path, true, buf.Bytes()); err != nil {
		return fmt.Errorf("stage %s: %w", s.name, destError(path, err))
	}
	slog.Info("shard written", "stage", s.name, "shard", fmt.Sprintf("%d/%d", sp.opt.Index, sp.opt.Count), "file", path, "rows", t.Len())
	return nil
}

// mergeDone removes the parts a merge combined, once the stage's stamp is
// written (a later merge of other parts must not find them).
func (p *pipelineRun) mergeDone() error {
	if p.part == nil {
		return nil
	}
	for _, f := range p.part.merged {
		if err := os.Remove(f); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
	}
	return nil
}
