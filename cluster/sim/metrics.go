package sim

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat"
)

// Quantiles of a sample (linear interpolation between order statistics).
type Quantiles struct {
	Mean float64 `json:"mean"`
	Min  float64 `json:"min"`
	P50  float64 `json:"p50"`
	P90  float64 `json:"p90"`
	P99  float64 `json:"p99"`
	Max  float64 `json:"max"`
}

// QuantilesOf summarises x (which it does not modify). The zero value is
// returned for an empty sample.
func QuantilesOf(x []float64) Quantiles { return quantilesOf(x) }

// QuantilesOfSorted is QuantilesOf for a sample already in ascending order
// (it does not copy it).
func QuantilesOfSorted(s []float64) Quantiles { return quantilesSorted(s) }

// quantilesSorted summarises an ascending sample.
func quantilesSorted(s []float64) Quantiles {
	if len(s) == 0 {
		return Quantiles{}
	}
	return Quantiles{
		Mean: stat.Mean(s, nil),
		Min:  s[0],
		P50:  stat.Quantile(0.5, stat.LinInterp, s, nil),
		P90:  stat.Quantile(0.9, stat.LinInterp, s, nil),
		P99:  stat.Quantile(0.99, stat.LinInterp, s, nil),
		Max:  s[len(s)-1],
	}
}

// Summary aggregates one run.
type Summary struct {
	Jobs     int       `json:"jobs"`
	Response Quantiles `json:"response"`
	// Slowdown is response / (size / capacity) over the jobs of positive
	// size (over the times alone and floor of Metrics.Alone when set:
	// task level).
	// A zero-size job has no meaningful slowdown (it needs no time
	// alone on the cluster, and under FIFO it can still wait): its
	// per-job slowdown is NaN and it is left out of these aggregates;
	// ZeroSize counts such jobs.
	Slowdown Quantiles `json:"slowdown"`
	ZeroSize int       `json:"zero_size_jobs"`
	// Makespan is the last completion minus the first arrival.
	Makespan float64 `json:"makespan"`
	// Utilisation is Σ sizes / (capacity × makespan).
	Utilisation float64 `json:"utilisation"`
	// Missed counts the jobs that completed after their PS completion time
	// (the protective deadline), when deadlines were given; MaxLate is the
	// largest such delay.
	Missed      int     `json:"missed_deadlines"`
	MissedShare float64 `json:"missed_share"`
	MaxLate     float64 `json:"max_lateness"`
}

// MeanSummary averages summaries field by field (counts are rounded to the
// nearest integer; shares are averaged exactly).
func MeanSummary(ss []Summary) Summary {
	var m Summary
	if len(ss) == 0 {
		return m
	}
	k := 1 / float64(len(ss))
	addQ := func(dst *Quantiles, q Quantiles) {
		dst.Mean += k * q.Mean
		dst.Min += k * q.Min
		dst.P50 += k * q.P50
		dst.P90 += k * q.P90
		dst.P99 += k * q.P99
		dst.Max += k * q.Max
	}
	var jobs, zero, missed float64
	for _, s := range ss {
		jobs += k * float64(s.Jobs)
		zero += k * float64(s.ZeroSize)
		missed += k * float64(s.Missed)
		addQ(&m.Response, s.Response)
		addQ(&m.Slowdown, s.Slowdown)
		m.Makespan += k * s.Makespan
		m.Utilisation += k * s.Utilisation
		m.MissedShare += k * s.MissedShare
		m.MaxLate += k * s.MaxLate
	}
	m.Jobs, m.ZeroSize, m.Missed = int(math.Round(jobs)), int(math.Round(zero)), int(math.Round(missed))
	return m
}

// DeadlineTol is the relative tolerance of the deadline check: a job that
// arrives at a misses its PS deadline d when it completes more than
// DeadlineTol·(d − a) after d, plus four units in the last place of d (the
// resolution of absolute times: 2.4e-7 s near the Unix epoch).
const DeadlineTol = 1e-9

// Metrics computes per-job metrics and their summary from a run. Buffers
// are reused between calls; the slices of a Metrics are overwritten by its
// next Compute. After ComputeRun and PerJobRun, Response is the run's
// Result.Response itself (not a copy: 8 B a job less per worker), valid
// until the Simulator's next run; no caller may modify it.
type Metrics struct {
	// Alone is the one input among the outputs: what the slowdowns are
	// over, one time alone per job of the next Compute (and a floor).
	// The zero value, Size ÷ capacity, is the fluid server's; the task
	// level sets its own (task.FluidAlone). Compute reads it and leaves
	// it as it is, for the next call.
	Alone    Alone
	Response []float64
	Slowdown []float64 // NaN for zero-size jobs
	Missed   []bool    // nil without deadlines
	finite   []float64 // the slowdowns that are not NaN, summarised
	// resp is Compute's own buffer of responses (Response when they are
	// completion − arrival).
	resp []float64
}

// Compute fills m from jobs, their completion times, the capacity and,
// when deadlines is not nil, every job's PS completion time. Responses are
// completion − arrival; with a Simulator's Result use ComputeRun, whose
// responses keep full resolution at epoch times.
func (m *Metrics) Compute(jobs []Job, completion []float64, c float64, deadlines []float64) Summary {
	return m.compute(jobs, completion, nil, c, deadlines, true, true)
}

// ComputeRun is Compute for a run's result: the responses are r.Response,
// computed on the run's clock (exact to the simulation's tolerance whatever
// the absolute time).
func (m *Metrics) ComputeRun(jobs []Job, r *Result, c float64, deadlines []float64) Summary {
	return m.compute(jobs, r.Completion, r.Response, c, deadlines, true, true)
}

// PerJobRun is ComputeRun for callers that pool the per-job metrics
// themselves (the tuner's scorer): it fills Response, Slowdown and Missed
// and returns a summary without the response and slowdown quantiles,
// which cost more than the rest together.
func (m *Metrics) PerJobRun(jobs []Job, r *Result, c float64, deadlines []float64) Summary {
	return m.compute(jobs, r.Completion, r.Response, c, deadlines, true, false)
}

// SummaryRun is ComputeRun's summary alone, bit for bit, for a caller
// that reads no per-job metrics and no more of r: it keeps no buffer of
// its own (ComputeRun keeps 25 B a job: the slowdowns, missed flags and a
// copy of the slowdowns that are not NaN), summarising r's slices where
// they are — it overwrites r.Completion with the slowdowns —, so r must
// be a Simulator's Result, whose next run overwrites it. Response, Slowdown and Missed
// are left nil, and the buffers an earlier call left are dropped.
func (m *Metrics) SummaryRun(jobs []Job, r *Result, c float64, deadlines []float64) Summary {
	return m.compute(jobs, r.Completion, r.Response, c, deadlines, false, true)
}

// compute is Compute with responses given (nil: completion − arrival);
// perJob says whether to keep the slowdowns and missed deadlines per job
// (else Slowdown and Missed are nil), quantiles whether to summarise the
// responses and slowdowns.
func (m *Metrics) compute(jobs []Job, completion, response []float64, c float64, deadlines []float64, perJob, quantiles bool) Summary {
	n := len(jobs)
	if t := m.Alone.Times; t != nil && len(t) != n {
		// A stale Alone (another run's) would divide by other jobs' times.
		panic(fmt.Sprintf("sim: Metrics.Alone holds %d times alone for %d jobs", len(t), n))
	}
	if response != nil {
		m.Response = response[:n]
	} else {
		m.resp = resizeF(m.resp, n)
		m.Response = m.resp
	}
	s := Summary{Jobs: n}
	switch {
	case !perJob:
		m.Slowdown, m.Missed = nil, nil
	case deadlines != nil:
		m.Slowdown = resizeF(m.Slowdown, n)
		if cap(m.Missed) < n {
			m.Missed = make([]bool, n)
		}
		m.Missed = m.Missed[:n]
	default:
		m.Slowdown, m.Missed = resizeF(m.Slowdown, n), nil
	}
	if n == 0 {
		return s
	}
	work, last := 0.0, math.Inf(-1)
	for i, j := range jobs {
		r := completion[i] - j.Arrival
		if response != nil {
			r = response[i]
		} else {
			m.Response[i] = r
		}
		if !(j.Size > 0) {
			s.ZeroSize++
		}
		if perJob {
			m.Slowdown[i] = m.Alone.Slowdown(i, &j, r, c)
		}
		work += j.Size
		last = max(last, completion[i])
		if deadlines != nil {
			late, missed := MissedDeadline(j.Arrival, completion[i], deadlines[i])
			if perJob {
				m.Missed[i] = missed
			}
			if missed {
				s.Missed++
				s.MaxLate = max(s.MaxLate, late)
			}
		}
	}
	s.MissedShare = float64(s.Missed) / float64(n)
	s.Makespan = last - jobs[0].Arrival
	if s.Makespan > 0 {
		s.Utilisation = work / (c * s.Makespan)
	}
	if !quantiles {
		return s
	}
	if !perJob {
		// SummaryRun: the slowdowns over the completions, read no more,
		// then the responses summarised where they are.
		k := 0
		for i := range jobs {
			if jobs[i].Size > 0 {
				if v := m.Alone.slowdown(i, jobs[i].Size, m.Response[i], c); !math.IsNaN(v) {
					completion[k] = v
					k++
				}
			}
		}
		s.Response = quantilesOf(m.Response)
		s.Slowdown = quantilesOf(completion[:k])
		m.Response, m.finite = nil, nil
		return s
	}
	s.Response = quantilesOf(m.Response)
	m.finite = m.finite[:0]
	for _, v := range m.Slowdown {
		if !math.IsNaN(v) {
			m.finite = append(m.finite, v)
		}
	}
	s.Slowdown = quantilesOf(m.finite)
	return s
}

// MissedDeadline is how late a job that arrived at arrival and completed
// at completion is past its PS deadline d, and whether it missed it (by
// more than DeadlineTol's tolerance) as Metrics.Missed holds it.
func MissedDeadline(arrival, completion, d float64) (late float64, missed bool) {
	late = completion - d
	// 4 ulps of |d|: math.Nextafter(a, +Inf) − a, inline (a is not
	// negative: its successor is the next bit pattern, which gives NaN
	// for +Inf and NaN as Nextafter's does).
	a := math.Abs(d)
	tol := DeadlineTol*max(d-arrival, 0) + 4*(math.Float64frombits(math.Float64bits(a)+1)-a)
	return late, late > tol
}

func resizeF(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}
