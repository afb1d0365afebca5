package coshh

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

func coshhNear(a, b float64) bool { return math.Abs(a-b) <= 1e-12*math.Max(1, math.Abs(b)) }

// Seed 003 §5.1 by hand. Users: A (min share 4, weight 1), B (min share 2,
// weight 2), C (no min share, weight 1).
//
//	[0, 10)   A demands, holds 1: A's term (4−1)/4·1 = 0.75
//	[10, 20)  A holds 4, B demands and holds 0: B's term (2−0)/2·2 = 2
//	[20, 40)  B holds 2, C holds 3; nobody below min share: 0
//
// Dissatisfaction averaged over [0, 40]: (0.75·10 + 2·10 + 0·20)/40 = 0.6875.
// Fairness, Δ = assigned − min share; weight 1 holds A and C, weight 2 B:
//
//	[0, 10)   Δ_A = −3, Δ_C = 0: avg −1.5, |−1.5| + |1.5| = 3; B alone 0
//	[10, 20)  Δ_A = 0,  Δ_C = 0: 0
//	[20, 40)  Δ_A = 0,  Δ_C = 3: 3
//
// averaged: (3·10 + 0 + 3·20)/40 = 2.25. Share/weight variance over the
// active users: [0, 10) A alone: 0; [10, 20) A 4, B 0: 4; [20, 40) A 4,
// B 1, C 3: mean 8/3, variance (16 + 1 + 9)/3 − 64/9 = 14/9; averaged
// (0 + 40 + 20·14/9)/40.
func TestCOSHHShareMetricsByHand(t *testing.T) {
	users := []COSHHUser{{MinShare: 4, Weight: 1}, {MinShare: 2, Weight: 2}, {MinShare: 0, Weight: 1}}
	m := NewCOSHHShareMetrics(users, 0)
	m.Update(0, 0, 1, true)
	if d, f, v := m.Now(); d != 0.75 || f != 3 || v != 0 {
		t.Errorf("at 0: %v %v %v", d, f, v)
	}
	m.Update(10, 0, 4, true)
	m.Update(10, 1, 0, true)
	m.Update(20, 1, 2, true)
	m.Update(20, 2, 3, true)
	if got := m.Dissatisfaction(40); !coshhNear(got, 0.6875) {
		t.Errorf("Dissatisfaction %v, want 0.6875", got)
	}
	if got := m.Fairness(40); !coshhNear(got, 2.25) {
		t.Errorf("Fairness %v, want 2.25", got)
	}
	if got, want := m.ShareVariance(40), (40+20*14.0/9)/40; !coshhNear(got, want) {
		t.Errorf("share variance %v, want %v", got, want)
	}
	// Per user: A's term 0.75 for 10 s; mean containers (1·10 + 4·30)/40.
	if d, c := m.User(0, 40); !coshhNear(d, 0.75*10/40) || !coshhNear(c, 130.0/40) {
		t.Errorf("user A: %v, %v", d, c)
	}
	if d, c := m.User(1, 40); !coshhNear(d, 2*10.0/40) || !coshhNear(c, 2*20.0/40) {
		t.Errorf("user B: %v, %v", d, c)
	}
	// Back to idle: every figure returns to exactly 0 (no drift).
	for u := range users {
		m.Update(50, u, 0, false)
	}
	if d, _, v := m.Now(); d != 0 || v != 0 {
		t.Errorf("idle: %v %v", d, v)
	}
	defer func() {
		if recover() == nil {
			t.Error("an update back in time was accepted")
		}
	}()
	m.Update(49, 0, 1, true)
}

// A user with demand and no min share is never dissatisfied; one without
// demand neither, whatever it holds (seed 003: |Demand(U, t)| > 0).
func TestCOSHHDissatisfactionNeedsDemand(t *testing.T) {
	m := NewCOSHHShareMetrics([]COSHHUser{{MinShare: 5, Weight: 1}, {Weight: 1}}, 0)
	m.Update(0, 0, 0, false)
	m.Update(0, 1, 0, true)
	if d, _, _ := m.Now(); d != 0 {
		t.Errorf("dissatisfaction %v", d)
	}
	if d := m.Dissatisfaction(0); d != 0 {
		t.Errorf("at t0: %v", d)
	}
}

func TestCOSHHLocality(t *testing.T) {
	var l COSHHLocality
	if !math.IsNaN(l.Percent()) {
		t.Error("no maps: not NaN")
	}
	for _, local := range []bool{true, true, false, true} {
		l.Add(local)
	}
	if l.Percent() != 75 {
		t.Errorf("locality %v%%, want 75", l.Percent())
	}
	if !COSHHLocal([]int{3, 7, 9}, 7) || COSHHLocal([]int{3, 7, 9}, 4) {
		t.Error("COSHHLocal")
	}
}

// Seed 003 §3.2's replication: three replicas on machines of the types
// that suggest the job's classes; filled from the other machines when
// fewer; Hadoop's random placement without candidates.
func TestCOSHHReplicas(t *testing.T) {
	users := []COSHHUser{{Weight: 1}}
	plan := coshhTwoTypes() // SC'_0 = {0}, SC'_1 = {1}
	r, err := NewCOSHHRouter(COSHHConfig{Users: users, Machines: []int{2, 4}, Plan: plan})
	if err != nil {
		t.Fatal(err)
	}
	coshhArrive(t, r, 0, 0, 0)  // class 0: type 0, machines 0 and 1
	coshhArrive(t, r, 1, 0, 10) // class 1: type 1, machines 2–5
	if c := r.ReplicaCandidates(nil, 0); !slices.Equal(c, []int{0, 1}) {
		t.Errorf("candidates of job 0: %v", c)
	}
	if c := r.ReplicaCandidates(nil, 1); !slices.Equal(c, []int{2, 3, 4, 5}) {
		t.Errorf("candidates of job 1: %v", c)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	seen := map[int]int{}
	for i := 0; i < 2000; i++ {
		got := COSHHPlaceReplicas(nil, []int{2, 3, 4, 5}, 6, COSHHReplication, rng)
		if len(got) != 3 || got[0] == got[1] || got[1] == got[2] || got[0] == got[2] {
			t.Fatalf("replicas %v", got)
		}
		for _, m := range got {
			if m < 2 {
				t.Fatalf("replica on machine %d, not a candidate", m)
			}
			seen[m]++
		}
		// Two candidates: both, and one other machine.
		got = COSHHPlaceReplicas(got[:0], []int{0, 1}, 6, COSHHReplication, rng)
		if !slices.Contains(got, 0) || !slices.Contains(got, 1) || got[2] < 2 {
			t.Fatalf("replicas with 2 candidates: %v", got)
		}
	}
	for m := 2; m < 6; m++ { // uniform: 1500 each
		if seen[m] < 1350 || seen[m] > 1650 {
			t.Errorf("machine %d holds %d of 6000 replicas, want about 1500", m, seen[m])
		}
	}
	// No candidates: uniform over all; never more replicas than machines.
	if got := COSHHPlaceReplicas(nil, nil, 2, 3, rng); len(got) != 2 || got[0] == got[1] {
		t.Errorf("3 replicas on 2 machines: %v", got)
	}
	a := COSHHPlaceReplicas(nil, nil, 100, 3, rand.New(rand.NewPCG(5, 5)))
	b := COSHHPlaceReplicas(nil, nil, 100, 3, rand.New(rand.NewPCG(5, 5)))
	if !slices.Equal(a, b) {
		t.Errorf("same seed, different replicas: %v %v", a, b)
	}
}

// An update that changes a user's demand but not her containers (every
// user's update after each scheduling round), or that leaves an idle user
// idle, must give the same bits as the full update (refUpdate, the rule
// before such updates were cut short), and must not rescan the level.
func TestCOSHHShareMetricsDemandOnlyUpdate(t *testing.T) {
	for seed := uint64(0); seed < 20; seed++ {
		rng := rand.New(rand.NewPCG(seed, 3))
		n := 2 + rng.IntN(40)
		users := make([]COSHHUser, n)
		for u := range users {
			users[u] = COSHHUser{MinShare: float64(rng.IntN(5)) * 1.5, Weight: float64(1 + rng.IntN(3))}
		}
		if seed%2 == 1 {
			for u := range users { // one weight level, min shares of 0 or more
				users[u].Weight = 1
			}
		}
		got, want := NewCOSHHShareMetrics(users, 0), NewCOSHHShareMetrics(users, 0)
		assigned := make([]float64, n)
		now := 0.0
		for step := 0; step < 3000; step++ {
			if rng.IntN(4) == 0 {
				now += rng.ExpFloat64()
			}
			u := rng.IntN(n)
			if rng.IntN(3) == 0 {
				assigned[u] = math.Max(0, assigned[u]+float64(rng.IntN(5)-2))
			}
			demand := rng.IntN(2) == 0
			got.Update(now, u, assigned[u], demand)
			want.refUpdate(now, u, assigned[u], demand)
			if rng.IntN(50) == 0 {
				got.Sample()
				want.Sample()
			}
		}
		end := now + 1
		gd, gf, gv := got.Now()
		wd, wf, wv := want.Now()
		gad, gaf, _ := got.AtCompletions()
		wad, waf, _ := want.AtCompletions()
		pairs := [][2]float64{{gd, wd}, {gf, wf}, {gv, wv}, {gad, wad}, {gaf, waf},
			{got.Dissatisfaction(end), want.Dissatisfaction(end)}, {got.Fairness(end), want.Fairness(end)},
			{got.ShareVariance(end), want.ShareVariance(end)}}
		for u := range users {
			a, b := got.User(u, end)
			c, d := want.User(u, end)
			pairs = append(pairs, [2]float64{a, c}, [2]float64{b, d})
		}
		for i, p := range pairs {
			if math.Float64bits(p[0]) != math.Float64bits(p[1]) {
				t.Fatalf("seed %d: figure %d is %v, want %v (the same bits)", seed, i, p[0], p[1])
			}
		}
	}
	// A round's demand refresh of 1,000 users of one weight rescans no level.
	users := make([]COSHHUser, 1000)
	for u := range users {
		users[u] = COSHHUser{MinShare: 2, Weight: 1}
	}
	m := NewCOSHHShareMetrics(users, 0)
	m.Update(1, 7, 3, true)
	before := m.scans
	for u := range users {
		m.Update(2, u, m.assigned[u], u%2 == 0)
	}
	if d := m.scans - before; d != 0 {
		t.Errorf("a demand-only update of every user rescanned %d levels, want 0", d)
	}
}

// refUpdate is Update as it was before demand-only and idle updates were
// cut short: every term integrated, the variance's sums and the user's
// weight level recomputed at every call.
func (m *COSHHShareMetrics) refUpdate(t float64, u int, assigned float64, demand bool) {
	dt := t - m.last
	m.disInt += m.dis * dt
	m.fairInt += m.fair * dt
	m.varianceInt += m.variance * dt
	m.last = t
	du := t - m.userLast[u]
	m.userDisInt[u] += m.userDis[u] * du
	m.userAsgInt[u] += m.assigned[u] * du
	m.userLast[u] = t
	if m.active(u) {
		x := m.assigned[u] / m.users[u].Weight
		m.sx, m.sxx, m.nAct = m.sx-x, m.sxx-x*x, m.nAct-1
	}
	m.assigned[u], m.demand[u] = assigned, demand
	if m.active(u) {
		x := assigned / m.users[u].Weight
		m.sx, m.sxx, m.nAct = m.sx+x, m.sxx+x*x, m.nAct+1
	}
	m.variance = 0
	if m.nAct > 1 {
		mean := m.sx / float64(m.nAct)
		m.variance = math.Max(0, m.sxx/float64(m.nAct)-mean*mean)
	}
	if m.nAct == 0 {
		m.sx, m.sxx = 0, 0
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
		m.dis = 0
	}
	l := m.level[u]
	f := m.levelFairness(int(l))
	m.fair += f - m.levelF[l]
	m.levelF[l] = f
}
