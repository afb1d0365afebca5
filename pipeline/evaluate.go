package pipeline

import (
	"fmt"
	"sync"

	"github.com/schedplan/schedplan/cluster/sim"
)

// simBuffers are one goroutine's reusable simulation buffers.
type simBuffers struct {
	sim  sim.Simulator
	m    sim.Metrics
	done []float64
	resp []float64
}

// Evaluator simulates policies on a fixed set of jobs; it is safe for
// concurrent use and reuses buffers across calls.
type Evaluator struct {
	Jobs     []sim.Job
	Capacity float64
	// Deadlines, when set, are the jobs' PS completion times; summaries then
	// count missed deadlines.
	Deadlines []float64
	// Blocks > 1 cuts the jobs into that many contiguous blocks of equal job
	// count, each simulated from an empty system; the summary is over all
	// jobs. Tuning uses this so that the backlog of one huge job does not
	// decide the whole window's score (see TuneOptions.Blocks).
	Blocks int
	pool   sync.Pool
}

// NewEvaluator returns an evaluator for jobs on a server of the given capacity.
func NewEvaluator(jobs []sim.Job, capacity float64) *Evaluator {
	return &Evaluator{Jobs: jobs, Capacity: capacity}
}

// Run simulates policy p and summarises the run.
func (e *Evaluator) Run(p sim.Policy) (sim.Summary, error) { return e.RunRows(p, "", 0, nil) }

// RunRows simulates policy p, summarises the run and, when rows is not nil,
// appends its per-job results to rows under the given policy name and run.
func (e *Evaluator) RunRows(p sim.Policy, name string, run int, rows *JobRows) (sim.Summary, error) {
	b, _ := e.pool.Get().(*simBuffers)
	if b == nil {
		b = &simBuffers{}
	}
	defer e.pool.Put(b)
	n, blocks := len(e.Jobs), max(1, e.Blocks)
	if blocks == 1 || n < 2*blocks {
		r, err := b.sim.Run(e.Jobs, e.Capacity, p)
		if err != nil {
			return sim.Summary{}, fmt.Errorf("%s: %w", p.Name(), err)
		}
		s := b.m.ComputeRun(e.Jobs, r, e.Capacity, e.Deadlines)
		if rows != nil {
			rows.Append(name, run, e.Jobs, r.Completion, &b.m, e.Deadlines)
		}
		return s, nil
	}
	b.done, b.resp = b.done[:0], b.resp[:0]
	for k := 0; k < blocks; k++ {
		r, err := b.sim.Run(e.Jobs[k*n/blocks:(k+1)*n/blocks], e.Capacity, p)
		if err != nil {
			return sim.Summary{}, fmt.Errorf("%s: %w", p.Name(), err)
		}
		b.done = append(b.done, r.Completion...)
		b.resp = append(b.resp, r.Response...)
	}
	s := b.m.ComputeRun(e.Jobs, &sim.Result{Completion: b.done, Response: b.resp}, e.Capacity, e.Deadlines)
	if rows != nil {
		rows.Append(name, run, e.Jobs, b.done, &b.m, e.Deadlines)
	}
	return s, nil
}

// RunSpec parses a policy specification and runs it.
func (e *Evaluator) RunSpec(spec string) (sim.Summary, error) {
	p, err := sim.ParsePolicy(spec)
	if err != nil {
		return sim.Summary{}, err
	}
	return e.Run(p)
}

// ScoreOf reduces a summary to what tuning compares.
func ScoreOf(s sim.Summary) Score {
	return Score{Mean: s.Response.Mean, P99: s.Response.P99, P99Slowdown: s.Slowdown.P99}
}

// LASMQ is the tuning objective: it simulates LAS_MQ with the parameters.
func (e *Evaluator) LASMQ(c LASMQParams) (Score, error) {
	p := c.Policy()
	if err := p.Validate(); err != nil {
		return Score{}, err
	}
	s, err := e.Run(p)
	return ScoreOf(s), err
}

// Scaled returns an evaluator over the same jobs with every size (and
// estimate) multiplied by f: the offered load times f.
func (e *Evaluator) Scaled(f float64) *Evaluator {
	jobs := make([]sim.Job, len(e.Jobs))
	for i, j := range e.Jobs {
		j.Size *= f
		j.Estimate *= f
		jobs[i] = j
	}
	return NewEvaluator(jobs, e.Capacity)
}
