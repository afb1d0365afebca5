package pipeline

import (
	"fmt"

	"github.com/schedplan/schedplan/pipeline/bundle"
)

// routeBundle fills the routing fields of bd from the log: every user's
// class (AssignUserClasses), share of the offered work and peak concurrent
// applications (PeakApplications over a fluid replay of the fluid tuner's
// LAS_MQ at the run's capacity — the same for every deploy candidate, so
// that the file the tune-deploy stage replays is the file emit writes — or
// as the log recorded them from submit to finish when that is more), and
// the log's queues. The shares and peaks come from the tuning window only:
// the tuned fair-scheduler.xml's weights and maxRunningApps are knobs, and
// the verdict replays them on the validation window, which must not have
// set them.
func (p *pipelineRun) routeBundle(bd *bundle.Bundle) error {
	in := p.in
	names, userOfRow := in.Jobs.Users()
	sec := p.cs.Secondary
	if sec.Result != nil {
		rows, assign := sec.Labels()
		if err := bundle.AssignUserClasses(bd, names, userOfRow, rows, assign); err != nil {
			return err
		}
	}
	n := p.routedJobs()
	sizes := in.Sizes[:n] // the simulation jobs' sizes
	work := make([]float64, len(names))
	total := 0.0
	for i, s := range sizes {
		work[userOfRow[i]] += s
		total += s
	}
	peak := make([]int, len(names))
	if bd.LASMQ != nil && n > 0 && in.Capacity > 0 {
		fluid, err := p.fluidPeaks(n, userOfRow, len(names))
		if err != nil {
			return err
		}
		copy(peak, fluid)
	}
	for k, v := range bundle.ObservedPeaks(in.Jobs, n, userOfRow, len(names)) {
		peak[k] = max(peak[k], v)
	}
	byName := make(map[string]int, len(names))
	for k, name := range names {
		byName[name] = k
	}
	for i := range bd.Users {
		if k, ok := byName[bd.Users[i].Name]; ok {
			if total > 0 {
				bd.Users[i].Work = work[k] / total
			}
			bd.Users[i].PeakApps = peak[k]
		}
	}
	bd.Queues = bundle.LogQueues(in.Jobs, sizes, total)
	return nil
}

// routedJobs is how many of the log's first jobs the routing counts: the
// tuning window's.
func (p *pipelineRun) routedJobs() int {
	in := p.in
	return min(in.NumSimJobs(), in.Jobs.Len(), in.Split.TuneJobs)
}

// lateQueues is bundle.LateQueues of the routed jobs (0 before a log is
// read: the stage table's names).
func (p *pipelineRun) lateQueues() int {
	if p.in.Jobs == nil {
		return 0
	}
	return bundle.LateQueues(p.in.Jobs, p.routedJobs())
}

// fluidPeaks returns every user's peak concurrent applications in a fluid
// replay of the fluid tuner's LAS_MQ over the log's first n jobs at the
// run's capacity. The replay runs once for that LAS_MQ: the bundle is
// rebuilt (tune-deploy, its verdict, emit) with the same one. It runs a
// chunk of whole busy periods at a time (peakReplay), each swept for its
// peaks before the next is built, so that its memory is a chunk's, not
// the tuning window's (48 B a job and the simulation's state: 0.6 GB at
// 10 M jobs, beside the validation window the later stages keep).
func (p *pipelineRun) fluidPeaks(n int, userOfRow []int32, users int) ([]int, error) {
	best := p.tr.Best
	if c := p.peaks; c.peak != nil && c.of == best {
		return c.peak, nil
	}
	arrival := p.in.Jobs.Submit // the applications' arrivals
	peak := make([]int, users)
	err := newPeakReplay(p.in, n, best.Policy, peakReplayChunkJobs).run(func(lo int, finish []float64) {
		hi := lo + len(finish)
		bundle.MaxPeakApplications(peak, arrival[lo:hi], finish, userOfRow[lo:hi])
	})
	if err != nil {
		return nil, fmt.Errorf("peak applications per user: %w", err)
	}
	p.peaks = fluidPeakCache{of: best, peak: peak}
	return peak, nil
}
