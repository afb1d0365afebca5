package tasklevel

import (
	"fmt"
	"io"
	"sync"
	"time"
)

// TaskRunStats is what the task-level simulator did for one policy over
// all the resolution's jobs, summed over its runs: events (arrivals, task
// ends, heartbeats), task starts, and the wall-clock time of the
// simulations (the engine's run, not the metrics).
type TaskRunStats struct {
	Policy          string  `json:"policy"`
	Runs            int     `json:"runs"`
	Events          int64   `json:"events"`
	Tasks           int64   `json:"tasks"`
	WallSeconds     float64 `json:"wall_seconds"`
	EventsPerSecond float64 `json:"events_per_second"`
}

// specRecord keeps what runs over all a resolution's jobs measured, by
// policy specification; safe for concurrent use.
type specRecord[T any] struct {
	mu sync.Mutex
	by map[string]T
}

// of returns the records of the specifications, in their order (those
// never recorded left out).
func (r *specRecord[T]) of(specs []string) []T {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []T
	for _, s := range specs {
		if m, ok := r.by[s]; ok {
			out = append(out, m)
		}
	}
	return out
}

// taskStatsRecord keeps the TaskRunStats of the runs over all the
// resolution's jobs, by specification.
type taskStatsRecord = specRecord[TaskRunStats]

// statsRec returns the resolution's record, creating it.
func (r *TaskLevel) statsRec() *taskStatsRecord { return recordOf(&r.stats) }

var recordsMu sync.Mutex // guards the creation of a TaskLevel's records

// recordOf returns *p, creating it first if nil.
func recordOf[T any](p **specRecord[T]) *specRecord[T] {
	recordsMu.Lock()
	defer recordsMu.Unlock()
	if *p == nil {
		*p = &specRecord[T]{by: map[string]T{}}
	}
	return *p
}

// recordRun adds a run of spec over all the resolution's jobs.
func (r *TaskLevel) recordRun(spec string, events, tasks int, wall time.Duration) {
	rec := r.statsRec()
	rec.mu.Lock()
	defer rec.mu.Unlock()
	s := rec.by[spec]
	s.Policy = spec
	s.Runs++
	s.Events += int64(events)
	s.Tasks += int64(tasks)
	s.WallSeconds += wall.Seconds()
	if s.WallSeconds > 0 {
		s.EventsPerSecond = float64(s.Events) / s.WallSeconds
	}
	rec.by[spec] = s
}

// TaskRunStatsOf returns the recorded stats of the specifications, in
// their order (those never run over all the jobs left out).
func (r *TaskLevel) TaskRunStatsOf(specs []string) []TaskRunStats {
	return r.statsRec().of(specs)
}

// writeTaskRunStats prints one line per policy: events, tasks, wall time
// and events per second of its task-level simulations.
func writeTaskRunStats(out io.Writer, stats []TaskRunStats) {
	for _, s := range stats {
		fmt.Fprintf(out, "task-level engine, %s: %d events, %d tasks in %.3f s over %d run(s): %.3g events/s\n",
			s.Policy, s.Events, s.Tasks, s.WallSeconds, s.Runs, s.EventsPerSecond)
	}
}
