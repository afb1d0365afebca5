package prism

// PRISM's per-heartbeat phase selection (seed 004 §5.2, Alg. 1).

import "math"

// A PrismJob is a job as PRISM sees it at a heartbeat of machine n. The
// caller (the task-level core's PRISM policy) fills it from its state;
// PrismSelector.Select does not modify it.
type PrismJob struct {
	// Weight is the job's DRF weight (≤ 0 counts as 1; FairnessDRFSpread).
	Weight float64
	// Owed is e_j of FairnessDeficit and FairnessTasks (prism_utility.go):
	// the share of the cluster, in machines, the job is owed by its next
	// heartbeat — its Hadoop 0.20.2 deficit over the heartbeat plus its
	// fair share minus what it holds (its dominant share of Usage, or its
	// running tasks over TaskSlots). Unused under FairnessDRFSpread.
	Owed float64
	// Usage is what the job's running phases demand, on all machines.
	Usage Vector
	// Running[s] is N_current of eq. 5: the job's tasks of side s started
	// and not finished (running or paused); Remaining[s] is N_remaining:
	// its tasks of side s not finished (pending, running or paused).
	Running, Remaining [NumSides]int
	// OnMachine: the job has tasks on n (Alg. 1 line 6); a job with paused
	// tasks on n counts as on n whatever this says.
	OnMachine bool
	// Starts are the groups of tasks the job can start on n, each with the
	// demand of its leading phase on n (Phase.DemandOn with the group's
	// locality). Data-local groups come first whatever the order here
	// (§5.2: "phase of a new non-data local task is provided only if there
	// is no data local task that can be scheduled on the machine"); among
	// them, the order here.
	Starts []PrismStart
	// Paused are the job's tasks on n that finished a phase and wait for
	// permission to start their next one (§4, Fig. 5 steps 3–5).
	Paused []PrismPaused
}

// A PrismStart is a group of Count identical tasks a job can start on the
// machine: their side, whether they are data-local there, and the demand
// of their leading phase (map or shuffle) on the machine.
type PrismStart struct {
	Side   Side
	Local  bool
	Count  int
	Demand Vector
}

// A PrismPaused is a task paused between phases: the demand of its next
// phase on the machine and how long it has waited, s (T_wait of eq. 6).
type PrismPaused struct {
	Demand Vector
	Wait   float64
}

// A PrismPick is one phase Select schedules: job Job starts a task of
// Jobs[Job].Starts[Start] (Paused = −1), or resumes Jobs[Job].Paused[Paused]
// (Start = −1). Utility = Fairness + α·Perf at the moment of the pick.
type PrismPick struct {
	Job, Start, Paused      int
	Utility, Fairness, Perf float64
	Demand                  Vector
}

// A PrismSelector runs Alg. 1. It keeps scratch buffers between calls, so
// one selector serves one goroutine; the zero value is not usable, use
// NewPrismSelector.
type PrismSelector struct {
	cfg  PrismConfig
	base Vector // shareBase of the current call

	shares   []float64     // s_j, updated as picks add usage
	owed     []float64     // FairnessDeficit: e_j, updated as picks add usage
	overlay  []int32       // job → index in touched, or −1
	touched  []jobDelta    // jobs changed by this heartbeat's picks
	startOff []int32       // job → offset of its Starts in left
	left     []int32       // tasks left to start in every start group
	taken    [][]bool      // touched job → which Paused are taken
	seen     []uint32      // job → last epoch (pick round) it was valued
	epoch    uint32        // the current pick round
	onMach   []int32       // jobs with tasks on the machine
	heap     []topKItem    // top K by deficit (a max-heap on share)
	picks    []PrismPick   // the result
	ext      shareExtremes // extremes of shares for U_fairness in O(1)
	stats    PrismStats
	rejected bool      // a fitting candidate had utility ≤ 0 in this round
	blocked  PrismPick // this round's best paused phase that does not fit (Hold)
	held     PrismPick // the paused phase this call holds capacity for (Job −1: none)
}

// PrismStats counts what Select did and why it rejected candidates, over
// every call since the selector was made (diagnostics; cheap counters).
type PrismStats struct {
	Calls, Picks int
	// Valued: candidate phases valued (a candidate re-valued in a later
	// pick round of the same call counts again).
	Valued int
	// NoFitPaused, NoFitStart: paused phases, and jobs' start groups,
	// that did not fit the free capacity.
	NoFitPaused, NoFitStart int
	// NotPositivePaused, NotPositiveStart: fitting candidates whose utility
	// was ≤ 0.
	NotPositivePaused, NotPositiveStart int
	// StopNotPositive: calls that ended with a fitting candidate rejected
	// only for its utility; StopMaxPicks: calls ended by MaxPicks.
	StopNotPositive, StopMaxPicks int
	// Held: calls that held capacity for a paused phase (PrismConfig.Hold).
	Held int
}

// Stats returns the counters.
func (s *PrismSelector) Stats() PrismStats { return s.stats }

type jobDelta struct {
	usage   Vector
	running [NumSides]int
	here    bool // the job has tasks on the machine
}

type topKItem struct {
	share   float64
	started int32 // the job's tasks started and not finished (running or paused)
	j       int32
}

// NewPrismSelector returns a selector with the given parameters.
func NewPrismSelector(cfg PrismConfig) (*PrismSelector, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	return &PrismSelector{cfg: cfg}, nil
}

// Config returns the selector's parameters.
func (s *PrismSelector) Config() PrismConfig { return s.cfg }

// Select is Alg. 1 for one heartbeat of a machine with free capacity free
// (its capacity minus the demands of the phases running on it). Shares are
// dominant shares against shareBase (see the comment on eq. 3). It
// repeats: gather the candidate phases — from every job with tasks on the
// machine, its paused phases and its next leading phase; from the K jobs
// with the highest deficit (topK) that can start a task (ties: the
// fewest tasks started and not finished, then the lower index), their
// next leading phase; a job's next leading phase is that of its first
// data-local group whose demand fits, else of its first group that fits —
// drop those that do not fit the free capacity, value the others by eq. 1,
// and schedule the best if its utility is positive (ties: the lower job
// index, then paused phases in order, then the start), charging its demand
// to the machine and to its job (usage, share, running tasks); it stops
// when no candidate fits with a positive utility or after MaxPicks picks.
//
// The picks are in scheduling order; the sum of their demands never
// exceeds free. The returned slice is reused by the next call.
//
// Cost per pick: O(J log K) for the top K of J jobs (a bounded heap, no
// sort) plus O(J) to refresh the share extremes and O(C) over the
// candidates; the Starts groups are copied once per call.
func (s *PrismSelector) Select(free, shareBase Vector, jobs []PrismJob) []PrismPick {
	s.reset(jobs, shareBase)
	s.stats.Calls++
	for {
		if s.cfg.MaxPicks > 0 && len(s.picks) >= s.cfg.MaxPicks {
			s.stats.StopMaxPicks++
			break
		}
		s.rejected = false
		s.blocked = PrismPick{Job: -1}
		if !s.deficit() {
			s.ext.scan(s.shares)
		}
		if s.epoch++; s.epoch == 0 { // wrapped: forget old rounds
			clear(s.seen)
			s.epoch = 1
		}
		best := PrismPick{Job: -1}
		consider := func(j int) {
			if s.seen[j] == s.epoch {
				return
			}
			s.seen[j] = s.epoch
			s.bestOf(j, &jobs[j], free, &best)
		}
		for _, j := range s.onMach {
			consider(int(j))
		}
		s.topK(jobs)
		for _, h := range s.heap {
			consider(int(h.j))
		}
		if s.blocked.Job >= 0 && (best.Job < 0 || s.blocked.Utility > best.Utility) {
			// PrismConfig.Hold: the best candidate is a paused phase that
			// does not fit; what is picked after it must leave its demand.
			s.held = s.blocked
			s.stats.Held++
			free = free.Sub(s.held.Demand)
			for r := range free {
				free[r] = max(free[r], 0)
			}
			continue
		}
		if best.Job < 0 {
			if s.rejected {
				s.stats.StopNotPositive++
			}
			break
		}
		s.stats.Picks++
		s.apply(best, jobs)
		free = free.Sub(best.Demand)
	}
	return s.picks
}

// reset prepares the scratch state for a heartbeat.
func (s *PrismSelector) reset(jobs []PrismJob, base Vector) {
	n := len(jobs)
	s.base = base
	s.shares = prismResize(s.shares, n)
	s.owed = prismResize(s.owed, n)
	s.overlay = prismResize(s.overlay, n)
	s.startOff = prismResize(s.startOff, n+1)
	if len(s.seen) != n {
		s.seen = make([]uint32, n)
		s.epoch = 0
	}
	s.held = PrismPick{Job: -1}
	s.touched = s.touched[:0]
	s.onMach = s.onMach[:0]
	s.picks = s.picks[:0]
	s.left = s.left[:0]
	for j := range jobs {
		job := &jobs[j]
		s.shares[j] = s.share(job.Usage, job.Weight)
		s.owed[j] = job.Owed
		s.overlay[j] = -1
		s.startOff[j] = int32(len(s.left))
		for _, g := range job.Starts {
			s.left = append(s.left, int32(min(max(g.Count, 0), math.MaxInt32)))
		}
		if job.OnMachine || len(job.Paused) > 0 {
			s.onMach = append(s.onMach, int32(j))
		}
	}
	s.startOff[n] = int32(len(s.left))
}

// deficit reports whether the fairness term is a deficit (FairnessDeficit
// or FairnessTasks).
func (s *PrismSelector) deficit() bool {
	return s.cfg.Fairness == FairnessDeficit || s.cfg.Fairness == FairnessTasks
}

// taskDelta is the share a phase adds under FairnessTasks: a task's for a
// leading phase (a new task), nothing for a paused task's next phase (its
// task is counted already).
func (s *PrismSelector) taskDelta(start bool) float64 {
	if !start {
		return 0
	}
	return 1 / float64(s.cfg.TaskSlots)
}

// share is a job's fairness share of usage: its dominant share against
// the call's shareBase, divided by its weight under FairnessDRFSpread
// (under FairnessDeficit the weight is in the fair share, PrismJob.Owed).
func (s *PrismSelector) share(usage Vector, weight float64) float64 {
	if s.deficit() {
		weight = 1
	}
	return WeightedShare(usage, s.base, weight)
}

// fairness is U_fairness (eq. 2) of adding demand to job j, whose usage in
// this heartbeat is usage; start: the phase leads a new task.
func (s *PrismSelector) fairness(j int, weight float64, usage, demand Vector, start bool) float64 {
	if s.cfg.Fairness == FairnessTasks {
		return DeficitFairness(s.owed[j], s.taskDelta(start))
	}
	after := s.share(usage.Add(demand), weight)
	if s.deficit() {
		return DeficitFairness(s.owed[j], after-s.shares[j])
	}
	return s.ext.fairness(j, after)
}

func prismResize[T any](x []T, n int) []T {
	if cap(x) < n {
		return make([]T, n)
	}
	return x[:n]
}

// delta returns job j's changes in this heartbeat, or nil.
func (s *PrismSelector) delta(j int) *jobDelta {
	if k := s.overlay[j]; k >= 0 {
		return &s.touched[k]
	}
	return nil
}

// canStart reports whether job j has a task left to start.
func (s *PrismSelector) canStart(j int) bool {
	for _, c := range s.left[s.startOff[j]:s.startOff[j+1]] {
		if c > 0 {
			return true
		}
	}
	return false
}

// topK fills s.heap with the K jobs with the highest deficit that can
// start a task — under FairnessDeficit the highest e_j (PrismJob.Owed),
// under FairnessDRFSpread the lowest weighted dominant share — ties to
// fewer tasks started, then the lower index: a max-heap of size K,
// O(J log K).
func (s *PrismSelector) topK(jobs []PrismJob) {
	k := s.cfg.K
	h := s.heap[:0]
	for j := range jobs {
		if k == 0 || !s.canStart(j) {
			continue
		}
		key := s.shares[j]
		if s.deficit() {
			key = -s.owed[j] // the highest deficit first
		}
		it := topKItem{key, int32(s.started(j, &jobs[j])), int32(j)}
		if len(h) < k {
			h = append(h, it)
			topKUp(h, len(h)-1)
		} else if it.before(h[0]) {
			h[0] = it
			topKDown(h, 0)
		}
	}
	s.heap = h
}

// before orders by share, then by tasks started and not finished, then by
// job index: the heap's root is the job the top K would drop first.
//
// Why the second key: a paused task holds nothing (it is not in the job's
// usage), so a job whose started tasks all wait between phases has share
// 0, the same as a job that has started nothing. Ranking such ties by
// index alone kept the oldest jobs in the top K for as long as they had
// tasks to start — each new task of theirs paused in turn — and a job that
// arrived later was never a candidate: on the embedded trace (5,894 jobs,
// 6 machines) jobs waited 2,239 s on average for their first task. Hadoop's
// Fair Scheduler, whose deficit PRISM's fairness follows (seed 004 §6),
// counts a task as running whatever its phase; among jobs of equal share
// the one with fewer live tasks is the further below its share.
func (a topKItem) before(b topKItem) bool {
	if a.share != b.share {
		return a.share < b.share
	}
	if a.started != b.started {
		return a.started < b.started
	}
	return a.j < b.j
}

// started returns job j's tasks started and not finished, this heartbeat's
// picks included.
func (s *PrismSelector) started(j int, job *PrismJob) int {
	r := job.Running
	if d := s.delta(j); d != nil {
		r = d.running
	}
	return min(r[MapSide]+r[ReduceSide], math.MaxInt32)
}

func topKUp(h []topKItem, i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !h[p].before(h[i]) {
			return
		}
		h[p], h[i] = h[i], h[p]
		i = p
	}
}

func topKDown(h []topKItem, i int) {
	for {
		c := 2*i + 1
		if c >= len(h) {
			return
		}
		if r := c + 1; r < len(h) && h[c].before(h[r]) {
			c = r
		}
		if !h[i].before(h[c]) {
			return
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}

// bestOf values job j's candidate phases and keeps the best in best.
func (s *PrismSelector) bestOf(j int, job *PrismJob, free Vector, best *PrismPick) {
	d := s.delta(j)
	usage, running := job.Usage, job.Running
	var taken []bool
	if d != nil {
		usage, running = d.usage, d.running
		taken = s.taken[s.overlay[j]]
	}
	consider := func(demand Vector, start, paused int, perf float64) {
		s.stats.Valued++
		if !demand.Fits(free) {
			if paused >= 0 {
				s.stats.NoFitPaused++
				s.block(j, job, usage, demand, paused, perf)
			} else {
				s.stats.NoFitStart++
			}
			return
		}
		fair := s.fairness(j, job.Weight, usage, demand, start >= 0)
		u := fair + s.cfg.Alpha*perf
		if !(u > 0) {
			s.rejected = true
			if paused >= 0 {
				s.stats.NotPositivePaused++
			} else {
				s.stats.NotPositiveStart++
			}
			return
		}
		if best.Job < 0 || s.better(u, j, best) {
			*best = PrismPick{Job: j, Start: start, Paused: paused, Utility: u, Fairness: fair, Perf: perf, Demand: demand}
		}
	}
	for p, x := range job.Paused {
		if (taken == nil || !taken[p]) && (s.held.Job != j || s.held.Paused != p) {
			consider(x.Demand, -1, p, Urgency(x.Wait, s.cfg.A))
		}
	}
	if g := s.nextStart(j, job, free); g >= 0 {
		side := job.Starts[g].Side
		consider(job.Starts[g].Demand, g, -1, LeadingPhaseUtility(job.Remaining[side], running[side], s.cfg.Epsilon))
	} else if s.canStart(j) {
		s.stats.Valued++
		s.stats.NoFitStart++
	}
}

// better reports whether utility u of job j beats pick best (Job ≥ 0):
// a higher utility; on a tie the lower job index, except under
// FairnessDeficit, where utilities within rounding tie and the job owed
// more goes first — U_fairness is flat (δ) for every job owed at least δ,
// and greedy by fairness the Fair Scheduler serves the largest deficit.
func (s *PrismSelector) better(u float64, j int, best *PrismPick) bool {
	if !s.deficit() {
		return u > best.Utility || (u == best.Utility && j < best.Job)
	}
	if tol := 1e-9 * (1 + math.Abs(best.Utility)); math.Abs(u-best.Utility) > tol {
		return u > best.Utility
	}
	if oj, ob := s.owed[j], s.owed[best.Job]; oj != ob {
		return oj > ob
	}
	return j < best.Job
}

// block notes paused phase p of job j, which does not fit, as the round's
// best such phase if Hold is on, nothing is held yet and its utility is
// positive and the highest so far.
func (s *PrismSelector) block(j int, job *PrismJob, usage, demand Vector, p int, perf float64) {
	if !s.cfg.Hold || s.held.Job >= 0 {
		return
	}
	fair := s.fairness(j, job.Weight, usage, demand, false)
	u := fair + s.cfg.Alpha*perf
	if u > 0 && (s.blocked.Job < 0 || u > s.blocked.Utility || (u == s.blocked.Utility && j < s.blocked.Job)) {
		s.blocked = PrismPick{Job: j, Start: -1, Paused: p, Utility: u, Fairness: fair, Perf: perf, Demand: demand}
	}
}

// nextStart returns the group of job j's next leading phase: its first
// data-local group with a task left whose demand fits, else its first such
// group; −1 if none.
func (s *PrismSelector) nextStart(j int, job *PrismJob, free Vector) int {
	left := s.left[s.startOff[j]:s.startOff[j+1]]
	other := -1
	for g := range job.Starts {
		if left[g] <= 0 || !job.Starts[g].Demand.Fits(free) {
			continue
		}
		if job.Starts[g].Local {
			return g
		}
		if other < 0 {
			other = g
		}
	}
	return other
}

// apply charges pick p to the machine's picks and to its job.
func (s *PrismSelector) apply(p PrismPick, jobs []PrismJob) {
	j := p.Job
	job := &jobs[j]
	k := s.overlay[j]
	if k < 0 {
		k = int32(len(s.touched))
		s.touched = append(s.touched, jobDelta{usage: job.Usage, running: job.Running, here: job.OnMachine || len(job.Paused) > 0})
		s.overlay[j] = k
		if int(k) == len(s.taken) {
			s.taken = append(s.taken, nil)
		}
		s.taken[k] = prismResize(s.taken[k], len(job.Paused))
		clear(s.taken[k])
	}
	d := &s.touched[k]
	d.usage = d.usage.Add(p.Demand)
	if p.Start >= 0 {
		d.running[job.Starts[p.Start].Side]++
		s.left[int(s.startOff[j])+p.Start]--
		if !d.here {
			d.here = true
			s.onMach = append(s.onMach, int32(j))
		}
	} else {
		s.taken[k][p.Paused] = true
	}
	if s.cfg.Fairness == FairnessTasks {
		s.owed[j] -= s.taskDelta(p.Start >= 0)
	} else {
		after := s.share(d.usage, job.Weight)
		s.owed[j] -= after - s.shares[j]
		s.shares[j] = after
	}
	s.picks = append(s.picks, p)
}
