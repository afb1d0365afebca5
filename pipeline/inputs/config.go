package inputs

import (
	"math"

	"github.com/schedplan/schedplan/classify"
	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/estimate"
	"github.com/schedplan/schedplan/lp"
	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/tuner"
)

// RunConfig is everything `schedplan run` needs. Its zero fields take the
// defaults of DefaultRunConfig, unless AsGiven is set.
type RunConfig struct {
	Trace string           `json:"trace"` // data.Open spec
	Read  data.ReadOptions `json:"-"`
	// Tasks is a tasks table of the log's jobs (InputOptions.Tasks; "":
	// none, or the log's own tasks).
	Tasks   string               `json:"tasks,omitempty"`
	Sizes   estimate.SizeOptions `json:"sizes"`
	Cluster string               `json:"cluster"` // cluster spec path, "auto" (the default) or "coshh-table3"
	// Capacity is the fluid server's capacity in the units of the sizes;
	// 0 takes it from the cluster spec (SimCapacity).
	Capacity  float64         `json:"capacity"`
	Split     float64         `json:"split"`
	K         int             `json:"k"` // classify.KAuto, KUsers or fixed
	Solver    lp.Solver       `json:"solver"`
	WhatIfs   []string        `json:"what_ifs"`
	Budget    int             `json:"budget"`
	Objective tuner.Objective `json:"objective"`
	// Constraints bound the tuned configuration's other metrics
	// (ParseConstraints; default DefaultConstraints; "none": none).
	Constraints string `json:"constraints"`
	// Folds is the number of rolling-origin folds of the tuning window.
	Folds int `json:"folds"`
	// Blocks is no longer used (see TuneOptions.Blocks).
	Blocks int `json:"blocks"`
	// Current is the scheduler the cluster runs today (a policy spec);
	// RequireImprovement compares the tuned configuration with it.
	Current string `json:"current"`
	// CurrentConfig is the user's own fair-scheduler.xml or
	// capacity-scheduler.xml: the current scheduler of the task-level
	// validation, whose verdict then feeds --require-improvement ("": Fair
	// with one pool per user).
	CurrentConfig string `json:"current_config,omitempty"`
	// Baselines are validated besides the tuned configuration, Current and
	// the bounds.
	Baselines []string `json:"baselines"`
	// Sigmas, Runs: the size-estimation errors (log-normal σ) the policies
	// that use size estimates are re-run with, Runs times each.
	Sigmas []float64 `json:"sigmas"`
	Runs   int       `json:"runs"`
	// LoadFactors scale the validation window's load for the load curve.
	LoadFactors []float64 `json:"load_factors"`
	Seed        uint64    `json:"seed"`
	ContainerMB int       `json:"container_mb"`
	// Results is which validation jobs' rows results.parquet holds: all,
	// sample:N, none or auto ("": auto; ParseResults).
	Results string `json:"results"`

	// AsGiven takes every field as it is: a zero is checked (and refused
	// where it is not a valid value) instead of replaced by its default.
	// The CLI sets it, as its flags start from DefaultRunConfig: a zero
	// there is what the user typed.
	AsGiven bool `json:"-"`
	// NoLimits runs a request whose estimated work or memory is beyond
	// MaxSeconds or MaxBytes instead of refusing it.
	NoLimits bool `json:"-"`
	// Stages selects part of the run (StageOptions).
	Stages StageOptions `json:"-"`
	// MemoryLimit is the soft memory limit Prepare sets for the run
	// (ParseMemoryLimit: auto, none or a size; "": auto). It changes
	// when the garbage is collected, never a result.
	MemoryLimit string `json:"-"`
}

// DefaultRunConfig returns the defaults.
func DefaultRunConfig() RunConfig {
	return RunConfig{
		Trace: "embedded", Sizes: estimate.DefaultSizeOptions(), Cluster: cluster.AutoName,
		Split: 0.7, K: classify.KAuto, Solver: lp.Auto,
		Budget: 500, Objective: tuner.MinMean, Constraints: tuner.DefaultConstraints, Folds: 5, Blocks: 4,
		Current:   tuner.FairSpec,
		Baselines: []string{"fifo", tuner.FairSpec, "las", "srpt", "fsp+ps", "pfsp"},
		Sigmas:    []float64{0, 0.25, 0.5, 1}, Runs: 10,
		LoadFactors: []float64{0.5, 0.7, 0.8, 0.9, 1, 1.1, 1.2},
		Seed:        1, ContainerMB: 1024, Results: experiment.ResultsAuto,
	}
}

// Inputs are what Prepare read and checked: everything the stages need,
// before any output exists.
type Inputs struct {
	Config RunConfig
	Spec   *cluster.Spec
	Jobs   *data.Jobs
	// Tasks are the tasks of the jobs (nil: none), from the log or
	// Config.Tasks; the task-level validation runs them (TaskJobsWith).
	Tasks *data.Tasks
	// Input is the log as read (what a log reader dropped, the tasks).
	Input  *Input
	Sizes  []float64 // fluid sizes (seconds of the whole cluster for SWIM)
	Source estimate.Source
	// Capacity is the capacity every simulation runs at, in the units of
	// Sizes, and CapacityFrom says where it came from.
	Capacity     float64
	CapacityFrom string
	// OfferedLoad is the log's offered load at Capacity (OfferedLoad);
	// above 1 the cluster cannot keep up, which Warnings says.
	OfferedLoad float64
	Warnings    []string
	// SimJobs are the log's simulation jobs when held (BuildSimJobs,
	// HoldSimJobs); nil as Prepare leaves them (PlanSimJobs) and once
	// ReleaseSimJobs dropped them: read a window with Window then.
	SimJobs  []sim.Job
	sim      simHold
	memo     memo
	Split    experiment.Split
	Workload Workload
	// Keys of the inputs the stages read, for their stage keys: the SHA-256
	// of the log's canonical content (its Arrow IPC file, hashed as it is
	// written rather than held), the cluster spec, and the simulation jobs
	// with their capacity (weights from the spec included).
	TraceKey []byte
	SpecKey  []byte
	JobsKey  []byte
	// CurrentConfigKey is the content of Config.CurrentConfig (nil: none).
	CurrentConfigKey []byte
	// TasksKey is a hash of the tasks (nil: none).
	TasksKey []byte
	// deployRows are the rows of the byte columns ReleaseTuningBytes
	// kept for tune-deploy (nil: none kept so).
	deployRows []data.RowRange
}

// Limits of parameters that no sensible run exceeds (a value beyond them
// is a typo or an attack, refused with its name).
const (
	MaxMachines    = 1e7     // machines of one type after a what-if
	MaxContainerMB = 1 << 24 // 16 TiB per container
	MaxBudget      = 1 << 30
	MaxFolds       = 1000
)

// MaxSizeOption bounds --load and --dn: both multiply job sizes, and a
// larger value (1e308) overflows them to +Inf.
const MaxSizeOption = 1e6

// CheckSizeOptions refuses a d/n or load that is not a finite positive
// number (estimate.Sizes would replace a zero by its default) or is above
// MaxSizeOption.
func CheckSizeOptions(o estimate.SizeOptions) error {
	switch {
	case !(o.DN > 0) || math.IsInf(o.DN, 0):
		return experiment.ParamErr("dn", o.DN, "d/n must be a finite positive ratio")
	case !(o.Load > 0) || math.IsInf(o.Load, 0):
		return experiment.ParamErr("load", o.Load, "the offered load must be a finite positive number")
	case o.DN > MaxSizeOption:
		return experiment.ParamErr("dn", o.DN, "d/n must be at most %g", float64(MaxSizeOption))
	case o.Load > MaxSizeOption:
		return experiment.ParamErr("load", o.Load, "the offered load must be at most %g (it multiplies every size)", float64(MaxSizeOption))
	}
	return nil
}

// ResultsOrDefault is c.Results, auto when empty.
func (c *RunConfig) ResultsOrDefault() string {
	if c.Results == "" {
		return experiment.ResultsAuto
	}
	return c.Results
}

// StageOptions select part of a run: Until stops after a stage; Stage with
// Shard ("i/N") computes one shard's part of a stage; Stage with Merge
// completes the stage from its parts.
type StageOptions struct {
	Until string `json:"-"`
	Stage string `json:"-"`
	Shard string `json:"-"`
	Merge bool   `json:"-"`

	Index, Count int
}

// Sharding reports whether the run computes a shard's part.
func (o *StageOptions) Sharding() bool { return o.Count > 0 }
