package task

// Reference deadlines: a job misses its deadline when it completes later
// than under a reference scheduler on the same jobs (the current one:
// Fair with one pool per user unless the user's own file is given) by more
// than LateSlack of its reference response plus LateGrace. The reference
// policy misses none by construction; no task-level policy can meet fluid
// processor sharing's completion times (seed 002's protective notion),
// since a job arriving at a full cluster waits for a non-preemptible task.
const (
	// LateSlack is the share of its reference response a job may be
	// later by without missing.
	LateSlack = 0.1
	// LateGrace is the absolute lateness, in seconds, a job may have
	// without missing: one default YARN heartbeat (SlowdownFloor).
	LateGrace = SlowdownFloor
)

// ReferenceDeadlines returns every job's deadline from its completion
// time under the reference scheduler: completion + LateSlack·(completion
// − arrival) + LateGrace. A NaN completion (a job the reference left
// unfinished) gives a NaN deadline, which no completion misses.
func ReferenceDeadlines(jobs []Job, completion []float64) []float64 {
	out := make([]float64, len(jobs))
	for i := range jobs {
		c := completion[i]
		out[i] = c + LateSlack*(c-jobs[i].Arrival) + LateGrace
	}
	return out
}
