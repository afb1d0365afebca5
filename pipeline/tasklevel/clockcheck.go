package tasklevel

import (
	"math"

	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/pipeline/experiment"
)

// MaxClock bounds, in seconds, the time a fluid simulation of a log can
// reach: the last arrival plus all the work at the capacity. Past it
// (about 32 million years) the simulation clock's float64 steps exceed
// 0.1 s, and at an infinite clock (a capacity such as 1e-320) the policies
// cannot finish their jobs.
const MaxClock = 1e15

// CheckClock refuses a capacity at which the jobs' work cannot be timed:
// the last arrival plus the total work at capacity beyond MaxClock. The
// error names --capacity when the capacity was given (from "given"), else
// --cluster, whose spec gave it.
func CheckClock(jobs []sim.Job, capacity float64, from string) error {
	if len(jobs) == 0 {
		return nil
	}
	work := 0.0
	for _, j := range jobs {
		work += j.Size
	}
	return checkClock(jobs[len(jobs)-1].Arrival, work, capacity, from)
}

// CheckClockColumns is CheckClock of the jobs whose arrivals and sizes are
// the columns given (equal lengths: the log's submit times and sizes),
// without the jobs: the same sums, the same verdict.
func CheckClockColumns(arrival, size []float64, capacity float64, from string) error {
	if len(size) == 0 {
		return nil
	}
	work := 0.0
	for _, s := range size {
		work += s
	}
	return checkClock(arrival[len(size)-1], work, capacity, from)
}

// checkClock is CheckClock's verdict on the last arrival and the work.
func checkClock(last, work, capacity float64, from string) error {
	end := last + work/capacity
	if end <= MaxClock {
		return nil
	}
	param, value := "cluster", any(from)
	if from == "given" {
		param, value = "capacity", capacity
	}
	if math.IsInf(end, 0) || math.IsNaN(end) {
		return experiment.ParamErr(param, value, "at capacity %v the log's work (%.4g) takes an infinite time; give a larger capacity", capacity, work)
	}
	return experiment.ParamErr(param, value, "at capacity %v the log's work (%.4g) takes %.3g s, past the %.0e s a simulation can time; give a larger capacity", capacity, work, end, MaxClock)
}
