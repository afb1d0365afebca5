package inputs

import (
	"fmt"
	"math"
	"strings"

	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/data"
)

// Observed is what a job log says the current scheduler did: the observed
// response times (finish − submit) and queueing delays (start − submit) of
// the jobs whose log has those times (Spark event logs, job history, RM
// summaries, SLS/Rumen, Google 2019, Alibaba 2018, SWF, or a jobs table
// with start_time and finish_time). It is the ground truth a simulation of
// the current scheduler is compared with.
type Observed struct {
	// Jobs is the number of jobs with both a submit and a finish time.
	Jobs     int           `json:"jobs"`
	Response sim.Quantiles `json:"response_s"`
	// Waited is the number of jobs that also have a start time; Wait
	// summarises their start − submit.
	Waited int           `json:"waited_jobs"`
	Wait   sim.Quantiles `json:"wait_s"`
	// Inconsistent counts jobs left out because they finish before they
	// are submitted or start before it (clock skew between log sources).
	Inconsistent int `json:"inconsistent_jobs"`
}

// ObservedOf summarises the observed response times of j; ok is false when
// no job has both a submit and a finish time.
func ObservedOf(j *data.Jobs) (o Observed, ok bool) {
	var acc observedAcc
	acc.add(j)
	return acc.result()
}

// observedAcc gathers the observed responses and waits of a log read in
// parts.
type observedAcc struct {
	resp, wait   []float64
	inconsistent int
}

// add gathers a part's jobs (observedTimes), 64 Ki rows at a time: a log
// without finish times costs nothing, and one with them 16 bytes a job
// observed instead of 32 bytes a job of the log.
func (a *observedAcc) add(j *data.Jobs) {
	if !j.Finish.Present() {
		return // no job has a finish time
	}
	const chunk = 1 << 16
	for lo := 0; lo < j.Len(); lo += chunk {
		r, w, bad := ObservedTimes(j, lo, min(chunk, j.Len()-lo))
		a.inconsistent += bad
		for k := range r {
			if !math.IsNaN(r[k]) {
				a.resp = append(a.resp, r[k])
			}
			if !math.IsNaN(w[k]) {
				a.wait = append(a.wait, w[k])
			}
		}
	}
}

// result is ObservedOf's result for the parts added.
func (a *observedAcc) result() (o Observed, ok bool) {
	o.Inconsistent = a.inconsistent
	if len(a.resp) == 0 {
		return o, false
	}
	o.Jobs, o.Response = len(a.resp), sim.QuantilesOf(a.resp)
	o.Waited, o.Wait = len(a.wait), sim.QuantilesOf(a.wait)
	return o, true
}

// String formats o for `schedplan describe`, one line per distribution,
// every figure in seconds.
func (o Observed) String() string {
	var b strings.Builder
	q := func(name string, n int, x sim.Quantiles) {
		fmt.Fprintf(&b, "%s (%d jobs)\tmean %.4g s, p50 %.4g s, p90 %.4g s, p99 %.4g s, max %.4g s\n", name, n, x.Mean, x.P50, x.P90, x.P99, x.Max)
	}
	q("observed response time", o.Jobs, o.Response)
	if o.Waited > 0 {
		q("observed wait (start − submit)", o.Waited, o.Wait)
	}
	if o.Inconsistent > 0 {
		fmt.Fprintf(&b, "inconsistent times\t%d jobs left out (finish or start before submit)\n", o.Inconsistent)
	}
	return b.String()
}

// ObservedTimes returns the observed response (finish − submit) and wait
// (start − submit) of the jobs-table rows lo, lo+1, …, lo+n−1: NaN where
// the log has no such time, or where the times contradict each other (a
// finish before the submit, a start outside them: clock skew between log
// sources), which inconsistent counts.
func ObservedTimes(j *data.Jobs, lo, n int) (resp, wait []float64, inconsistent int) {
	resp, wait = make([]float64, n), make([]float64, n)
	for k := range resp {
		i := lo + k
		resp[k], wait[k] = math.NaN(), math.NaN()
		f, ok := j.Finish.At(i)
		if !ok {
			continue
		}
		if f < j.Submit[i] {
			inconsistent++
			continue
		}
		resp[k] = f - j.Submit[i]
		if s, ok := j.Start.At(i); ok {
			if s >= j.Submit[i] && s <= f {
				wait[k] = s - j.Submit[i]
			} else {
				inconsistent++
			}
		}
	}
	return resp, wait, inconsistent
}
