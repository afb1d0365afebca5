package coshh

import (
	"fmt"
	"math"
)

// COSHHShareMetrics accumulates the user metrics of seed 003 §5.1 over a
// run, time-averaged over [t0, t] and sampled at the instants Sample is
// called (the job completions: AtCompletions). §5.1 defines, with
// Demand(U, t) the user's unassigned tasks and AssignedSlots(U, t) the
// slots running her tasks:
//
//	UserDissatisfaction(U, t) = (U.min_share − |AssignedSlots(U, t)|) /
//	    U.min_share × U.weight, for |Demand(U, t)| > 0 and
//	    |AssignedSlots(U, t)| < U.min_share (else 0);
//	Dissatisfaction(t) = Σ_{U ∈ Users} UserDissatisfaction(U, t);
//	Δ(U, t) = AssignedSlots(U, t) − U.min_share;
//	avg(w, t) = Σ_{U ∈ Users_w} Δ(U, t) / |Users_w|, Users_w the users of
//	    weight w;
//	Fairness(t) = Σ_{w ∈ weights} Σ_{U ∈ Users_w} |Δ(U, t) − avg(w, t)|;
//
// and compares algorithms by Dissatisfaction(T) and Fairness(T) for "an
// experiment which is run for time T". Read literally at the end of a run
// both are constants (no demand, no slots), so T cannot be the last
// instant; §5.2 says the simulator's evaluation part "calculates the
// desired performance metrics whenever a job is completed": AtCompletions
// is the mean of Dissatisfaction(t) and Fairness(t) over those instants
// of the run, each run at its own horizon. In terms of this type:
//
//   - Dissatisfaction(t) = Σ_U (U.min_share − |AssignedSlots(U, t)|) /
//     U.min_share × U.weight, over the users with demand (unassigned tasks)
//     and fewer containers than their min share (item 2);
//   - Fairness(t) = Σ_w Σ_{U ∈ Users_w} |Δ(U, t) − avg(w, t)|, where
//     Δ(U, t) = |AssignedSlots(U, t)| − U.min_share and avg(w, t) is the mean
//     Δ of the users of weight w (item 3; every user of the run counts);
//   - ShareVariance(t): the population variance of share/weight
//     (|AssignedSlots(U, t)| / U.weight) over the active users (with demand
//     or containers), a plainer fairness figure.
//
// The task core reports each user's containers and demand whenever they
// change (Update); an update costs O(1) for the dissatisfaction and the
// variance and, when the user's containers changed, O(users of the same
// weight) for the fairness (an update of demand alone, as after every
// scheduling round, keeps the level's sum, which no other user's change
// has touched since it was computed; an idle user who stays idle changes
// nothing but the time: the figures are the same bits).
type COSHHShareMetrics struct {
	users    []COSHHUser
	assigned []float64
	demand   []bool
	t0, last float64

	dis, disInt float64
	nDis        int       // users with a positive term
	userDis     []float64 // each user's current term
	userDisInt  []float64 // each user's integral, up to userLast
	userAsgInt  []float64 // each user's ∫ assigned, up to userLast
	userLast    []float64

	level       []int32   // user → weight level
	levels      [][]int32 // weight level → users
	levelF      []float64 // Σ|Δ − avg| of each level now
	scans       int       // levelFairness calls (tests)
	fair        float64
	fairInt     float64
	nAct        int
	sx, sxx     float64
	variance    float64
	varianceInt float64

	samples             int
	sampleDis, sampleFr float64
}

// Sample records the current Dissatisfaction(t) and Fairness(t) as one
// evaluation point (a job completion, §5.2).
func (m *COSHHShareMetrics) Sample() {
	m.samples++
	m.sampleDis += m.dis
	m.sampleFr += m.fair
}

// AtCompletions returns the means of Dissatisfaction(t) and Fairness(t)
// over the Sample instants and their number (NaN, NaN, 0 without any).
func (m *COSHHShareMetrics) AtCompletions() (dissatisfaction, fairness float64, n int) {
	if m.samples == 0 {
		return math.NaN(), math.NaN(), 0
	}
	return m.sampleDis / float64(m.samples), m.sampleFr / float64(m.samples), m.samples
}

// NewCOSHHShareMetrics starts the metrics at time t0 with every user idle
// (no containers, no demand).
func NewCOSHHShareMetrics(users []COSHHUser, t0 float64) *COSHHShareMetrics {
	n := len(users)
	m := &COSHHShareMetrics{users: users, t0: t0, last: t0,
		assigned: make([]float64, n), demand: make([]bool, n), level: make([]int32, n),
		userDis: make([]float64, n), userDisInt: make([]float64, n), userAsgInt: make([]float64, n), userLast: make([]float64, n)}
	byWeight := map[float64]int32{}
	for u, us := range users {
		m.userLast[u] = t0
		l, ok := byWeight[us.Weight]
		if !ok {
			l = int32(len(m.levels))
			byWeight[us.Weight] = l
			m.levels = append(m.levels, nil)
			m.levelF = append(m.levelF, 0)
		}
		m.level[u] = l
		m.levels[l] = append(m.levels[l], int32(u))
	}
	for l := range m.levels {
		m.levelF[l] = m.levelFairness(l)
		m.fair += m.levelF[l]
	}
	return m
}

// Update records that from time t on user holds assigned containers and has
// (demand) or has no unassigned tasks. Times must not decrease.
func (m *COSHHShareMetrics) Update(t float64, user int, assigned float64, demand bool) {
	if t < m.last || math.IsNaN(t) {
		panic(fmt.Sprintf("coshh metrics: update at %v after %v", t, m.last))
	}
	dt := t - m.last
	m.disInt += m.dis * dt
	m.fairInt += m.fair * dt
	m.varianceInt += m.variance * dt
	m.last = t
	u := user
	if !m.active(u) && !demand && assigned == m.assigned[u] {
		return // idle and staying idle: every term below adds 0 or is unchanged
	}
	du := t - m.userLast[u]
	m.userDisInt[u] += m.userDis[u] * du
	m.userAsgInt[u] += m.assigned[u] * du
	m.userLast[u] = t

	// Variance over the active users: remove u's old value, add the new.
	if m.active(u) {
		x := m.assigned[u] / m.users[u].Weight
		m.sx, m.sxx, m.nAct = m.sx-x, m.sxx-x*x, m.nAct-1
	}
	moved := assigned != m.assigned[u]
	m.assigned[u], m.demand[u] = assigned, demand
	if m.active(u) {
		x := assigned / m.users[u].Weight
		m.sx, m.sxx, m.nAct = m.sx+x, m.sxx+x*x, m.nAct+1
	}
	m.variance = 0
	if m.nAct > 1 {
		mean := m.sx / float64(m.nAct)
		m.variance = max(0, m.sxx/float64(m.nAct)-mean*mean)
	}
	if m.nAct == 0 {
		m.sx, m.sxx = 0, 0 // no drift across idle periods
	}

	old := m.userDis[u]
	m.userDis[u] = m.userTerm(u)
	m.dis += m.userDis[u] - old
	if old > 0 {
		m.nDis--
	}
	if m.userDis[u] > 0 {
		m.nDis++
	}
	if m.nDis == 0 {
		m.dis = 0 // no drift across satisfied periods
	}

	if !moved {
		return // the level's Σ|Δ − avg| is levelF[l], recomputed at its last change
	}
	l := m.level[u]
	f := m.levelFairness(int(l))
	m.fair += f - m.levelF[l]
	m.levelF[l] = f
}

func (m *COSHHShareMetrics) active(u int) bool { return m.demand[u] || m.assigned[u] > 0 }

// userTerm is UserDissatisfaction(U, t) of seed 003 §5.1 item 2.
func (m *COSHHShareMetrics) userTerm(u int) float64 {
	us := m.users[u]
	if !m.demand[u] || !(us.MinShare > 0) || m.assigned[u] >= us.MinShare {
		return 0
	}
	return (us.MinShare - m.assigned[u]) / us.MinShare * us.Weight
}

func (m *COSHHShareMetrics) levelFairness(l int) float64 {
	m.scans++
	us := m.levels[l]
	sum := 0.0
	for _, u := range us {
		sum += m.assigned[u] - m.users[u].MinShare
	}
	avg := sum / float64(len(us))
	f := 0.0
	for _, u := range us {
		f += math.Abs(m.assigned[u] - m.users[u].MinShare - avg)
	}
	return f
}

// average returns (∫ + now·(t − last)) / (t − t0), or now when t = t0.
func (m *COSHHShareMetrics) average(integral, now, t float64) float64 {
	if t <= m.t0 {
		return now
	}
	return (integral + now*max(0, t-m.last)) / (t - m.t0)
}

// Dissatisfaction returns the time average of Dissatisfaction over [t0, t]
// (t ≥ the last update).
func (m *COSHHShareMetrics) Dissatisfaction(t float64) float64 { return m.average(m.disInt, m.dis, t) }

// Fairness returns the time average of seed 003's Fairness over [t0, t].
func (m *COSHHShareMetrics) Fairness(t float64) float64 { return m.average(m.fairInt, m.fair, t) }

// ShareVariance returns the time average of the variance of share/weight
// over the active users, over [t0, t].
func (m *COSHHShareMetrics) ShareVariance(t float64) float64 {
	return m.average(m.varianceInt, m.variance, t)
}

// Now returns the current Dissatisfaction, Fairness and share variance.
func (m *COSHHShareMetrics) Now() (dissatisfaction, fairness, variance float64) {
	return m.dis, m.fair, m.variance
}

// User returns user's time-averaged UserDissatisfaction and mean
// containers over [t0, t] (t ≥ the last update).
func (m *COSHHShareMetrics) User(user int, t float64) (dissatisfaction, containers float64) {
	if t <= m.t0 {
		return m.userDis[user], m.assigned[user]
	}
	du := max(0, t-m.userLast[user])
	span := t - m.t0
	return (m.userDisInt[user] + m.userDis[user]*du) / span, (m.userAsgInt[user] + m.assigned[user]*du) / span
}

// COSHHLocality counts map tasks and the local ones among them (seed 003
// §5.1 item 4: a map task is local when it runs on a machine that holds its
// input slice).
type COSHHLocality struct {
	Maps, Local int
}

// Add counts one map task.
func (l *COSHHLocality) Add(local bool) {
	l.Maps++
	if local {
		l.Local++
	}
}

// Percent returns the share of local map tasks in percent (NaN without map
// tasks).
func (l COSHHLocality) Percent() float64 {
	if l.Maps == 0 {
		return math.NaN()
	}
	return 100 * float64(l.Local) / float64(l.Maps)
}
