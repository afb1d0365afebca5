package tunedeploy

import (
	"github.com/schedplan/schedplan/pipeline/inputs"
	"github.com/schedplan/schedplan/pipeline/validation"
)

// DeployChunkTasks bounds the tasks of one chunk as DeployChunkJobs bounds
// its jobs (tasklevel.BudgetJobs): a chunk's replay costs as many events
// as it has tasks. 4,000 jobs of a log without task counts make about
// 5,000 tasks, so such a log is not cut by it; a log with Hadoop's
// map/reduce counts (15–40 tasks a job) keeps 800–2,000 jobs a chunk,
// never fewer than DeployChunkMinJobs. The intervals stay valid: they are
// paired bootstraps over the chunks' relative differences, and a shorter
// chunk only makes each difference noisier, which widens the interval.
var (
	DeployChunkTasks   = 32_000
	DeployChunkMinJobs = 800
)

// budgetChunks cuts each chunk to its last jobs within DeployChunkTasks
// tasks (at least DeployChunkMinJobs jobs): a chunk keeps its end, so the
// tuning window's last chunk still ends at the window's end.
func budgetChunks(in *inputs.Inputs, chunks []DeployChunk) ([]DeployChunk, error) {
	for i, ch := range chunks {
		n, _, err := validation.WindowBudget(in, in.Tasks, ch.FirstRow-1, ch.Jobs, DeployChunkTasks, DeployChunkMinJobs, true)
		if err != nil {
			return nil, err
		}
		chunks[i] = DeployChunk{FirstRow: ch.FirstRow + ch.Jobs - n, Jobs: n}
	}
	return chunks, nil
}
