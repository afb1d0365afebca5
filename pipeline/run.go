package pipeline

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"sort"

	"github.com/schedplan/schedplan/classify"
	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/estimate"
	"github.com/schedplan/schedplan/lp"
	"github.com/schedplan/schedplan/pipeline/bundle"
	"github.com/schedplan/schedplan/pipeline/capacity"
	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/inputs"
	"github.com/schedplan/schedplan/pipeline/report"
	"github.com/schedplan/schedplan/pipeline/runreport"
	"github.com/schedplan/schedplan/pipeline/tasklevel"
	"github.com/schedplan/schedplan/pipeline/tunedeploy"
	"github.com/schedplan/schedplan/pipeline/tuner"
	"github.com/schedplan/schedplan/pipeline/validation"
)

// classState is the classify stage's state (classPair, with the stage
// state's methods).
type classState inputs.Classes

// boundsState is the bounds stage's state (validation window).
type boundsState struct {
	Bounds    *experiment.Bounds `json:"bounds"`
	Deadlines []float64          `json:"deadlines"`
}

// stage is one row of the pipeline's table: its name, its parameters and the
// stages and inputs its key covers (every input it reads), the state it
// leaves for later stages, and what it computes. run returns the files to
// write (name → bytes).
type stage struct {
	name   string
	params any
	deps   []string
	inputs [][]byte
	state  any
	run    func(ctx context.Context) (map[string][]byte, error)
}

// stamped is what a stamp records of a stage: the files it wrote and its
// state, so that a skipped stage gives both back.
type stamped struct {
	Files []string `json:"files"`
	State any      `json:"state"`
}

// UnmarshalJSON decodes a stamp's record into s.State; a record without a
// state (a damaged stamp, or one of another format) is an error, so the
// stage counts as not done.
func (s *stamped) UnmarshalJSON(b []byte) error {
	var raw struct {
		Files []string        `json:"files"`
		State json.RawMessage `json:"state"`
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	if len(raw.State) == 0 || string(raw.State) == "null" {
		return errors.New("stamp without a state")
	}
	// Decode strictly into a fresh value, and only then replace the state,
	// so that a damaged record leaves the state as it was.
	pv := reflect.ValueOf(s.State)
	if pv.Kind() != reflect.Pointer || pv.IsNil() {
		return errors.New("stamp state has no target")
	}
	if !hasFieldsOf(pv.Elem().Type(), raw.State) {
		return errors.New("stamp state lacks fields")
	}
	fresh := reflect.New(pv.Elem().Type())
	dec := json.NewDecoder(bytes.NewReader(raw.State))
	dec.DisallowUnknownFields()
	if err := dec.Decode(fresh.Interface()); err != nil {
		return err
	}
	pv.Elem().Set(fresh.Elem())
	s.Files = raw.Files
	return nil
}

// pipelineRun is one run's states, filled stage by stage.
type pipelineRun struct {
	in    *inputs.Inputs
	r     *Runner
	wl    inputs.Workload
	cs    classState
	capSt runreport.CapacityState
	tr    tuner.TuneReport
	ht    HPFSPTuning
	bs    boundsState
	vs    validation.ValidationState
	coshh validation.COSHHState
	dp    deployState
	files []string
	bd    *bundle.Bundle
	// bdErr is why the bundle's routing (routeBundle) failed, if it did.
	bdErr error
	// peaks is routeBundle's fluid replay (fluidPeaks), kept across the
	// bundle's rebuilds.
	peaks fluidPeakCache
	// part is the stage being sharded or merged (StageOptions).
	part *stagePart
	// ahead are the stages computed in the background (beside.go).
	ahead map[string]*ahead
}

// fluidPeakCache is every user's peak concurrent applications (peak) in the
// fluid replay of the LAS_MQ of.
type fluidPeakCache struct {
	of   tuner.LASMQParams
	peak []int
}

// Run runs every stage into r.Dir: the table of stages (stages) walked by one
// loop. A stage whose key (its parameters, the keys of the stages it depends
// on and the content of the inputs it reads) matches its stamp is skipped.
// in comes from Prepare. When ctx is cancelled the stage under way is
// abandoned without writing anything and Run returns ctx.Err() (wrapped):
// the directory stays resumable.
func Run(ctx context.Context, in *inputs.Inputs, r *Runner) (*runreport.RunResult, error) {
	if r.Dir == "" {
		return nil, experiment.ErrNoOutputDir
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx) // stops the stages computed in the background on an error
	defer cancel()
	r.shard = in.Config.Stages.Sharding()
	if err := r.Open(); err != nil {
		return nil, err
	}
	defer r.Close()
	// The simulation jobs (48 B a job; Prepare builds none) are dropped
	// for the whole run, should a caller hold them: every window, the
	// validation window included, is built from the log's columns when a
	// stage's runs need it (in.Window, in.WindowSource) and dropped after
	// them, none kept from one stage to the next. After Run, read them
	// with in.Window or in.HoldSimJobs.
	in.ReleaseSimJobs(0, 0)
	p := &pipelineRun{in: in, r: r}
	so := &in.Config.Stages
	stages := p.stages()
	if !so.Sharding() {
		if err := r.checkOutdated(stages, so); err != nil {
			return nil, err
		}
	}
	for k, s := range stages {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("before stage %s: %w", s.name, err)
		}
		key, err := r.KeyOf(s.name, s.params, s.deps, s.inputs...)
		if err != nil {
			return nil, err
		}
		if so.Stage == s.name {
			p.part = &stagePart{stage: s.name, key: key, opt: so}
			if so.Sharding() {
				return nil, p.writeShard(ctx, s)
			}
		}
		if s.name == besideFrom {
			p.startBeside(ctx, stages)
		}
		run := p.runOf(s)
		st := &stamped{State: s.state}
		err = r.Stage(s.name, key, st, func() (map[string][]byte, error) {
			files, err := interruptible(ctx, func() (map[string][]byte, error) { return run(ctx) })
			st.Files = nil
			for n := range files {
				st.Files = append(st.Files, n)
			}
			sort.Strings(st.Files)
			return files, err
		})
		if err != nil {
			return nil, err
		}
		p.files = append(p.files, st.Files...)
		if err := p.besideDone(stages[:k+1]); err != nil {
			return nil, err
		}
		if (so.Until == s.name || so.Stage == s.name) && k < len(stages)-1 {
			return nil, p.mergeDone() // part of the run: no result
		}
		if s.name == "classify" { // released as it starts; here when its stamp was fresh
			if err := in.ReleaseTuningIDs(); err != nil {
				return nil, err
			}
		}
	}
	res := p.result()
	res.Skipped, res.Ran = r.Skipped, r.Ran
	return res, nil
}

// interruptible runs f and returns its result, or ctx.Err() as soon as ctx
// is cancelled: f is then abandoned (it runs on, but what it returns is
// dropped, so nothing is written). Stages that cannot be cancelled from
// inside (k-means, the LP) stop within a moment this way.
func interruptible[T any](ctx context.Context, f func() (T, error)) (T, error) {
	type result struct {
		v   T
		err error
	}
	ch := make(chan result, 1)
	go func() {
		var r result
		func() {
			defer data.CatchDroppedRow(&r.err) // a read past a column's release
			r.v, r.err = f()
		}()
		ch <- r
	}()
	select {
	case r := <-ch:
		return r.v, r.err
	case <-ctx.Done():
		var zero T
		return zero, ctx.Err()
	}
}

// stages is the pipeline: ingest → classify → capacity, tune, bounds → emit
// → validate → report.
func (p *pipelineRun) stages() []stage {
	in, cfg := p.in, p.in.Config
	return []stage{
		{name: "ingest", params: struct {
			Sizes estimate.SizeOptions
			Split float64
		}{cfg.Sizes, cfg.Split}, inputs: [][]byte{in.TraceKey}, state: &p.wl, run: p.ingest},
		{name: "classify", params: struct {
			K    int
			Seed uint64
		}{cfg.K, cfg.Seed}, deps: []string{"ingest"}, inputs: [][]byte{in.SpecKey}, state: &p.cs, run: p.classify},
		{name: "capacity", params: struct {
			Solver     lp.Solver
			WhatIfs    []string
			Allocation string
			Check      int
			Seed       uint64
		}{cfg.Solver, cfg.WhatIfs, lp.AllocationRule, capacity.CapacityCheckVersion, cfg.Seed}, deps: []string{"classify"}, inputs: [][]byte{in.SpecKey}, state: &p.capSt, run: p.capacity},
		{name: "tune", params: struct {
			Budget      int
			Objective   tuner.Objective
			Constraints string
			Folds       int
			Current     string
			Seed        uint64
			Version     int
		}{cfg.Budget, cfg.Objective, cfg.Constraints, cfg.Folds, cfg.Current, cfg.Seed, tuneVersion}, deps: []string{"ingest"}, inputs: [][]byte{in.JobsKey}, state: &p.tr, run: p.tune},
		{name: "tune-coshh", params: struct {
			KGrid   []int
			TolGrid []float64
			Solver  lp.Solver
			Seed    uint64
			Version int
		}{validation.COSHHKGrid, validation.COSHHToleranceGrid, cfg.Solver, cfg.Seed, validation.COSHHVersion}, deps: []string{"ingest"}, inputs: [][]byte{in.SpecKey, in.JobsKey},
			state: &p.coshh, run: p.tuneCOSHH},
		{name: "tune-hpfsp", params: struct {
			Objective  tuner.Objective
			Seed       uint64
			Limits     []int
			Thresholds []float64
			Version    int
		}{cfg.Objective, cfg.Seed, tasklevel.DefaultFairLimits, HPFSPTuneThresholds, hpfspTuneVersion},
			deps: []string{"ingest"}, inputs: [][]byte{in.JobsKey, in.TraceKey, in.SpecKey}, state: &p.ht, run: p.tuneHPFSP},
		{name: "bounds", deps: []string{"ingest"}, inputs: [][]byte{in.JobsKey}, state: &p.bs, run: p.bounds},
		{name: "tune-deploy", params: struct {
			ChunkJobs, Chunks, Seeds, Finalists, Version, Layout int
			Multipliers                                          []float64
			Orders                                               []sim.LevelOrder
			Seed                                                 uint64
			Objective                                            tuner.Objective
			Constraints, CurrentConfig                           string
			ContainerMB                                          int
			// LateQueues (queues first named after the split, which the
			// files list since they place every application; 0, and no
			// change to the key, for every other log) makes the stamps
			// of a run that failed on them stale.
			LateQueues int `json:",omitempty"`
		}{tunedeploy.DeployChunkJobs, tunedeploy.DeployChunks, tunedeploy.DeployTuneSeeds, tunedeploy.DeployFinalists, deployVersion, bundle.CapacityLayoutVersion, tunedeploy.DeployMultipliers, tunedeploy.DeployLevelOrders,
			cfg.Seed, cfg.Objective, cfg.Constraints, cfg.CurrentConfig, cfg.ContainerMB, p.lateQueues()},
			deps: []string{"ingest", "classify", "capacity", "tune", "tune-coshh", "tune-hpfsp", "bounds"}, inputs: [][]byte{in.JobsKey, in.TraceKey, in.SpecKey, in.TasksKey, in.CurrentConfigKey},
			state: &p.dp, run: p.tuneDeploy},
		{name: "emit", params: struct{ ContainerMB, Layout int }{cfg.ContainerMB, bundle.CapacityLayoutVersion}, deps: []string{"ingest", "classify", "capacity", "tune", "tune-coshh", "tune-hpfsp", "bounds", "tune-deploy"},
			inputs: [][]byte{in.SpecKey}, state: &struct{}{}, run: p.emit},
		{name: "validate", params: struct {
			Current       string
			Baselines     []string
			Sigmas        []float64
			Runs          int
			Loads         []float64
			Seed          uint64
			TaskLevel     int
			CurrentConfig string
			ContainerMB   int
			Results       string
			LASMQDefault  string
			UnitOrder     int
			PFSP          int
		}{cfg.Current, cfg.Baselines, cfg.Sigmas, cfg.Runs, cfg.LoadFactors, cfg.Seed, validation.TaskLevelVersion, cfg.CurrentConfig, cfg.ContainerMB, cfg.ResultsOrDefault(), sim.DefaultLASMQ().Spec(), validation.UnitOrderVersion, sim.PFSPVersion},
			deps: []string{"tune", "tune-coshh", "tune-hpfsp", "bounds", "classify", "tune-deploy", "emit"}, inputs: [][]byte{in.JobsKey, in.TraceKey, in.SpecKey, in.CurrentConfigKey, in.TasksKey},
			state: &p.vs, run: p.validate},
		{name: "report", params: struct{ Version int }{reportVersion},
			deps:  []string{"ingest", "classify", "capacity", "tune", "tune-coshh", "tune-hpfsp", "bounds", "tune-deploy", "emit", "validate"},
			state: &struct{}{}, run: p.report},
	}
}

func (p *pipelineRun) ingest(context.Context) (map[string][]byte, error) {
	p.wl = p.in.Workload
	return nil, nil
}

// classify: COSHH's primary and secondary classifications, on sizes in
// container-seconds of the cluster spec (scaled where read: no copy). It
// reads no job id but to name a job in an error, so the tuning window's
// are released first (its errors then name such a row's job by its user
// and submit time).
func (p *pipelineRun) classify(context.Context) (map[string][]byte, error) {
	in, cfg := p.in, p.in.Config
	if err := in.ReleaseTuningIDs(); err != nil {
		return nil, err
	}
	inputs.ReturnFreeMemory(in.Jobs.Len())
	scale := estimate.ContainerScale(in.Source, cfg.Sizes, in.Spec.Capacity())
	pr, sec, err := classify.COSHH(in.Jobs, in.Sizes, in.Spec, classify.Options{K: cfg.K, Seed: cfg.Seed, SizeScale: scale})
	if err != nil {
		return nil, err
	}
	p.cs = classState{Primary: inputs.ClassOut{Result: pr, Rows: pr.Rows, Assign: pr.Assign}, Secondary: inputs.ClassOut{Result: sec, Rows: sec.Rows, Assign: sec.Assign}}
	var buf bytes.Buffer
	if err := data.WriteTable(&buf, classify.Table(pr, sec), data.FormatParquet); err != nil {
		return nil, err
	}
	return map[string][]byte{"classes.parquet": buf.Bytes()}, nil
}

// capacity: the COSHH LP of both classifications (what-ifs on the
// secondary one, which covers every job).
func (p *pipelineRun) capacity(ctx context.Context) (map[string][]byte, error) {
	cfg := p.in.Config
	for _, c := range []struct {
		res   *classify.Result
		opt   capacity.CapacityOptions
		plan  **bundle.CapacityPlan
		notes *[]string
	}{
		{p.cs.Primary.Result, capacity.CapacityOptions{Solver: cfg.Solver}, &p.capSt.Primary, &p.capSt.PrimaryNotes},
		{p.cs.Secondary.Result, capacity.CapacityOptions{Solver: cfg.Solver, WhatIfs: cfg.WhatIfs}, &p.capSt.Secondary, &p.capSt.SecondaryNotes},
	} {
		a, err := capacity.PlanCapacity(c.res, p.in.Spec, c.opt)
		if err != nil {
			return nil, fmt.Errorf("%s classification: %w", c.res.Name, err)
		}
		*c.plan, *c.notes = a.Plan(), a.Notes()
	}
	lambda := 0.0
	if p.capSt.Secondary != nil {
		lambda = p.capSt.Secondary.Lambda
	}
	var err error
	p.capSt.Check, err = capacity.CheckCapacity(ctx, p.in, (*inputs.Classes)(&p.cs), lambda)
	return nil, err
}

// tune: LAS_MQ on the tuning window, checked on the rest.
func (p *pipelineRun) tune(ctx context.Context) (map[string][]byte, error) {
	in, cfg := p.in, p.in.Config
	cons, err := tuner.ParseConstraints(cfg.Constraints)
	if err != nil {
		return nil, err
	}
	shard, err := p.tuneShard()
	if err != nil {
		return nil, err
	}
	val, err := in.WindowSource(in.Split.TuneJobs, in.NumSimJobs()) // built after the search
	if err != nil {
		return nil, err
	}
	rep, err := tuner.TuneLASMQSource(ctx, tuneSource(in), val, in.Capacity, in.Split, tuner.TuneOptions{
		Budget: cfg.Budget, Objective: cfg.Objective, Constraints: cons, Folds: cfg.Folds,
		Current: cfg.Current, Seed: cfg.Seed, Progress: p.r.progress("tune"), Shard: shard,
	})
	if err != nil {
		return nil, err
	}
	p.tr = *rep
	return nil, nil
}

// tuneSource is the tuning window as the tuner reads it: the log's
// submit times and sizes (what in.Window builds the jobs from) and its
// blocks built from them, so that the whole window is never held (the
// jobs themselves when a caller holds SimJobs, which may not be the
// columns').
func tuneSource(in *inputs.Inputs) *tuner.JobSource {
	n := in.Split.TuneJobs
	if in.SimJobs != nil {
		return tuner.SliceSource(in.SimJobs[:n])
	}
	return &tuner.JobSource{Arrival: in.Jobs.Submit[:n], Size: in.Sizes[:n], Range: in.Window,
		Containers: experiment.HasContainersRange(in.Jobs, 0, n)}
}

// bounds: on the validation window.
func (p *pipelineRun) bounds(context.Context) (map[string][]byte, error) {
	valJobs, err := p.in.Window(p.in.Split.TuneJobs, p.in.NumSimJobs())
	if err != nil {
		return nil, err
	}
	b, err := experiment.ComputeBounds(valJobs, p.in.Capacity)
	if err != nil {
		return nil, err
	}
	p.bs = boundsState{Bounds: b, Deadlines: b.Deadlines}
	return nil, nil
}

// boundsOf returns the bounds with their deadlines (which the stamp keeps
// apart).
func (p *pipelineRun) boundsOf() *experiment.Bounds {
	b := *p.bs.Bounds
	b.Deadlines = p.bs.Deadlines
	return &b
}

// deployState is the tune-deploy stage's state.
type deployState struct {
	Tuning  *tunedeploy.DeployTuning  `json:"tuning,omitempty"`
	Verdict *tunedeploy.DeployVerdict `json:"verdict,omitempty"`
}

// deployVersion changes when the tune-deploy stage or the verdict changes
// what it computes (2: no default bound on missed deadlines, now relative
// to the current scheduler; 3: jobs in the execution-time model;
// applications name the log's queues — as written first, then by their
// name in schedplan's files — and the deadlines are --current-config's
// completions, not Fair with one pool per user's; 4: tuned
// fair-scheduler.xml candidates, per-user maxRunningApps at task level;
// 5: intervals print enough digits not to read +0.00% when not zero;
// 6: users' work shares and peak applications from the tuning window;
// 7: task-level Fair breaks queue ties by name, as FairSharePolicy; 8:
// task-level Capacity orders queues, counts user limits and stops at the
// queue limit as Hadoop 3.4; 9: chunks bounded in tasks too,
// DeployChunkTasks, and equal candidate files replayed once; 10: a job
// replayed from the tasks table counts its table's tasks in the budget).
const deployVersion = 10

// tuneVersion changes when the tune stage computes something else for the
// same inputs (1: the first version stamped; before it the stage had
// none; 2: chunks of more than TuneOptions.CheckJobs jobs are re-checked
// on a sample of their busy periods, not whole; 3: LAS_MQ's containers
// order, seed 000's Alg. 1 line 10, in the search space and in Hu et al.'s
// default, and the log's task counts in the jobs; 4: the space-filling
// sequence raced, its worst two thirds dropped after two folds).
const tuneVersion = 4

// reportVersion changes when report.html changes for the same stage
// results (2: the decision on the first screen, legends beside the plots,
// log-scale bars, labelled ticks on log axes within a decade; 3: the
// capacity section's headroom, its replays and the load decomposition;
// 4: the COSHH grid's caption names the jobs it simulated, not "the
// second half of the tuning window").
const reportVersion = 4

// tuneDeploy: the deployable candidates rendered from the bundle as tuned
// and replayed at task level on the tuning window (TuneDeploy); the bundle
// and the emitted files carry the choice.
func (p *pipelineRun) tuneDeploy(ctx context.Context) (map[string][]byte, error) {
	p.dp, p.bd = deployState{}, nil // the bundle as tuned
	b := p.bundle()
	if p.bdErr != nil {
		return nil, p.bdErr
	}
	dt, err := tunedeploy.TuneDeploy(ctx, p.in, &p.tr, b)
	if err != nil {
		return nil, err
	}
	p.dp = deployState{Tuning: dt}
	p.bd = nil // rebuilt with the choice
	// The one verdict: the contender's file, rendered as emit writes it,
	// against the current scheduler on the validation window.
	v, err := tunedeploy.VerdictOf(ctx, p.in, dt, p.bundle())
	if err != nil {
		return nil, err
	}
	p.dp.Verdict, p.bd = v, nil
	return nil, nil
}

// tuned returns the LAS_MQ configuration the emitted capacity-scheduler.xml
// implements, the one record of "the tuned configuration": the deploy
// tuner's capacity candidate (thresholds × its multiplier, its leaves'
// order), else the fluid tuner's.
func (p *pipelineRun) tuned() tuner.LASMQParams {
	if dt := p.dp.Tuning; dt != nil && dt.Capacity >= 0 {
		return *dt.Candidates[dt.Capacity].LASMQ
	}
	return p.tr.Best
}

// deployRecord is the bundle's deploy section (nil before the verdict).
func (p *pipelineRun) deployRecord() *bundle.DeployRecord {
	v := p.dp.Verdict
	if v == nil {
		return nil
	}
	if c := p.contender(); c != nil && c.Family == tunedeploy.FamilyFair {
		r := v.Record(c.PoolPolicy)
		r.FairKnobs = c.Fair
		return r
	}
	return v.Record("")
}

// contender returns the deploy tuner's contender (nil: none).
func (p *pipelineRun) contender() *tunedeploy.DeployCandidate {
	if dt := p.dp.Tuning; dt != nil && dt.Contender >= 0 {
		return &dt.Candidates[dt.Contender]
	}
	return nil
}

// emit: the configuration bundle and the YARN files.
func (p *pipelineRun) emit(context.Context) (map[string][]byte, error) {
	bd := p.bundle()
	if p.bdErr != nil {
		return nil, p.bdErr
	}
	y, err := bundle.MarshalBundle(bd)
	if err != nil {
		return nil, err
	}
	files, err := tunedeploy.BundleYARN(bd, p.in.Config.ContainerMB)
	if err != nil {
		return nil, err
	}
	files["schedplan.yaml"] = y
	return files, nil
}

// validate: every configuration on the validation window.
func (p *pipelineRun) validate(ctx context.Context) (map[string][]byte, error) {
	units, err := p.unitHook()
	if err != nil {
		return nil, err
	}
	tuned := p.tuned()
	// The stages after this one read the validation window alone (and the
	// bundle, built here first from the tuning window): the log's other
	// simulation jobs are dropped, not kept live beside its simulations.
	p.bundle()
	p.in.ReleaseSimJobs(p.in.Split.TuneJobs, p.in.NumSimJobs())
	// And their job ids and bytes, but the bytes of the validation rows
	// the task-level and COSHH views read (a shard, which computes the
	// fluid runs alone, reads none, and leaves the window's) and of the
	// rows COSHH's re-classifications on the validation window refit on.
	to := p.in.Jobs.Len()
	if !units.Sharding() {
		if to, err = validation.BytesReadTo(p.in); err != nil {
			return nil, err
		}
	}
	if err := p.in.ReleaseTuningRows(validation.COSHHRefitRows, to); err != nil {
		return nil, err
	}
	// And the tuning window's classes (the bundle's routing read them).
	p.cs.Primary.KeepFrom(p.in.Split.TuneJobs)
	p.cs.Secondary.KeepFrom(p.in.Split.TuneJobs)
	// The emitted files, loaded back from the output directory and
	// simulated at task level, with H-PFSP's rows, in one pool with the
	// fluid runs (a shard computes the fluid runs alone).
	var tp *validation.TaskPlan
	var task []*experiment.Experiment
	if !units.Sharding() {
		if tp, err = validation.PlanTaskValidation(p.in, (*inputs.Classes)(&p.cs), tuned, p.r.Dir); err != nil {
			return nil, err
		}
		tp.AddRows(p.hpfspRows(), p.ht.DefaultTaskS)
		tp.AddNote(p.ht.Note())
		if task, err = tp.Experiments(); err != nil {
			return nil, err
		}
	}
	v, files, taskOut, err := validation.Validate(ctx, p.in, (*inputs.Classes)(&p.cs), &p.tr, tuned, p.boundsOf(), p.r.StreamFile, experiment.RunOptions{Progress: p.r.progress("validate"), Units: units}, task...)
	if err != nil {
		return nil, err
	}
	if v.Task, err = tp.Finish(taskOut); err != nil {
		return nil, err
	}
	for i := range v.Task.Rows { // COSHH's rows, added below, state their own
		v.Task.Rows[i].OfferedLoad = v.Task.OfferedLoad
	}
	cal, calFiles, err := validation.Calibrate(ctx, p.in, v)
	if err != nil {
		return nil, err
	}
	v.Calibration = cal
	maps.Copy(files, calFiles)
	p.vs = *v
	// COSHH beside FIFO and Fair (rows of the task-level table, coshh.parquet).
	if err := p.validateCOSHH(ctx, files); err != nil {
		return nil, err
	}
	return files, nil
}

// report: summary.json and report.html.
func (p *pipelineRun) report(context.Context) (map[string][]byte, error) {
	res := p.result()
	res.Files = append(res.Files, "summary.json", "report.html")
	sum, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		return nil, err
	}
	html, err := runreport.BuildReport(p.in, p.bundle(), (*inputs.Classes)(&p.cs), &p.capSt, &p.tr, p.boundsOf(), &p.vs, res)
	if err != nil {
		return nil, err
	}
	return map[string][]byte{"summary.json": append(sum, '\n'), "report.html": html}, nil
}

// result assembles the run's result from the stages' states and the files
// written so far.
func (p *pipelineRun) result() *runreport.RunResult {
	in, cfg := p.in, p.in.Config
	res := &runreport.RunResult{
		Version: bundle.BundleVersion, Trace: in.Jobs.Source, Workload: p.wl, Split: in.Split,
		Capacity: in.Capacity, CapacityFrom: in.CapacityFrom, OfferedLoad: report.FinitePtr(in.OfferedLoad), Overloaded: in.OfferedLoad > 1,
		Warnings: in.Warnings, Tuned: p.tuned(), TunedSpec: p.tuned().Spec(), Bounds: p.boundsOf(),
		Validation: p.vs.Rows, ValidationLoad: p.vs.OfferedLoad, Current: cfg.Current, Files: append([]string(nil), p.files...),
	}
	if p.capSt.Secondary != nil {
		res.Lambda = p.capSt.Secondary.Lambda
	}
	res.CapacityCheck, res.Cluster = p.capSt.Check, in.Spec.Name
	current := experiment.CanonicalSpec(cfg.Current)
	for _, row := range p.vs.Rows {
		if row.Sigma == 0 && experiment.CanonicalSpec(row.Policy) == current {
			res.CurrentRow = row
		}
		if row.Name == "tuned las_mq" && row.Sigma == 0 {
			res.TunedRow = row
		}
	}
	if cur, tuned := res.CurrentRow.Mean, res.TunedRow.Mean; cur > 0 {
		res.FluidImprovement = 1 - tuned/cur
		res.FluidImproved = tuned < cur
	}
	res.TaskValidation = p.vs.Task
	res.DeployTuning = p.dp.Tuning
	if v := p.dp.Verdict; v != nil {
		res.Deploy = v
		res.Verdict, res.Improved, res.Improvement = v.Verdict, v.Deploy(), v.Improvement
		iv := v.Interval
		res.ImprovementInterval = &iv
	}
	res.COSHH = p.vs.COSHH
	res.Calibration = p.vs.Calibration
	res.TunedHPFSP = p.hpfspConfig()
	return res
}

// progress returns the runner's progress callback for a stage.
func (r *Runner) progress(stage string) func(done, total int) {
	if r.Progress == nil {
		return nil
	}
	return func(done, total int) { r.Progress(stage, done, total) }
}

// bundle assembles schedplan.yaml from the stages' states (once).
func (p *pipelineRun) bundle() *bundle.Bundle {
	if p.bd != nil {
		return p.bd
	}
	in, cfg := p.in, p.in.Config
	bd := &bundle.Bundle{Version: bundle.BundleVersion, Generator: "schedplan", Seed: cfg.Seed}
	bd.Trace = bundle.TraceInfo{
		Source: in.Jobs.Source, SHA256: hex.EncodeToString(in.TraceKey), Jobs: in.Jobs.Len(), SizeSource: string(in.Source),
		DN: cfg.Sizes.DN, Load: cfg.Sizes.Load, TuneJobs: in.Split.TuneJobs, ValidateJobs: in.Split.ValidJobs, SplitTime: in.Split.Time,
	}
	bd.Cluster = bundle.ClusterInfo{Name: in.Spec.Name, Capacity: in.Spec.Capacity()}
	for _, r := range in.Spec.Resources {
		bd.Cluster.Resources = append(bd.Cluster.Resources, bundle.ResourceInfo{Name: r.Name, Count: r.Count, Slots: r.Slots, ExecRate: r.ExecRate})
	}
	names, idx := in.Jobs.Users()
	counts := make([]int, len(names))
	for _, u := range idx {
		counts[u]++
	}
	seen := map[string]bool{}
	for k, n := range names {
		u := in.Spec.User(n)
		bd.Users = append(bd.Users, bundle.UserConfig{Name: n, Jobs: counts[k], MinShare: u.MinShare, Weight: u.EffectiveWeight()})
		seen[n] = true
	}
	for _, u := range in.Spec.Users {
		if !seen[u.Name] {
			bd.Users = append(bd.Users, bundle.UserConfig{Name: u.Name, MinShare: u.MinShare, Weight: u.EffectiveWeight()})
		}
	}
	res := p.cs.Secondary.Result
	for _, c := range res.Classes {
		bd.Classes = append(bd.Classes, bundle.ClassConfig{
			Name: bundle.ClassName(c.ID), Label: c.Label, Count: c.Count, Share: c.Share, Centroid: c.Centroid,
			MeanSize: c.MeanSize, Alpha: c.Alpha, Mu: c.Mu,
		})
	}
	for f, name := range res.Features {
		m := classify.Method("")
		if f < len(res.Scaling.Methods) {
			m = res.Scaling.Methods[f]
		}
		fs := bundle.FeatureScale{Feature: name, Log: m == classify.Log}
		if f < len(res.Scaling.Mean) {
			fs.Mean, fs.SD = res.Scaling.Mean[f], res.Scaling.Std[f]
		}
		bd.Scaling = append(bd.Scaling, fs)
	}
	bd.Capacity = p.capSt.Secondary
	bd.LASMQ = p.tuned().Config()
	if h, err := bundle.HeldPerUnit(in.Capacity, bd.Cluster.Containers()); err == nil {
		bd.LASMQ.HeldPerUnit = h // tuned at in.Capacity, whatever the size source says
	}
	bd.Deploy = p.deployRecord()
	p.bdErr = p.routeBundle(bd)
	bd.HPFSP = p.hpfspConfig()
	b := p.boundsOf()
	if p.coshh.Fit != nil {
		bd.COSHH = validation.COSHHConfigOf(p.coshh.Fit, p.coshh.Grid)
	}
	bd.Bounds = &bundle.BoundsInfo{SRPTMean: b.SRPTMean, FSPMean: b.FSPMean, PSMean: b.PSMean}
	p.bd = bd
	return bd
}
