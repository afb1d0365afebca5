package coshh

import (
	"math/rand/v2"

	"github.com/schedplan/schedplan/cluster/task"
)

// COSHHBlocks places the input blocks of every job's map tasks (its first
// stage, one block per task) when the job is first looked at, each block's
// COSHHReplication replicas drawn with COSHHPlaceReplicas from
// Candidates(job) (nil: every machine, HDFS's default placement), and
// hands them to the map tasks as they start, a block local to the task's
// node first: Hadoop's JobInProgress gives a TaskTracker a node-local
// map task of the job when it has one (obtainNewMapTask looks in the
// node's cache first) whatever the scheduler that chose the job. So a
// job with many pending maps starts local tasks on most nodes, and a
// scheduler that prefers jobs with a local task (FIFO's locality
// preference, Fair's delay scheduling) raises locality further.
//
// Cost: a job's blocks are drawn once, O(maps · replicas); HasLocal and
// Take scan the job's pending blocks, O(pending maps · replicas).
type COSHHBlocks struct {
	Candidates func(dst []int, job int) []int

	jobs     []task.Job
	machines int
	rng      *rand.Rand
	pending  [][][]int // job → pending blocks → replica machines
	drawn    []bool
	cand     []int
}

// NewCOSHHBlocks returns the block placement of jobs on a cluster of
// machines, drawn from seed.
func NewCOSHHBlocks(jobs []task.Job, machines int, seed uint64, candidates func(dst []int, job int) []int) *COSHHBlocks {
	return &COSHHBlocks{Candidates: candidates, jobs: jobs, machines: machines,
		rng: rand.New(rand.NewPCG(seed, 0xB10C5)), pending: make([][][]int, len(jobs)), drawn: make([]bool, len(jobs))}
}

// draw places job j's blocks on first use.
func (b *COSHHBlocks) draw(j int) {
	if b.drawn[j] {
		return
	}
	b.drawn[j] = true
	if len(b.jobs[j].Stages) == 0 {
		return
	}
	n := len(b.jobs[j].Stages[0].Tasks)
	b.candidates(j)
	b.pending[j] = make([][]int, n)
	for k := range b.pending[j] {
		b.pending[j][k] = COSHHPlaceReplicas(nil, b.cand, b.machines, COSHHReplication, b.rng)
	}
}

// candidates sets b.cand to job j's candidate machines (none: every one).
func (b *COSHHBlocks) candidates(j int) {
	b.cand = b.cand[:0]
	if b.Candidates != nil {
		b.cand = b.Candidates(b.cand, j)
	}
}

// HasLocal implements LocalityOracle.
func (b *COSHHBlocks) HasLocal(job, node int) bool {
	if job < 0 || job >= len(b.jobs) {
		return false
	}
	b.draw(job)
	return b.localIndex(job, node) >= 0
}

func (b *COSHHBlocks) localIndex(job, node int) int {
	for k, reps := range b.pending[job] {
		if COSHHLocal(reps, node) {
			return k
		}
	}
	return -1
}

// Take hands a starting map task of job on node a pending block, a local
// one if there is one, and reports whether it is local. A job whose blocks
// are all taken (more starts than map tasks: a preempted task run again)
// gets a fresh block.
func (b *COSHHBlocks) Take(job, node int) bool {
	b.draw(job)
	p := b.pending[job]
	if len(p) == 0 {
		b.candidates(job)
		return COSHHLocal(COSHHPlaceReplicas(nil, b.cand, b.machines, COSHHReplication, b.rng), node)
	}
	k := b.localIndex(job, node)
	local := k >= 0
	if !local {
		k = 0
	}
	p[k] = p[len(p)-1]
	b.pending[job] = p[:len(p)-1]
	return local
}
