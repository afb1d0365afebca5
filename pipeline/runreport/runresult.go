package runreport

import (
	"github.com/schedplan/schedplan/pipeline/bundle"
	"github.com/schedplan/schedplan/pipeline/capacity"
	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/inputs"
	"github.com/schedplan/schedplan/pipeline/tunedeploy"
	"github.com/schedplan/schedplan/pipeline/tuner"
	"github.com/schedplan/schedplan/pipeline/validation"
)

// RunResult is what a run produced (also summary.json).
type RunResult struct {
	Version  int              `json:"version"`
	Trace    string           `json:"trace"`
	Workload inputs.Workload  `json:"workload"`
	Split    experiment.Split `json:"split"`
	// Capacity is the capacity every simulation ran at (in the units of the
	// sizes), CapacityFrom where it came from, and OfferedLoad the log's
	// load at it; Overloaded is set when that load exceeds 1.
	Capacity     float64  `json:"capacity"`
	CapacityFrom string   `json:"capacity_from"`
	OfferedLoad  *float64 `json:"offered_load"` // null when undefined (one arrival instant)
	Overloaded   bool     `json:"overloaded"`
	Warnings     []string `json:"warnings,omitempty"`
	Lambda       float64  `json:"lambda"`
	// Cluster names the cluster spec (an auto spec says how it was sized).
	Cluster string `json:"cluster"`
	// CapacityCheck decomposes the log's load and checks λ by replays.
	CapacityCheck *capacity.CapacityCheck    `json:"capacity_check,omitempty"`
	Tuned         tuner.LASMQParams          `json:"tuned_las_mq"`
	TunedSpec     string                     `json:"tuned_policy"`
	Bounds        *experiment.Bounds         `json:"bounds"`
	Validation    []validation.ValidationRow `json:"validation"`
	// ValidationLoad is the validation window's offered load at Capacity
	// (FluidLoadDef), at which the validation rows were simulated.
	ValidationLoad *float64 `json:"validation_offered_load"`
	Current        string   `json:"current"`
	// TaskValidation is the task-level view of the validation window (the
	// emitted YARN files simulated on the spec's machines).
	TaskValidation *validation.TaskValidation `json:"task_validation,omitempty"`
	// COSHH is COSHH beside FIFO and Fair at task level on the validation
	// window (seed 003 §5.1's metrics; COSHHValidation), with its tuning.
	COSHH *validation.COSHHValidation `json:"coshh,omitempty"`
	// Calibration is how far the simulated current scheduler is from the
	// log's observed times on the validation window: how much to trust
	// the what-ifs.
	Calibration *validation.CalibrationReport `json:"calibration,omitempty"`
	// TunedHPFSP is H-PFSP's tuned configuration (the bundle's h_pfsp).
	TunedHPFSP *bundle.HPFSPConfig `json:"tuned_h_pfsp,omitempty"`
	// DeployTuning is the task-level deploy tuner's record (every
	// candidate replayed as emitted on the tuning window).
	DeployTuning *tunedeploy.DeployTuning `json:"deploy_tuning,omitempty"`
	// Verdict is the run's one verdict (VerdictDeploy, VerdictKeep), Deploy
	// how it was reached; Improved is Verdict == deploy, Improvement the
	// contender's mean paired improvement over the current scheduler at
	// task level on the validation window (1 − candidate/current in the
	// objective; negative: worse) and ImprovementInterval the bootstrap
	// interval of its mean paired relative difference (negative: better).
	Verdict             string                    `json:"verdict"`
	Deploy              *tunedeploy.DeployVerdict `json:"deploy,omitempty"`
	Improvement         float64                   `json:"improvement_over_current"`
	ImprovementInterval *tuner.Interval           `json:"improvement_interval,omitempty"`
	Improved            bool                      `json:"improved"`
	// FluidImprovement is 1 − tuned/current mean response of the fluid
	// model on the validation window (FluidImproved: positive): a bound of
	// what the levels could do without tasks, not the verdict.
	FluidImprovement float64  `json:"fluid_improvement_over_current"`
	FluidImproved    bool     `json:"fluid_improved"`
	Skipped          []string `json:"-"`
	Ran              []string `json:"-"`
	Files            []string `json:"files"`

	// TunedRow and CurrentRow are the validation rows (exact sizes) the
	// verdict compares: response beside slowdown and missed deadlines.
	TunedRow   validation.ValidationRow `json:"tuned_validation"`
	CurrentRow validation.ValidationRow `json:"current_validation"`
}

// CapacityState is the capacity stage's state: the bundle's projection of
// each classification's plan, or why there is none.
type CapacityState struct {
	Primary        *bundle.CapacityPlan `json:"primary,omitempty"`
	PrimaryNotes   []string             `json:"primary_notes,omitempty"`
	Secondary      *bundle.CapacityPlan `json:"secondary,omitempty"`
	SecondaryNotes []string             `json:"secondary_notes,omitempty"`
	// Check is the load decomposition and the headroom replays
	// (checkCapacity).
	Check *capacity.CapacityCheck `json:"check,omitempty"`
}
