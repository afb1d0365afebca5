package pipeline

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

// taskStatsRecord keeps the TaskRunStats of the runs over all the
// resolution's jobs, by specification.
type taskStatsRecord struct {
	mu sync.Mutex
	by map[string]*TaskRunStats
}

var taskStatsMu sync.Mutex // guards TaskLevel.stats's creation

func (r *TaskLevel) statsRec() *taskStatsRecord {
	taskStatsMu.Lock()
	defer taskStatsMu.Unlock()
	if r.stats == nil {
		r.stats = &taskStatsRecord{by: map[string]*TaskRunStats{}}
	}
	return r.stats
}

// recordRun adds a run of spec over all the resolution's jobs.
func (r *TaskLevel) recordRun(spec string, events, tasks int, wall time.Duration) {
	rec := r.statsRec()
	rec.mu.Lock()
	defer rec.mu.Unlock()
	s := rec.by[spec]
	if s == nil {
		s = &TaskRunStats{Policy: spec}
		rec.by[spec] = s
	}
	s.Runs++
	s.Events += int64(events)
	s.Tasks += int64(tasks)
	s.WallSeconds += wall.Seconds()
	if s.WallSeconds > 0 {
		s.EventsPerSecond = float64(s.Events) / s.WallSeconds
	}
}

// TaskRunStatsOf returns the recorded stats of the specifications, in
// their order (those never run over all the jobs left out).
func (r *TaskLevel) TaskRunStatsOf(specs []string) []TaskRunStats {
	rec := r.statsRec()
	rec.mu.Lock()
	defer rec.mu.Unlock()
	var out []TaskRunStats
	for _, s := range specs {
		if st, ok := rec.by[s]; ok {
			out = append(out, *st)
		}
	}
	return out
}

// writeTaskRunStats prints one line per policy: events, tasks, wall time
// and events per second of its task-level simulations.
func writeTaskRunStats(out io.Writer, stats []TaskRunStats) {
	for _, s := range stats {
		fmt.Fprintf(out, "task-level engine, %s: %d events, %d tasks in %.3f s over %d run(s): %.3g events/s\n",
			s.Policy, s.Events, s.Tasks, s.WallSeconds, s.Runs, s.EventsPerSecond)
	}
}
