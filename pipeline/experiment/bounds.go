package experiment

import (
	"fmt"
	"math"
	"slices"

	"github.com/schedplan/schedplan/cluster/sim"
)

// Bounds are the protective offline bounds of a trace (seed 001/002), all
// with exact sizes on the fluid relaxation of the cluster (one server of the
// cluster's capacity):
//
//   - every job's PS completion time, its protective deadline: a scheduler
//     that finishes no job later than PS treats every job at least as well as
//     fair sharing does;
//   - the SRPT mean response, a lower bound on the mean response of every
//     policy (SRPT is optimal for mean response on one preemptive server);
//   - the FSP mean response, the value of a feasible protective schedule
//     (FSP with exact sizes finishes no job later than PS).
type Bounds struct {
	Jobs      int       `json:"jobs"`
	Capacity  float64   `json:"capacity"`
	PSMean    float64   `json:"ps_mean_response"`
	SRPTMean  float64   `json:"srpt_mean_response"`
	FSPMean   float64   `json:"fsp_mean_response"`
	FSPMissed int       `json:"fsp_missed_deadlines"`
	Deadlines []float64 `json:"-"` // PS completion times, per job
}

// ComputeBounds simulates PS, SRPT and FSP+PS with exact sizes: on jobs
// themselves when every estimate is its size already (a window built from
// the log's columns), else on a copy with exact estimates, so that a
// window is not held twice (0.19 GB each at the 10 M log's 3 M
// validation jobs, beside tune's search).
func ComputeBounds(jobs []sim.Job, capacity float64) (*Bounds, error) {
	exact := jobs
	if slices.ContainsFunc(jobs, func(j sim.Job) bool { return j.Estimate != j.Size }) {
		exact = make([]sim.Job, len(jobs))
		for i, j := range jobs {
			j.Estimate = j.Size
			exact[i] = j
		}
	}
	b := &Bounds{Jobs: len(jobs), Capacity: capacity}
	var s sim.Simulator
	var m sim.Metrics
	run := func(spec string, deadlines []float64) (sim.Summary, []float64, error) {
		p, err := sim.ParsePolicy(spec)
		if err != nil {
			return sim.Summary{}, nil, err
		}
		r, err := s.Run(exact, capacity, p)
		if err != nil {
			return sim.Summary{}, nil, fmt.Errorf("%s: %w", spec, err)
		}
		return m.ComputeRun(exact, r, capacity, deadlines), append([]float64(nil), r.Completion...), nil
	}
	ps, deadlines, err := run("ps", nil)
	if err != nil {
		return nil, err
	}
	b.PSMean, b.Deadlines = ps.Response.Mean, deadlines
	srpt, _, err := run("srpt", nil)
	if err != nil {
		return nil, err
	}
	b.SRPTMean = srpt.Response.Mean
	fsp, _, err := run("fsp+ps", deadlines)
	if err != nil {
		return nil, err
	}
	b.FSPMean, b.FSPMissed = fsp.Response.Mean, fsp.Missed
	return b, nil
}

// Gap returns how far a mean response is above the SRPT lower bound, as a
// fraction (0.25 = 25% above the bound).
func (b *Bounds) Gap(mean float64) float64 {
	if !(b.SRPTMean > 0) {
		return math.NaN()
	}
	return mean/b.SRPTMean - 1
}
