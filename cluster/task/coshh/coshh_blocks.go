package coshh

import (
	"cmp"
	"math/rand/v2"
	"slices"

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
// Cost: a job's blocks are drawn once, O(maps · replicas · log); HasLocal
// is O(log maps) (a count of the job's pending blocks per machine); Take
// scans the job's pending blocks when one is local, O(pending maps ·
// replicas), else O(log maps); FirstLocal (LocalIndex) is O(log jobs)
// amortised.
type COSHHBlocks struct {
	Candidates func(dst []int, job int) []int

	jobs     []task.Job
	machines int
	rng      *rand.Rand
	pending  [][][]int // job → pending blocks → replica machines
	drawn    []bool
	cand     []int
	pool     []int // placeReplicas' buffer
	// local counts each job's pending blocks with a replica on a
	// machine, by machine; byNode holds, per machine, a min-heap of the
	// jobs drawn with a pending block there (an entry whose count fell
	// to 0 is dropped when it reaches the top).
	local  [][]nodeCount
	byNode [][]int32
}

// nodeCount is a machine and a count of blocks.
type nodeCount struct{ node, n int32 }

// NewCOSHHBlocks returns the block placement of jobs on a cluster of
// machines, drawn from seed.
func NewCOSHHBlocks(jobs []task.Job, machines int, seed uint64, candidates func(dst []int, job int) []int) *COSHHBlocks {
	return &COSHHBlocks{Candidates: candidates, jobs: jobs, machines: machines,
		rng: rand.New(rand.NewPCG(seed, 0xB10C5)), pending: make([][][]int, len(jobs)), drawn: make([]bool, len(jobs)),
		local: make([][]nodeCount, len(jobs)), byNode: make([][]int32, machines)}
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
	// One array holds the job's replicas, each block's slice capped at its
	// own (at most COSHHReplication machines).
	r := min(COSHHReplication, b.machines)
	flat := make([]int, 0, n*r)
	b.pending[j] = make([][]int, n)
	for k := range b.pending[j] {
		from := len(flat)
		flat = placeReplicas(flat, &b.pool, b.cand, b.machines, COSHHReplication, b.rng)
		b.pending[j][k] = flat[from:len(flat):len(flat)]
	}
	b.count(j)
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
	return b.localCount(job, node) > 0
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
	k := -1
	if b.localCount(job, node) > 0 {
		k = b.localIndex(job, node)
	}
	local := k >= 0
	if !local {
		k = 0
	}
	b.uncount(job, p[k])
	p[k] = p[len(p)-1]
	b.pending[job] = p[:len(p)-1]
	if len(p) == 1 {
		b.local[job] = nil
	}
	return local
}

// Placed implements LocalIndex: whether job's blocks are placed (the
// first HasLocal or Take of a job places them).
func (b *COSHHBlocks) Placed(job int) bool { return b.drawn[job] }

// FirstLocal implements LocalIndex: the least placed job with a pending
// block that has a replica on node, or −1.
func (b *COSHHBlocks) FirstLocal(node int) int {
	h := b.byNode[node]
	for len(h) > 0 && b.localCount(int(h[0]), node) == 0 {
		h = popInt32(h)
	}
	b.byNode[node] = h
	if len(h) == 0 {
		return -1
	}
	return int(h[0])
}

// count indexes job j's freshly drawn blocks by machine.
func (b *COSHHBlocks) count(j int) {
	var lc []nodeCount
	for _, reps := range b.pending[j] {
		for i, m := range reps {
			if !COSHHLocal(reps[:i], m) {
				lc = append(lc, nodeCount{int32(m), 1})
			}
		}
	}
	slices.SortFunc(lc, func(x, y nodeCount) int { return cmp.Compare(x.node, y.node) })
	out := lc[:0]
	for _, c := range lc {
		if len(out) > 0 && out[len(out)-1].node == c.node {
			out[len(out)-1].n++
			continue
		}
		out = append(out, c)
		b.byNode[c.node] = pushInt32(b.byNode[c.node], int32(j))
	}
	b.local[j] = out
}

// uncount takes a block of job j (replica machines reps) out of the
// counts.
func (b *COSHHBlocks) uncount(j int, reps []int) {
	for i, m := range reps {
		if COSHHLocal(reps[:i], m) {
			continue
		}
		if k, ok := b.find(j, m); ok {
			b.local[j][k].n--
		}
	}
}

func (b *COSHHBlocks) find(j, node int) (int, bool) {
	return slices.BinarySearchFunc(b.local[j], int32(node), func(c nodeCount, n int32) int { return cmp.Compare(c.node, n) })
}

// localCount is the number of job j's pending blocks with a replica on
// node.
func (b *COSHHBlocks) localCount(j, node int) int32 {
	if k, ok := b.find(j, node); ok {
		return b.local[j][k].n
	}
	return 0
}

// pushInt32 adds x to the min-heap h.
func pushInt32(h []int32, x int32) []int32 {
	h = append(h, x)
	for i := len(h) - 1; i > 0; {
		p := (i - 1) / 2
		if h[p] <= h[i] {
			break
		}
		h[p], h[i] = h[i], h[p]
		i = p
	}
	return h
}

// popInt32 removes the minimum of the min-heap h.
func popInt32(h []int32) []int32 {
	n := len(h) - 1
	h[0] = h[n]
	h = h[:n]
	for i := 0; ; {
		c := 2*i + 1
		if c >= n {
			break
		}
		if c+1 < n && h[c+1] < h[c] {
			c++
		}
		if h[i] <= h[c] {
			break
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
	return h
}
