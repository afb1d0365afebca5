package tuner

import (
	"fmt"

	"github.com/schedplan/schedplan/cluster/sim"
)

// JobSource is a tuning window as the tuner reads it: every job's arrival
// and size as columns (what the busy periods, the chunks and the sample
// are planned from) and the jobs of a range built on demand (what the
// blocks simulate). A long window's jobs (48 B each, 0.34 GB for the 7 M
// of a 10 M-job log) need not be live at once: the tuner holds only its
// blocks, at most its sample and check budgets (TuneOptions.SampleJobs,
// CheckJobs) per chunk.
type JobSource struct {
	// Arrival and Size are every job's sim.Job Arrival and Size, in
	// order; the tuner does not change them.
	Arrival, Size []float64
	// Range returns jobs [lo, hi) (job i's Arrival and Size those of the
	// columns), a fresh slice or a view the tuner does not change. It
	// must be safe for concurrent use.
	Range func(lo, hi int) ([]sim.Job, error)
	// Containers reports whether some job has containers
	// (sim.HasContainers): LAS_MQ's containers order is searched only
	// then.
	Containers bool
}

// SliceSource is the JobSource of jobs held whole: ranges are views.
func SliceSource(jobs []sim.Job) *JobSource {
	s := &JobSource{Arrival: make([]float64, len(jobs)), Size: make([]float64, len(jobs)), Containers: sim.HasContainers(jobs)}
	for i := range jobs {
		s.Arrival[i], s.Size[i] = jobs[i].Arrival, jobs[i].Size
	}
	s.Range = func(lo, hi int) ([]sim.Job, error) { return jobs[lo:hi], nil }
	return s
}

// Len is the number of jobs.
func (s *JobSource) Len() int { return len(s.Size) }

// check reports a source whose columns differ in length.
func (s *JobSource) check() error {
	if len(s.Arrival) != len(s.Size) || s.Range == nil {
		return fmt.Errorf("tuning window: %d arrivals for %d sizes (or no range)", len(s.Arrival), len(s.Size))
	}
	return nil
}
