package inputs

import (
	"runtime"
	"sort"

	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/estimate"
	"github.com/schedplan/schedplan/internal/par"
	"github.com/schedplan/schedplan/internal/radix"
	"gonum.org/v1/gonum/floats"
)

// Workload summarises a job log: what `schedplan describe` prints and the
// report's first table.
type Workload struct {
	Source      string          `json:"source"`
	Jobs        int             `json:"jobs"`
	FirstSubmit float64         `json:"first_submit_s"`
	LastSubmit  float64         `json:"last_submit_s"`
	Span        float64         `json:"span_s"`
	ArrivalRate float64         `json:"arrival_rate_per_s"` // jobs / span (0 when span is 0)
	SizeSource  estimate.Source `json:"size_source"`
	TotalWork   float64         `json:"total_work"`
	Size        sim.Quantiles   `json:"size"`
	ZeroSize    int             `json:"zero_size_jobs"`
	// TopShare is the share of the total work in the largest 1% of jobs
	// (at least one job).
	TopShare float64     `json:"top1pct_work_share"`
	Users    []UserCount `json:"users"`
	// Observed is the observed response and wait distributions, when the
	// log has finish (and start) times: the current scheduler's ground truth.
	Observed *Observed `json:"observed,omitempty"`
	// Log is what the reader of another system's log read and dropped
	// (nil for a jobs table); Tasks the tasks read with the log.
	Log   *data.LogSummary `json:"log,omitempty"`
	Tasks *TasksInfo       `json:"tasks,omitempty"`
	// Columns says what became of a jobs table's columns (nil for another
	// system's log).
	Columns *data.ColumnReport `json:"columns,omitempty"`
	// UserNames says why the emitted fair-scheduler.xml could not carry
	// the log's user names ("" when it can: CheckUserNames).
	UserNames string `json:"user_names_problem,omitempty"`
}

// UserCount is one user's share of the jobs.
type UserCount struct {
	User string `json:"user"`
	Jobs int    `json:"jobs"`
}

// Describe summarises a job log whose sizes have been derived.
func Describe(j *data.Jobs, sizes []float64, src estimate.Source) Workload {
	n := j.Len()
	w := Workload{Source: j.Source, Jobs: n, SizeSource: src}
	if n == 0 {
		return w
	}
	names, idx := j.Users()
	counts := make([]int, len(names))
	for _, u := range idx {
		counts[u]++
	}
	var obs observedAcc
	obs.add(j)
	return describeFrom(w, j.Submit[0], j.Submit[n-1], append([]float64(nil), sizes...), names, counts, &obs)
}

// describeFrom completes w (source, jobs, size source) from the first and
// last submit times, every job's size (sorted in place), the users in order
// of first appearance with their job counts, and the observed times.
func describeFrom(w Workload, first, last float64, sizes []float64, names []string, counts []int, obs *observedAcc) Workload {
	n := len(sizes)
	w.FirstSubmit, w.LastSubmit = first, last
	w.Span = w.LastSubmit - w.FirstSubmit
	if w.Span > 0 {
		w.ArrivalRate = float64(n) / w.Span
	}
	w.TotalWork = floats.Sum(sizes)
	for _, s := range sizes {
		if s == 0 {
			w.ZeroSize++
		}
	}
	workers := runtime.GOMAXPROCS(0)
	radix.Float64sOn(sizes, workers, func(n int, do func(int)) { par.For(n, workers, do) }) // no NaN (FinishWeights): the order slices.Sort gives
	w.Size = sim.QuantilesOfSorted(sizes)
	top := (n + 99) / 100
	if w.TotalWork > 0 {
		largest := make([]float64, top) // largest first, as they are summed
		for k := range largest {
			largest[k] = sizes[n-1-k]
		}
		w.TopShare = floats.Sum(largest) / w.TotalWork
	}
	for k, name := range names {
		w.Users = append(w.Users, UserCount{User: name, Jobs: counts[k]})
	}
	w.UserNames = userNamesProblem(names)
	sort.SliceStable(w.Users, func(a, b int) bool { return w.Users[a].Jobs > w.Users[b].Jobs })
	if o, ok := obs.result(); ok {
		w.Observed = &o
	}
	return w
}
