package sim

import (
	"fmt"
	"math"
)

// estimateColumn is a loan's estimate column: during RunEstimates it
// holds the run's, which est reads in place of Job.Estimate; otherwise it
// is nil and est reads the job's own.
type estimateColumn struct{ estCol []float64 }

// est is job j's estimate in this run.
func (e *estimateColumn) est(jobs []Job, j int) float64 {
	if e.estCol != nil {
		return e.estCol[j]
	}
	return jobs[j].Estimate
}

// RunEstimates is Run with est[j] as job j's estimate in place of
// jobs[j].Estimate. Runs with estimation errors draw new estimates per
// run: one column of them (8 B a job) stands for a copy of the jobs with
// the estimates replaced (48 B a job), which each parallel worker would
// otherwise hold. est must hold one finite non-negative value per job. A
// policy that takes no loan (one of another package) runs on such a copy,
// made for this run alone.
func (s *Simulator) RunEstimates(jobs []Job, est []float64, c float64, p Policy) (*Result, error) {
	if len(est) != len(jobs) {
		return nil, fmt.Errorf("%d estimates for %d jobs", len(est), len(jobs))
	}
	for i, e := range est {
		if !(e >= 0) || math.IsInf(e, 0) {
			return nil, fmt.Errorf("job %d: estimate %v is not a finite non-negative number", i+1, e)
		}
	}
	if _, ok := p.(borrower); !ok {
		cp := append([]Job(nil), jobs...)
		for i := range cp {
			cp[i].Estimate = est[i]
		}
		return s.run(cp, nil, c, p)
	}
	return s.run(jobs, est, c, p)
}
