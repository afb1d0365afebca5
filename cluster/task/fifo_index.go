package task

// LocalIndex is a LocalityOracle that also indexes the jobs by machine,
// for FIFO's locality preference (coshh.COSHHBlocks implements it). HasLocal
// or the run's own use (coshh.COSHHBlocks.Take) places a job's blocks on first
// use, drawing them in call order, so FIFO asks HasLocal exactly of the
// jobs its scan in queue order would.
type LocalIndex interface {
	LocalityOracle
	// Placed reports whether job's blocks are placed.
	Placed(job int) bool
	// FirstLocal is the least placed job with a pending block that has a
	// replica on node, or −1. Such a job has a ready first-stage task.
	FirstLocal(node int) int
}

// fifoIndex is FIFO's locality index: the queued jobs (those in its
// jobOrder heap, by index: FIFO's order) in three ordered sets, kept at
// each Released and Started of the job.
//
// A queued job x is taken by the scan for node n with f free containers
// when nextTask(x, f) is not its first stage or HasLocal(x, n). The first
// holds when x has no ready first-stage task (noMap), or when its next
// first-stage task needs more than f containers and a ready task of a
// later runnable stage fits (then x is in split: its first-stage task
// needs more containers than one of a later stage); the second, for a
// placed job, when FirstLocal(n) ≤ x, and for a job not placed (unplaced)
// it is known only by placing its blocks.
type fifoIndex struct {
	li                     LocalIndex
	noMap, split, unplaced bitSet
}

func (ix *fifoIndex) reset(li LocalIndex, jobs int) {
	ix.li = li
	ix.noMap.reset(jobs)
	ix.split.reset(jobs)
	ix.unplaced.reset(jobs)
}

// classify puts job j in the sets it belongs to now.
func (ix *fifoIndex) classify(o *jobOrder, j int) {
	if ix.li == nil {
		return
	}
	queued := o.kk.in(int32(j))
	c0 := 0
	if queued {
		c0 = o.s.NextContainers(j, 0)
	}
	setIf(&ix.noMap, j, queued && c0 == 0)
	setIf(&ix.unplaced, j, c0 > 0 && !ix.li.Placed(j))
	setIf(&ix.split, j, c0 > 1 && laterFits(o.s, j, c0-1))
}

// laterFits reports whether a ready task of job j's stages after the
// first, up to its first stage not runnable, needs at most free
// containers (nextTask's walk past the first stage).
func laterFits(s *State, j, free int) bool {
	for st := 1; st < s.Stages(j); st++ {
		k := s.NextContainers(j, st)
		if k == 0 {
			if !s.StageReleased(j, st) {
				return false
			}
			continue
		}
		if k <= free {
			return true
		}
	}
	return false
}

func setIf(b *bitSet, j int, in bool) {
	if in {
		b.add(j)
	} else if b.has(j) {
		b.remove(j)
	}
}

// pick returns the job FIFO's scan in queue order would take for node n,
// or −1 for none, calling HasLocal on the same jobs in the same order
// (so that blocks are drawn as the scan draws them). ok is false when the
// index cannot tell (a FirstLocal job that is not queued, which
// coshh.COSHHBlocks never gives): the caller scans.
func (ix *fifoIndex) pick(o *jobOrder, n Node) (job int, ok bool) {
	c := ix.noMap.next(0)
	below := func(x int) bool { return x >= 0 && (c < 0 || x < c) }
	if x := ix.li.FirstLocal(n.Index); below(x) {
		if !o.kk.in(int32(x)) {
			return -1, false
		}
		c = x
	}
	for x := ix.split.next(0); below(x); x = ix.split.next(x + 1) {
		if st, _ := nextTask(o.s, x, n.Free); st != 0 {
			c = x
			break
		}
	}
	for u := ix.unplaced.next(0); below(u); u = ix.unplaced.next(u + 1) {
		if ix.li.Placed(u) { // placed since (its first task started)
			ix.unplaced.remove(u)
			continue
		}
		if st, _ := nextTask(o.s, u, n.Free); st != 0 {
			c = u
			break
		}
		local := ix.li.HasLocal(u, n.Index)
		ix.unplaced.remove(u)
		if local {
			c = u
			break
		}
	}
	return c, true
}
