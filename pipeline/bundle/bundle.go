package bundle

import (
	"bytes"
	"fmt"

	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/internal/configfile"
	"github.com/schedplan/schedplan/internal/yamlstrict"
	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/tuner"
	"gopkg.in/yaml.v3"
)

// BundleVersion is the version of the schedplan.yaml format written by this
// package. Readers reject other versions.
const BundleVersion = 1

// Bundle is the content of schedplan.yaml: everything schedplan decided about
// a cluster, in one versioned, self-describing file that schedplan can load
// back (simulate --config) and from which the YARN files are rendered.
type Bundle struct {
	Version   int    `yaml:"version"`
	Generator string `yaml:"generator"`
	// Seed is the random seed every stochastic stage used.
	Seed uint64 `yaml:"seed"`

	Trace   TraceInfo    `yaml:"trace"`
	Cluster ClusterInfo  `yaml:"cluster"`
	Users   []UserConfig `yaml:"users"`
	// Queues are the log's own queues (its queue column), when it has
	// one: capacity-scheduler.xml keeps them at their paths.
	Queues   []QueueConfig      `yaml:"queues,omitempty"`
	Classes  []ClassConfig      `yaml:"classes"`
	Scaling  []FeatureScale     `yaml:"scaling,omitempty"`
	Capacity *CapacityPlan      `yaml:"capacity,omitempty"`
	LASMQ    *tuner.LASMQConfig `yaml:"las_mq,omitempty"`
	HPFSP    *HPFSPConfig       `yaml:"h_pfsp,omitempty"`
	COSHH    *COSHHConfig       `yaml:"coshh,omitempty"`
	Bounds   *BoundsInfo        `yaml:"bounds,omitempty"`
	Deploy   *DeployRecord      `yaml:"deploy,omitempty"`
}

// TraceInfo identifies the job log and the windows used for tuning and validation.
type TraceInfo struct {
	Source     string  `yaml:"source"`
	SHA256     string  `yaml:"sha256,omitempty"`
	Jobs       int     `yaml:"jobs"`
	SizeSource string  `yaml:"size_source"`
	DN         float64 `yaml:"dn"`
	Load       float64 `yaml:"load"`
	// TuneJobs and ValidateJobs are the job counts of the two windows; the
	// split is at SplitTime (submit times < SplitTime tune, the rest validate).
	TuneJobs     int     `yaml:"tune_jobs"`
	ValidateJobs int     `yaml:"validate_jobs"`
	SplitTime    float64 `yaml:"split_time_s"`
}

// ClusterInfo is the cluster the configuration was made for.
type ClusterInfo struct {
	Name      string         `yaml:"name,omitempty"`
	Capacity  float64        `yaml:"capacity"` // reference containers
	Resources []ResourceInfo `yaml:"resources"`
}

// ResourceInfo is one machine type.
type ResourceInfo struct {
	Name     string  `yaml:"name"`
	Count    int     `yaml:"count"`
	Slots    int     `yaml:"slots"`
	ExecRate float64 `yaml:"exec_rate"`
}

// UserConfig is a user's share settings (Fair Scheduler queue per user).
type UserConfig struct {
	Name     string  `yaml:"name"`
	Jobs     int     `yaml:"jobs"`
	MinShare float64 `yaml:"min_share"` // containers
	Weight   float64 `yaml:"weight"`
	// Class is the class that holds at least UserClassShare of the user's
	// classified jobs, when one does (capacity-scheduler.xml maps the user
	// to its queue); empty when the user's jobs span classes.
	Class string `yaml:"class,omitempty"`
	// ClassShare is the share of the user's classified jobs that are of
	// Class (at least UserClassShare; 0 in bundles written before it was
	// recorded, where Class held all of them).
	ClassShare float64 `yaml:"class_share,omitempty"`
	// Work is the user's share of the log's offered work (Σ sizes), 0..1:
	// what the queue their applications land in is guaranteed.
	Work float64 `yaml:"work,omitempty"`
	// PeakApps is the most of the user's applications in the system at
	// once (PeakApplications: in a fluid replay of the tuned LAS_MQ, or
	// from submit to finish in the log when that is more): every leaf's
	// per-user application limit admits at least twice as many.
	PeakApps int `yaml:"peak_apps,omitempty"`
}

// QueueConfig is one queue of the log (its queue column), by its path in
// capacity-scheduler.xml and fair-scheduler.xml (LogQueuePath, e.g.
// root.dev.adhoc; a bundle written before paths were kept names it by its
// last component, read as a queue under root).
type QueueConfig struct {
	Name string  `yaml:"name"`
	Jobs int     `yaml:"jobs"`
	Work float64 `yaml:"work"` // share of the log's offered work, 0..1
}

// ClassConfig is one job class (k-means cluster).
type ClassConfig struct {
	Name     string    `yaml:"name"` // queue-safe identifier, e.g. c0
	Label    string    `yaml:"label"`
	Count    int       `yaml:"count"`
	Share    float64   `yaml:"share"`
	Centroid []float64 `yaml:"centroid"` // original units, in Scaling's feature order
	MeanSize float64   `yaml:"mean_size"`
	Alpha    float64   `yaml:"alpha"` // jobs/s
	Mu       []float64 `yaml:"mu"`    // jobs/s per machine of each cluster resource type
}

// FeatureScale says how a feature was scaled before k-means:
// z = (f(x) − Mean) / SD with f = log1p when Log is set.
type FeatureScale struct {
	Feature string  `yaml:"feature"`
	Log     bool    `yaml:"log"`
	Mean    float64 `yaml:"mean"`
	SD      float64 `yaml:"sd"`
}

// CapacityPlan is the COSHH LP's answer.
type CapacityPlan struct {
	Solver string  `yaml:"solver"`
	Lambda float64 `yaml:"lambda"`
	// Allocation[t][i] is the fraction of resource type t (in machines,
	// 0..count) given to class i.
	Allocation [][]float64 `yaml:"allocation"`
	// Suggested[t] lists the classes (by name) resource type t should serve.
	Suggested [][]string `yaml:"suggested"`
	Load      []float64  `yaml:"type_load"` // fraction of each type in use
	// DualPrices[t] is the dual price of type t's capacity row: dλ per
	// machine of the type (0: not a bottleneck); absent without duals.
	DualPrices []float64 `yaml:"dual_prices,omitempty"`
	WhatIfs    []WhatIf  `yaml:"what_ifs,omitempty"`
}

// WhatIf is λ after a change of machine counts.
type WhatIf struct {
	Change string  `yaml:"change"`
	Lambda float64 `yaml:"lambda"`
}

// HPFSPConfig holds H-PFSP's parameters (seed 002 Alg. 3): FairLimit in
// tasks per stage (the fair phase's length; 0: none), Threshold a fraction
// of the map stage's tasks (getStage's progress threshold), each with its
// unit; and how it sizes jobs: Estimator (ewma: online from the tasks'
// progress, seed 002 eq. 1–5), the progress-report interval and eq. 18's
// prior task time per stage, in seconds.
type HPFSPConfig struct {
	FairLimit       int       `yaml:"fair_limit" json:"fair_limit"`
	FairLimitUnit   string    `yaml:"fair_limit_unit,omitempty" json:"fair_limit_unit,omitempty"`
	Threshold       float64   `yaml:"threshold" json:"threshold"`
	ThresholdUnit   string    `yaml:"threshold_unit,omitempty" json:"threshold_unit,omitempty"`
	Estimator       string    `yaml:"estimator,omitempty" json:"estimator,omitempty"`
	ReportIntervalS float64   `yaml:"report_interval_s,omitempty" json:"report_interval_s,omitempty"`
	DefaultTaskS    []float64 `yaml:"default_task_s,omitempty" json:"default_task_s,omitempty"`
}

// Units of HPFSPConfig's parameters.
const (
	HPFSPFairLimitUnit = "tasks scheduled per stage"
	HPFSPThresholdUnit = "fraction of the map stage's progress"
)

// BoundsInfo are the offline bounds on the validation window.
type BoundsInfo struct {
	SRPTMean float64 `yaml:"srpt_mean_response"` // lower bound on mean response
	FSPMean  float64 `yaml:"fsp_mean_response"`  // a protective schedule's value
	PSMean   float64 `yaml:"ps_mean_response"`
}

const bundleHeader = `# schedplan.yaml — a schedplan configuration bundle (format version %d).
#
# Sections:
#   trace     the job log, its size rule (dn, load) and the tune/validate split
#   cluster   machine types (count, slots, exec_rate); capacity in reference containers
#   users     per-user min_share (containers) and weight, as in fair-scheduler.xml;
#             the class most of their jobs are of (class, class_share), their
#             share of the offered work (work) and their peak concurrent
#             applications (peak_apps): capacity-scheduler.xml's routing
#   queues    the log's own queues (its queue column), with their jobs and
#             share of the offered work: capacity-scheduler.xml keeps them
#   classes   k-means job classes: centroid (original units, see scaling), mean
#             size, alpha (arrivals/s) and mu (jobs/s per machine of each type)
#   scaling   per-feature scaling used by the classifier: z = (f(x) - mean) / sd,
#             f = log1p when log is true; a new job's class is its nearest centroid
#   capacity  the COSHH LP: lambda (the cluster sustains lambda x today's arrival
#             rates), allocation[type][class] in machines, suggested classes per
#             type, each type's load, and what-ifs
#   las_mq    multi-level queue: k queues, demotion thresholds on attained
#             service (in threshold_unit, work as tuned; container_seconds_per_unit
#             converts them to reference-container-seconds of work,
#             held_container_seconds_per_unit to held container-seconds =
#             containers x seconds held, what YARN, schedplan yarn-controller
#             and capacity-scheduler.xml count), queue weights (first =
#             highest priority), order inside a queue (fifo when
#             omitted, ps, remaining): the levels capacity-scheduler.xml
#             implements, as replayed at task level (thresholds x the
#             multiplier the task-level deploy tuner chose)
#   coshh     the COSHH scheduler as tuned on the tuning window: k, the
#             re-classification tolerance, the grid searched, and per
#             classification the classes (centre in scaled space, radius,
#             alpha, mu), lambda, allocation[type][class] (fraction of the
#             type's machines) and suggested classes per type
#   h_pfsp    H-PFSP (seed 002), tuned at task level on the tuning window:
#             fair_limit (tasks scheduled per stage in the fair phase) and
#             threshold (map progress at which a job's stage is its reduce
#             stage); the online estimator, its report interval and eq. 18's
#             prior task time per stage (seconds)
#   bounds    offline bounds on the validation window: SRPT (lower bound on
#             mean response), FSP (protective schedule), PS
#   deploy    the run's verdict (deploy or keep your current scheduler), the
#             file it concerns and the interval of its paired difference
#             against the current scheduler at task level
#
# Load it back with: schedplan simulate --config schedplan.yaml
`

// MarshalBundle renders b as documented YAML.
func MarshalBundle(b *Bundle) ([]byte, error) {
	b = b.withThresholdUnit()
	var buf bytes.Buffer
	fmt.Fprintf(&buf, bundleHeader, BundleVersion)
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(b); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// ParseBundle reads a schedplan.yaml; name is used in messages.
func ParseBundle(data []byte, name string) (*Bundle, error) {
	var b Bundle
	if _, err := yamlstrict.Decode(data, name, "configuration bundle", &b); err != nil {
		return nil, err
	}
	if b.Version != BundleVersion {
		return nil, fmt.Errorf("%s: bundle version %d is not supported (this schedplan reads version %d)", name, b.Version, BundleVersion)
	}
	if l := b.LASMQ; l != nil {
		if l.K < 1 || len(l.Weights) != l.K || len(l.Thresholds) != l.K-1 {
			return nil, fmt.Errorf("%s: las_mq: k = %d needs %d thresholds and %d weights, got %d and %d", name, l.K, l.K-1, l.K, len(l.Thresholds), len(l.Weights))
		}
		if _, err := sim.ParseLevelOrder(string(l.Order)); err != nil {
			return nil, fmt.Errorf("%s: las_mq: %w", name, err)
		}
	}
	if err := b.Check(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &b, nil
}

// BundleLASMQSpec returns the policy specification of the tuned LAS_MQ of
// the bundle at path (simulate --config).
func BundleLASMQSpec(path string) (string, error) {
	b, err := LoadBundle(path)
	if err != nil {
		return "", experiment.ParamErr("config", path, "%v", err)
	}
	if b.LASMQ == nil {
		return "", experiment.ParamErr("config", path, "the bundle has no las_mq section")
	}
	return b.LASMQ.Spec(), nil
}

// LoadBundle reads a schedplan.yaml file.
func LoadBundle(path string) (*Bundle, error) {
	data, err := configfile.Read(path)
	if err != nil {
		return nil, err
	}
	return ParseBundle(data, path)
}
