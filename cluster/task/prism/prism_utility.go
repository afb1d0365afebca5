package prism

// PRISM's utility of scheduling a phase i on a machine n (seed 004 §5.2,
// eq. 1–6), with the readings this package takes where the extracted text
// is garbled or silent:
//
//	U(i,n)      = U_fairness(i,n) + α·U_perf(i,n)                       (1)
//	U_fairness  = U_before − U_after                                      (2)
//	U_before    = the fairness measure of job j before i (see below)      (3)
//	U_perf      = U_leading (i leads its task) or U_subsequent            (4)
//	U_leading   = N_rem / max(N_cur, ε) − N_rem / (N_cur + 1)             (5)
//	U_subsequent = p(T_wait) = a·T_wait²                                  (6)
//
//   - Eq. 2–3, the default (FairnessTasks): Hadoop 0.20.2's own measure
//     (§6: "we adopt the same fairness metric as in the Hadoop fair
//     scheduler 0.20.2"), which counts tasks: FairScheduler.updateDeficits
//     integrates (fair share − running tasks) with fair shares in slots.
//     PRISM has no typed slots, so one count: e_j = D_j/H + f_j − s_j as
//     below with s_j the job's started, unfinished tasks (a task paused
//     between phases is still a running task to the JobTracker) over
//     TaskSlots, the tasks per machine of the fair share (seed 004's
//     Fair Scheduler's 8 map + 6 reduce slots, Figs. 6–7), so shares stay
//     in machines. A leading phase adds δ = 1/TaskSlots, a paused phase 0
//     (its task is counted): only its urgency (eq. 6) resumes it, so α = 0
//     leaves paused tasks waiting. Per side as 0.20.2 keeps them (a map
//     and a reduce deficit over 8 and 6 slots) Fig. 15 fails (PUMA 100:
//     646 s against YARN's 640 s); with the one count Figs. 15–20 hold as
//     docs/FIDELITY.md says, Fig. 20's "slightly higher unfairness than
//     the Fair Scheduler" at 6 of 8 batch sizes. Not counting paused
//     tasks (a resumed phase then adds δ) made PRISM fairer than Fair
//     again (Gridmix 50: 0.359 against 0.667) while its gain grew to 28%.
//   - Eq. 2–3 in resources (FairnessDeficit, the default before): eq. 2
//     speaks of "the fairness measures of the job before and after
//     scheduling i", and §6 adopts
//     "the same fairness metric as in the Hadoop fair scheduler 0.20.2";
//     eq. 3's DRF spread is printed only as an example ("if DRF is used").
//     Job j's measure is its 0.20.2 deficit (FairScheduler.updateDeficits:
//     ∫ (fair share − what the job holds) dt) carried to its next
//     heartbeat: e_j = D_j/H + f_j − s_j, where f_j is its fair share
//     (weight over the weights of the unfinished jobs, of the cluster), s_j
//     what it holds now (dominant share of its running phases' demand) and
//     H the heartbeat; both in units of one machine's capacity, as eq. 3's
//     C_r. U_before = |e_j|, U_after = |e_j − δ_i| with δ_i the share
//     phase i adds: positive for a job below its share, as §5.2 says ("when
//     a job is severely below its fair share, scheduling any phase with
//     non-zero resource requirement will only improve its fairness"),
//     negative for one above it. Alg. 1 line 11's "top k jobs with highest
//     deficit" ranks by e_j. With α → 0 the scheduler is greedy by this
//     fairness (§5.2), and a job whose first phase would overshoot its
//     share waits until its deficit has grown (it does, D_j grows while it
//     holds nothing), so α = 0 is not stuck.
//   - Eq. 3 as printed (FairnessDRFSpread, the earlier reading): the text
//     reads min_r(c_jr/C_r), but it cites DRF [11], whose measure is the
//     dominant share max_r(c_jr/C_r); s_j is job j's DRF dominant share
//     divided by its weight, U_before the spread max_j s_j − min_j s_j and
//     U_after the same with job j's usage increased by i's demand; the top
//     k are the lowest s_j. C_r: one machine's capacity, as the text says.
//     On an idle cluster no first phase narrows the spread, so α = 0
//     starts nothing.
//   - Eq. 5: N_rem is the number of the job's tasks of the task's type
//     (map or reduce) not yet finished (pending, running or paused) and
//     N_cur the number started and not finished. ε keeps the first term
//     finite at N_cur = 0; the paper gives no value. Default ε = 0.99:
//     a job's first task of a type is then worth ≈ 0.01·N_rem, its second
//     N_rem/2, and a paused phase's urgency 0.1·T² passes both within
//     about 10 s (N_rem ≈ 16–30), as §5.1–5.2 ask ("without introducing stragglers"; a task
//     paused for long "becomes urgent"). The earlier ε = 0.01 made a first
//     task worth 99·N_rem (≈ 1,600–2,400 on the mixes), which a paused
//     phase's urgency beats only after 125–155 s.
//   - Eq. 6: the text prints p(T) = a·p(T)², which is circular; §5.2 says a
//     quadratic in the wait with a = 0.1: p(T) = a·T², T in seconds.
//   - α: the paper gives no value. Default α = 0.02, from the scales of the
//     two terms: U_fairness is at most the share a phase adds (≈ 0.1–0.35
//     of a machine for the mixes' phases), α·U_perf of a job's second task
//     α·N_rem/2 with N_rem ≈ 8–30, so α ≈ 0.02 puts them on the same order
//     and neither term only breaks the other's ties. Measured on seed
//     004's mixes (TestSeed004Fig15; mean job running time at each batch
//     size): PRISM is below Fair and YARN at every size for α = 0.02 and
//     0.05 (under FairnessDeficit; under FairnessTasks 0.05 holds too),
//     not for α = 0.01 (Gridmix 100 jobs: 998 s, YARN 998 s), 0.1
//     (PUMA 150: 956 s, YARN 933 s), 0.2 or 1 (PUMA 100: 728 s, YARN 640
//     s): the performance term then starts every job's tasks in parallel
//     and the batch's jobs finish together. The α was picked knowing
//     this; the narrow range is the honest statement.

import (
	"fmt"
	"math"
)

// PrismConfig holds PRISM's parameters.
type PrismConfig struct {
	// Alpha is α of eq. 1, the weight of U_perf against U_fairness.
	Alpha float64
	// Epsilon is ε of eq. 5, in (0, 1).
	Epsilon float64
	// A is a of the urgency p(T) = a·T² of eq. 6, per s².
	A float64
	// K is the number of jobs with the highest deficit (the lowest weighted
	// dominant shares) whose leading phases are candidates besides the jobs
	// with tasks on the machine (Alg. 1 line 11). The paper uses 20.
	K int
	// MaxPicks bounds the phases started per heartbeat (0: no bound other
	// than the machine's free capacity).
	MaxPicks int
	// Hold: when the candidate of the highest utility is a paused phase
	// that does not fit the free capacity, the heartbeat holds its demand
	// for it — the phases picked after it must fit in what is left besides
	// it — instead of dropping it (Alg. 1 lines 20–22 as printed). One
	// phase is held per heartbeat; it starts at a later heartbeat once the
	// phases running there have freed enough. Without it, eq. 6's urgency
	// cannot help a paused phase larger than every gap the leading phases
	// leave (Fig. 8's merge, 34 MB/s of disk, behind maps of 11 MB/s): on
	// the embedded trace PRISM's tasks waited 574 s on average between
	// phases. It is YARN's reservation of a node for a container that does
	// not fit. Off by default: the held capacity idles until a later
	// heartbeat, and in seed 004's setting under the earlier reading
	// (LegacyPrismConfig, Seed004ThrashDiskNet) both mixes' mean job
	// running times got worse (PUMA 674 → 765 s, Gridmix 512 → 558 s);
	// with phase ends out of band too (PhaseOutOfBand) PUMA's got better
	// (805 → 710 s), Gridmix's worse (480 → 504 s).
	Hold bool
	// Fairness is the fairness measure of eq. 2–3 and Alg. 1's top k (see
	// the file comment): FairnessTasks (DefaultPrismConfig's),
	// FairnessDeficit or FairnessDRFSpread ("" reads as it: eq. 3 as
	// printed).
	Fairness PrismFairness
	// TaskSlots is FairnessTasks's tasks per machine: a job's fair share
	// in tasks is its weight's share of TaskSlots × machines (≥ 1;
	// DefaultTaskSlots).
	TaskSlots int
}

// DefaultTaskSlots is PrismConfig.TaskSlots by default: seed 004's Fair
// Scheduler's map and reduce slots per machine (Seed004MapSlots +
// Seed004ReduceSlots), the slots Hadoop 0.20.2's fairness counts tasks
// against.
const DefaultTaskSlots = Seed004MapSlots + Seed004ReduceSlots

// PrismFairness names a reading of PRISM's fairness term (eq. 2–3).
type PrismFairness string

// The readings of eq. 2–3 (file comment).
const (
	// FairnessTasks: the job's Hadoop 0.20.2 deficit in tasks carried to
	// its next heartbeat; top k by it.
	FairnessTasks PrismFairness = "tasks"
	// FairnessDeficit: the same deficit in dominant resource shares.
	FairnessDeficit PrismFairness = "deficit"
	// FairnessDRFSpread: the spread of weighted DRF dominant shares over
	// all jobs; top k by the lowest share (the earlier reading).
	FairnessDRFSpread PrismFairness = "drf"
)

// DefaultPrismConfig returns α = 0.02, ε = 0.99, a = 0.1, k = 20 and the
// deficit fairness in tasks over DefaultTaskSlots (seed 004 §5.2 gives a
// and k; α and ε are ours, ε read from §5.1–5.2's text: see the file
// comment).
func DefaultPrismConfig() PrismConfig {
	return PrismConfig{Alpha: 0.02, Epsilon: 0.99, A: 0.1, K: 20, Fairness: FairnessTasks, TaskSlots: DefaultTaskSlots}
}

// LegacyPrismConfig is the earlier reading: α = 1, ε = 0.01 and eq. 3's
// spread of DRF shares (FairnessDRFSpread), kept for comparison
// ("prism:alpha=1,epsilon=0.01,fairness=drf").
func LegacyPrismConfig() PrismConfig {
	c := DefaultPrismConfig()
	c.Alpha, c.Epsilon, c.Fairness = 1, 0.01, FairnessDRFSpread
	return c
}

// Check reports a parameter out of range, naming it.
func (c PrismConfig) Check() error {
	finite := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	switch {
	case !finite(c.Alpha) || c.Alpha < 0:
		return fmt.Errorf("prism: alpha must be a finite number ≥ 0, got %v", c.Alpha)
	case !(c.Epsilon > 0 && c.Epsilon < 1):
		return fmt.Errorf("prism: epsilon must be in (0, 1), got %v", c.Epsilon)
	case !finite(c.A) || c.A < 0:
		return fmt.Errorf("prism: a must be a finite number ≥ 0 per s², got %v", c.A)
	case c.K < 0:
		return fmt.Errorf("prism: k must be ≥ 0, got %d", c.K)
	case c.MaxPicks < 0:
		return fmt.Errorf("prism: max picks must be ≥ 0, got %d", c.MaxPicks)
	case c.Fairness != "" && c.Fairness != FairnessTasks && c.Fairness != FairnessDeficit && c.Fairness != FairnessDRFSpread:
		return fmt.Errorf("prism: fairness must be %q, %q or %q, got %q", FairnessTasks, FairnessDeficit, FairnessDRFSpread, c.Fairness)
	case c.Fairness == FairnessTasks && c.TaskSlots < 1:
		return fmt.Errorf("prism: slots (tasks per machine of the fair share) must be ≥ 1, got %d", c.TaskSlots)
	}
	return nil
}

// LeadingPhaseUtility is eq. 5: the gain in parallelism when a job with
// remaining unfinished tasks of a type, running of them started, starts one
// more: remaining/max(running, ε) − remaining/(running + 1).
func LeadingPhaseUtility(remaining, running int, eps float64) float64 {
	nr, nc := float64(remaining), float64(running)
	return nr/max(nc, eps) - nr/(nc+1)
}

// Urgency is eq. 6 with the quadratic p(T) = a·T² of seed 004 §5.2: the
// utility of resuming a task paused for wait seconds. A non-positive or
// NaN wait has urgency 0.
func Urgency(wait, a float64) float64 {
	if !(wait > 0) {
		return 0
	}
	return a * wait * wait
}

// WeightedShare is job j's fairness measure s_j: its DRF dominant share of
// usage against shareBase divided by its weight (a weight ≤ 0 counts as 1).
func WeightedShare(usage, shareBase Vector, weight float64) float64 {
	if !(weight > 0) {
		weight = 1
	}
	return usage.DominantShare(shareBase) / weight
}

// DeficitFairness is eq. 2 under FairnessDeficit: |owed| − |owed − delta|,
// where owed is the share job j is owed by its next heartbeat (e_j of the
// file comment) and delta the share phase i adds.
func DeficitFairness(owed, delta float64) float64 {
	return math.Abs(owed) - math.Abs(owed-delta)
}

// ShareSpread is eq. 3's U_before: max_j s_j − min_j s_j (0 for fewer than
// two jobs).
func ShareSpread(shares []float64) float64 {
	if len(shares) == 0 {
		return 0
	}
	lo, hi := shares[0], shares[0]
	for _, s := range shares[1:] {
		lo, hi = min(lo, s), max(hi, s)
	}
	return hi - lo
}

// FairnessUtility is eq. 2: the spread of the shares minus their spread
// once job j's share becomes after. O(len(shares)); PrismSelector gets the
// same value in O(1) from the two largest and two smallest shares.
func FairnessUtility(shares []float64, j int, after float64) float64 {
	var x shareExtremes
	x.scan(shares)
	return x.fairness(j, after)
}

// shareExtremes keeps the two largest and the two smallest shares with
// their jobs, so that the spread after one job's share changes is O(1).
type shareExtremes struct {
	hi1, hi2, lo1, lo2 float64
	hiJ, loJ           int
}

func (x *shareExtremes) scan(shares []float64) {
	*x = shareExtremes{hi1: math.Inf(-1), hi2: math.Inf(-1), lo1: math.Inf(1), lo2: math.Inf(1), hiJ: -1, loJ: -1}
	for j, s := range shares {
		if s > x.hi1 {
			x.hi2, x.hi1, x.hiJ = x.hi1, s, j
		} else if s > x.hi2 {
			x.hi2 = s
		}
		if s < x.lo1 {
			x.lo2, x.lo1, x.loJ = x.lo1, s, j
		} else if s < x.lo2 {
			x.lo2 = s
		}
	}
}

// fairness returns U_before − U_after when job j's share becomes after.
func (x *shareExtremes) fairness(j int, after float64) float64 {
	if x.hiJ < 0 {
		return 0
	}
	before := x.hi1 - x.lo1
	hi, lo := x.hi1, x.lo1
	if j == x.hiJ {
		hi = x.hi2
	}
	if j == x.loJ {
		lo = x.lo2
	}
	hi, lo = max(hi, after), min(lo, after)
	return before - (hi - lo)
}
