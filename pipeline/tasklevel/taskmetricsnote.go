package tasklevel

// TaskMetricsNote says what a task-level slowdown and missed deadline
// are (task.FluidAlone, task.SlowdownFloor, task.ReferenceDeadlines).
const TaskMetricsNote = "slowdown = response / max(time alone, min(response, 1 s)), a bounded slowdown: time alone = the job's response as the only job on the empty cluster under the simulator's rules (heartbeats, exec rates, stage barrier); a missed deadline = a completion later by more than a tenth of its response + 1 s than under the reference scheduler (the current one: fair:pool=user unless --current-config) on the same tasks, which thus misses none"
