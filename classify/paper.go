package classify

import (
	"fmt"
	"strings"

	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/estimate"
	"gonum.org/v1/gonum/mat"
)

// FeatureSet chooses the features a classification uses when
// Options.Features is nil.
type FeatureSet string

// Feature sets.
const (
	// DefaultFeatureSet is PaperFeatures for COSHH and SizeFeatures for
	// Classify and ClassifyRows.
	DefaultFeatureSet FeatureSet = ""
	// PaperFeatures are seed 003 §3.1's: the job's priority, its mean
	// execution rate on every machine type (exec_rate@<type>, jobs/s of one
	// machine, 0 where it cannot run) and its user's arrival rate
	// (arrival_rate, jobs/s).
	PaperFeatures FeatureSet = "paper"
	// SizeFeatures are the log's own columns: size, duration, bytes,
	// task-seconds, task counts and priority, each when every job has it
	// (DefaultFeatures).
	SizeFeatures FeatureSet = "size"
)

// ParseFeatureSet parses "paper", "size" or "" / "default".
func ParseFeatureSet(s string) (FeatureSet, error) {
	switch strings.TrimSpace(s) {
	case "", "default":
		return DefaultFeatureSet, nil
	case "paper":
		return PaperFeatures, nil
	case "size":
		return SizeFeatures, nil
	}
	return "", fmt.Errorf("feature set %q: want paper or size", s)
}

// Names of the paper features (see PaperFeatures). FeatPriority is the
// priority column's name: in the paper set it is the user's priority from
// the cluster spec when the spec gives one, else the job's.
const (
	FeatPriority    = data.ColPriority
	FeatArrivalRate = "arrival_rate"
	FeatRatePrefix  = "exec_rate@"
)

// PaperFeatureNames returns the paper features for machine types: priority,
// exec_rate@<type> per type, arrival_rate.
func PaperFeatureNames(types []MachineType) []string {
	names := []string{FeatPriority}
	for _, m := range types {
		names = append(names, FeatRatePrefix+m.Name)
	}
	return append(names, FeatArrivalRate)
}

// Model is what a classification's μ and paper features are computed from.
type Model struct {
	Types []MachineType `json:"types"`
	// BlockBytes is the slice of a map task when the log does not count
	// map tasks (see Demand).
	BlockBytes float64 `json:"block_bytes"`
	// TimeErrors describes the errors on the execution-time estimates
	// (estimate.ErrorModel.String(): "exact" when none); Errors and
	// ErrorSeed are the model and seed they were drawn with, so that the
	// features of jobs to predict carry the same kind of error.
	TimeErrors string              `json:"time_errors"`
	Errors     estimate.ErrorModel `json:"errors"`
	ErrorSeed  uint64              `json:"error_seed"`
	// UserArrival is each user's arrival rate (jobs/s over the log's
	// span) and UserPriority each user's priority in the cluster spec
	// (users the spec gives a priority): the paper features' inputs.
	UserArrival  map[string]float64 `json:"user_arrival_per_s,omitempty"`
	UserPriority map[string]float64 `json:"user_priority,omitempty"`
}

// fillUsers fills m's user arrival rates (over rows, all when nil) and
// priorities.
func (m *Model) fillUsers(j *data.Jobs, rows []int, spec *cluster.Spec, span float64) {
	names, index := j.Users()
	count := make([]int, len(names))
	forRows(j.Len(), rows, func(i int) { count[index[i]]++ })
	m.UserArrival, m.UserPriority = map[string]float64{}, map[string]float64{}
	for u, name := range names {
		if count[u] == 0 {
			continue
		}
		m.UserArrival[name] = 0
		if span > 0 {
			m.UserArrival[name] = float64(count[u]) / span
		}
		if p := spec.User(name).Priority; p > 0 {
			m.UserPriority[name] = float64(p)
		}
	}
}

// paperMatrix builds the paper features of the given rows (all when nil)
// from the execution times jt, into data (n × len(PaperFeatureNames)
// values, row-major; nil: a matrix of its own).
func (m *Model) paperMatrix(j *data.Jobs, rows []int, jt *jobTimes, data []float64) *mat.Dense {
	n := j.Len()
	if rows != nil {
		n = len(rows)
	}
	nt := len(m.Types)
	d := nt + 2
	x := mat.NewDense(n, d, data)
	raw := x.RawMatrix()
	forRowBlocks(n, func(lo, hi int) {
		times := jt.rows()
		for k := lo; k < hi; k++ {
			i := k
			if rows != nil {
				i = rows[k]
			}
			row := raw.Data[k*raw.Stride : k*raw.Stride+d]
			ti, _ := times.row(i)
			user := j.UserAt(i)
			if p, ok := m.UserPriority[user]; ok {
				row[0] = p
			} else {
				row[0] = float64(j.PriorityAt(i))
			}
			for t := 0; t < nt; t++ {
				row[1+t] = rate(ti[t])
			}
			row[d-1] = m.UserArrival[user]
		}
	})
	return x
}

// estimatedTimesOf returns the model's execution-time estimates of j's
// jobs with the classification's errors (drawn again with its seed: on the
// table it classified, the very estimates it used), readable at rows
// (increasing; nil: all).
func (m *Model) estimatedTimesOf(j *data.Jobs, sizes []float64, floor float64, rows []int) *jobTimes {
	upTo := j.Len()
	if len(rows) > 0 {
		upTo = rows[len(rows)-1] + 1
	}
	return newJobTimes(j, sizes, 1, m.Types, floor, m.BlockBytes, m.Errors, m.ErrorSeed, upTo)
}

// isRateFeature reports whether a feature is a rate (jobs/s): an
// exec_rate@<type> or arrival_rate feature.
func isRateFeature(name string) bool {
	return name == FeatArrivalRate || strings.HasPrefix(name, FeatRatePrefix)
}
