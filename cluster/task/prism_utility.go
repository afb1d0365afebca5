package task

// PRISM's utility of scheduling a phase i on a machine n (seed 004 §5.2,
// eq. 1–6), with the readings this package takes where the extracted text
// is garbled or silent:
//
//	U(i,n)      = U_fairness(i,n) + α·U_perf(i,n)                       (1)
//	U_fairness  = U_before − U_after                                      (2)
//	U_before    = max_{j,j'} |s_j − s_j'| = max_j s_j − min_j s_j         (3)
//	U_perf      = U_leading (i leads its task) or U_subsequent            (4)
//	U_leading   = N_rem / max(N_cur, ε) − N_rem / (N_cur + 1)             (5)
//	U_subsequent = p(T_wait) = a·T_wait²                                  (6)
//
//   - Eq. 3: the text reads min_r(c_jr/C_r), but it cites DRF [11], whose
//     measure is the dominant share max_r(c_jr/C_r); we read s_j as job j's
//     DRF dominant share divided by its weight (weighted DRF), so U_before
//     is the spread between the largest and the smallest share and
//     U_fairness > 0 when scheduling i narrows it. U_after is U_before with
//     job j's usage increased by i's demand. C_r: the text says one
//     machine's capacity (the paper's cluster is homogeneous); DRF uses the
//     cluster's total. The two differ by a constant factor (the number of
//     machines) that only rescales U_fairness against α·U_perf; the caller
//     passes the one it wants (PrismSelector.Select's shareBase). The
//     phase-level simulation (PhaseSim) follows the text: the capacity of
//     the machine the heartbeat comes from.
//   - Eq. 5: N_rem is the number of the job's tasks of the task's type
//     (map or reduce) not yet finished (pending, running or paused) and
//     N_cur the number started and not finished. ε keeps the first term
//     finite at N_cur = 0; the paper gives no value: ε = 0.01 by default,
//     so starting a job's first task of a type is worth ≈ 99·N_rem.
//   - Eq. 6: the text prints p(T) = a·p(T)², which is circular; §5.2 says a
//     quadratic in the wait with a = 0.1: p(T) = a·T², T in seconds.
//   - α: the paper gives no value; 1 by default.

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
	// heartbeat, and in seed 004's setting (Seed004Config) both mixes'
	// mean job running times got worse (PUMA 674 → 765 s, Gridmix 512 →
	// 558 s); with phase ends out of band too (PhaseOutOfBand) PUMA's got
	// better (805 → 710 s), Gridmix's worse (480 → 504 s)
	// (TestPhaseSimSeed004Claim).
	Hold bool
}

// DefaultPrismConfig returns α = 1, ε = 0.01, a = 0.1, k = 20 (seed 004
// §5.2 gives a and k; α and ε are ours).
func DefaultPrismConfig() PrismConfig {
	return PrismConfig{Alpha: 1, Epsilon: 0.01, A: 0.1, K: 20}
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
