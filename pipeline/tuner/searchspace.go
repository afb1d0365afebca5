package tuner

import (
	"math"
	"slices"
	"strconv"

	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/pipeline/experiment"
)

// candidate is one configuration the tuner scores.
type candidate struct {
	name   string       // a named baseline's name ("" for the others)
	spec   string       // policy specification
	params *LASMQParams // nil: not a LAS_MQ configuration
	origin string       // baseline, level-1, fine, space, search, sensitivity
	est    bool         // uses size estimates
	// chunks are the chunks to score it on (nil: every chunk); see race.go.
	chunks []int
}

// Candidate origins.
const (
	originBaseline    = "baseline"
	originOneLevel    = "one level"
	originFine        = "fine levels"
	originSpace       = "space-filling"
	originSearch      = "coordinate search"
	OriginSensitivity = "sensitivity"
)

// Names of the baselines every search contains.
const (
	nameLAS        = "plain LAS"
	namePS         = "PS"
	NameFirstGuess = "first guess"
)

// currentName names the current scheduler in tables.
func currentName(spec string) string { return "current (" + spec + ")" }

// usesEstimates reports whether a policy specification reads size
// estimates (as the fluid resolution's registry says).
func usesEstimates(spec string) bool {
	info, err := experiment.Fluid.Policy(spec)
	return err == nil && info.Uses.Estimates
}

func lasmqCandidate(p LASMQParams, origin string) candidate {
	p = p.canonical()
	return candidate{spec: p.Spec(), params: &p, origin: origin, est: p.Order.UsesEstimates()}
}

// canonical sets the parameters that do not act to fixed values (one level
// has no threshold and no weights; two levels have no step), so that equal
// policies have equal specifications.
func (c LASMQParams) canonical() LASMQParams {
	if c.K <= 1 {
		c.Alpha0, c.P, c.Decay = 1, 10, 1
	}
	if c.K == 2 {
		c.P = 10
	}
	if c.Order == "" {
		c.Order = sim.OrderFIFO
	}
	return c
}

// sizeRange summarises the positive sizes that place the search space.
type sizeRange struct {
	q01, q50, q99, max float64
}

// sizeRangeOf places the search space on the positive finite sizes'
// statistics.
func sizeRangeOf(s sizeStats) sizeRange {
	if s.n == 0 {
		return sizeRange{1e-3, 1, 1e3, 1e3}
	}
	r := sizeRange{q01: s.q01, q50: s.q50, q99: s.q99, max: s.max}
	if !(r.q99 > r.q01) {
		r.q99 = r.q01 * 10
	}
	if !(r.max > r.q99) {
		r.max = r.q99
	}
	return r
}

// baselineCandidates are the configurations every search contains, so that
// the tuner never returns something worse on the folds than a
// configuration it could have named: the current scheduler, plain LAS, PS,
// Fair (when it is not the current scheduler), the first guess read off
// the sizes and Hu et al.'s default (sim.DefaultLASMQ).
func baselineCandidates(current string, fg LASMQParams) []candidate {
	named := func(name, spec string) candidate {
		return candidate{name: name, spec: spec, origin: originBaseline, est: usesEstimates(spec)}
	}
	out := []candidate{named(currentName(current), current), named(nameLAS, "las"), named(namePS, "ps")}
	if current != FairSpec {
		out = append(out, named("fair ("+FairSpec+")", FairSpec))
	}
	hu := sim.DefaultLASMQ()
	for _, b := range []struct {
		name string
		p    LASMQParams
	}{{NameFirstGuess, fg}, {DefaultLASMQName, LASMQParams{K: hu.K, Alpha0: hu.Alpha0, P: hu.P, Decay: 1, Order: hu.Order}}} {
		c := lasmqCandidate(b.p, originBaseline)
		c.name = b.name
		out = append(out, c)
	}
	return out
}

// levelOrders are the in-level orders the tuner tries: every order, but
// the containers order (Alg. 1 line 10) only when some job carries a
// container count (containers; on other jobs it is FIFO,
// sim.OrderContainers).
func levelOrders(containers bool) []sim.LevelOrder {
	if containers {
		return sim.LevelOrders
	}
	return slices.DeleteFunc(slices.Clone(sim.LevelOrders), func(o sim.LevelOrder) bool { return o == sim.OrderContainers })
}

// structuralCandidates are the ends of the space the tuner always scores:
// one level in each of the orders (FIFO; GPS, the fluid Fair Scheduler; least
// estimated remaining work, SRPT on estimates; remaining containers), and fine levels that
// approach LAS (strict priority, PS inside, p → 1, from below the 1st
// percentile of the sizes up past the largest), with weighted and
// remaining-order variants.
func structuralCandidates(r sizeRange, orders []sim.LevelOrder) []candidate {
	var out []candidate
	for _, o := range orders {
		out = append(out, lasmqCandidate(LASMQParams{K: 1, Alpha0: 1, P: 10, Decay: 1, Order: o}, originOneLevel))
	}
	a0 := r.q01 / 2
	fine := func(p, decay float64, o sim.LevelOrder) {
		k := 2 + int(math.Ceil(math.Log(r.max/a0)/math.Log(p)))
		k = max(2, min(k, maxFineLevels))
		out = append(out, lasmqCandidate(LASMQParams{K: k, Alpha0: a0, P: p, Decay: decay, Order: o}, originFine))
	}
	for _, p := range []float64{1.2, 1.5, 2, 4} {
		fine(p, 0, sim.OrderPS)
	}
	fine(2, 0, sim.OrderFIFO)
	fine(2, 0, sim.OrderRemaining)
	fine(2, 0.5, sim.OrderPS)
	fine(1.5, 0.8, sim.OrderPS)
	return out
}

// maxFineLevels caps the number of levels of the LAS-limit candidates (an
// event costs O(non-empty levels + log n)).
const maxFineLevels = 300

// spaceCandidates returns n points of a Halton sequence (bases 2, 3, 5, 7,
// 11) over the LAS_MQ space: log α_0 over the 1st to 99th percentile of
// the sizes, k from 2 to 16 (log-uniform), log p over [1.5, 30], decay 0
// (strict priority) for a quarter of the points and log-uniform over
// [0.01, 1] for the rest, and the in-level order. A low-discrepancy
// sequence covers the space evenly for any n, so the budget, not a grid
// shape, sets how many points are tried.
func spaceCandidates(n int, r sizeRange) []candidate {
	out := make([]candidate, 0, n)
	for i := 1; len(out) < n; i++ {
		u := [5]float64{halton(i, 2), halton(i, 3), halton(i, 5), halton(i, 7), halton(i, 11)}
		a0 := r.q01 * math.Pow(r.q99/r.q01, u[0])
		k := int(math.Round(2 * math.Pow(8, u[1])))
		p := 1.5 * math.Pow(20, u[2])
		d := 0.0
		if u[3] >= 0.25 {
			d = math.Pow(100, (u[3]-0.25)/0.75) / 100
		}
		o := sim.LevelOrders[min(2, int(u[4]*3))]
		out = append(out, lasmqCandidate(LASMQParams{K: k, Alpha0: roundSig(a0), P: roundSig(p), Decay: roundSig(d), Order: o}, originSpace))
	}
	return out
}

// halton is the i-th element of the van der Corput sequence in base b.
func halton(i, b int) float64 {
	f, r := 1.0, 0.0
	for ; i > 0; i /= b {
		f /= float64(b)
		r += f * float64(i%b)
	}
	return r
}

// roundSig rounds to 4 significant digits, so that specifications stay
// readable and a search does not revisit a point in the last digits.
func roundSig(v float64) float64 {
	r, err := strconv.ParseFloat(strconv.FormatFloat(v, 'g', 4, 64), 64)
	if err != nil {
		return v
	}
	return r
}

// moves returns the valid neighbours of c a coordinate search tries: α_0 and p
// times and divided by step, k ± 1 (± step·k for many levels), the decay
// times and divided by step and set to 0 (strict) or 1 (equal weights), and
// the other in-level orders.
func moves(c LASMQParams, step float64, orders []sim.LevelOrder) []LASMQParams {
	var out []LASMQParams
	add := func(m LASMQParams) {
		m.Alpha0, m.P, m.Decay = roundSig(m.Alpha0), roundSig(math.Max(1.05, m.P)), roundSig(math.Min(1, m.Decay))
		m.K = max(1, min(m.K, sim.MaxQueues))
		if m != c && m.Policy().Validate() == nil { // thresholds that overflow are no move
			out = append(out, m)
		}
	}
	m := c
	m.Alpha0 *= step
	add(m)
	m.Alpha0 = c.Alpha0 / step
	add(m)
	m = c
	m.P = c.P * step
	add(m)
	m.P = 1 + (c.P-1)/step
	add(m)
	dk := max(1, int(float64(c.K)*(step-1)))
	m = c
	m.K = c.K + dk
	add(m)
	m.K = c.K - dk
	add(m)
	m = c
	if c.Decay > 0 {
		m.Decay = c.Decay * step
		add(m)
		m.Decay = c.Decay / step
		add(m)
		m.Decay = 0
		add(m)
	} else {
		m.Decay = 0.05
		add(m)
	}
	m.Decay = 1
	add(m)
	for _, o := range orders {
		m = c
		m.Order = o
		add(m)
	}
	return out
}

// sensitivityCandidates are the curves around best: 9 values of α_0 over
// the sizes' range and k from 2 to 12, the rest at best.
func sensitivityCandidates(best LASMQParams, r sizeRange) (va, vk []candidate) {
	for _, a := range logspace(r.q01, r.q99, 9) {
		p := best
		p.Alpha0 = roundSig(a)
		va = append(va, lasmqCandidate(p, OriginSensitivity))
	}
	for _, k := range []int{1, 2, 3, 4, 5, 6, 8, 10, 12} {
		p := best
		p.K = k
		vk = append(vk, lasmqCandidate(p, OriginSensitivity))
	}
	return va, vk
}
