package coshh

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// coshhTwoTypes is a plan on two machine types: one primary class
// suggested on both; two secondary classes at 0 and 10, SC'_0 = {0},
// SC'_1 = {1}.
func coshhTwoTypes() *COSHHPlan {
	return &COSHHPlan{
		Primary: COSHHClasses{Centres: [][]float64{{0}}, Radius: []float64{100}, Suggested: [][]int{{0}, {0}}},
		Secondary: COSHHClasses{Centres: [][]float64{{0}, {10}}, Radius: []float64{1, 1},
			Suggested: [][]int{{0}, {1}}},
	}
}

func coshhNewRouter(t *testing.T, users []COSHHUser, plan *COSHHPlan) *COSHHRouter {
	t.Helper()
	r, err := NewCOSHHRouter(COSHHConfig{Users: users, Machines: []int{2, 3}, Plan: plan})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func coshhArrive(t *testing.T, r *COSHHRouter, job, user int, x float64) {
	t.Helper()
	if err := r.Arrive(job, user, []float64{x}, []float64{x}); err != nil {
		t.Fatal(err)
	}
	r.Waiting(job, true)
}

func coshhWantPick(t *testing.T, r *COSHHRouter, typ, job int, stage COSHHStage) {
	t.Helper()
	if j, s := r.Pick(typ); j != job || s != stage {
		t.Fatalf("Pick(type %d) = job %d (%v), want job %d (%v)", typ, j, s, job, stage)
	}
}

// Seed 003 Alg. 2: the min-share stage comes first — users below their min
// share, the largest (min_share − share)·weight first — and only then the
// fairness stage (least share/weight), whatever the fairness order says.
func TestCOSHHMinShareBeforeFairness(t *testing.T) {
	users := []COSHHUser{{MinShare: 2, Weight: 1}, {MinShare: 0, Weight: 1}, {MinShare: 4, Weight: 1}}
	r := coshhNewRouter(t, users, coshhTwoTypes())
	coshhArrive(t, r, 0, 1, 0) // U1: no min share, share 0: first for fairness
	coshhArrive(t, r, 1, 0, 0) // U0: deficit 2
	coshhArrive(t, r, 2, 2, 0) // U2: deficit 4
	// U2 (deficit 4) twice, then U0 and U2 tie at 2 (lower index first),
	// then they alternate until both reach their min shares.
	for _, want := range []int{2, 2, 1, 2, 1, 2} {
		j, s := r.Pick(0)
		if j != want || s != COSHHMinShare {
			t.Fatalf("Pick = job %d (%v), want %d (min-share); shares %v", j, s, want, r.share)
		}
		r.Started(j, 1)
	}
	if r.Share(0) != 2 || r.Share(2) != 4 {
		t.Fatalf("shares %v", r.share)
	}
	// Min shares met: the fairness stage, least share/weight: U1 (0).
	coshhWantPick(t, r, 0, 0, COSHHFair)
	r.Started(0, 1)
	// U1 at 1, U0 at 2, U2 at 4: U1 again.
	coshhWantPick(t, r, 0, 0, COSHHFair)
	r.Started(0, 1)
	r.Started(0, 1)
	// U1 at 3 > U0 at 2: U0.
	coshhWantPick(t, r, 0, 1, COSHHFair)
	// A task of U2 ends: U2 below its min share again, first.
	r.Ended(2, 1)
	coshhWantPick(t, r, 0, 2, COSHHMinShare)
	if o := r.Overhead(); o.Picks != 10 || o.ByStage[COSHHMinShare] != 7 || o.ByStage[COSHHFair] != 3 {
		t.Errorf("overhead %+v", o)
	}
}

// Weights: the fairness stage compares share/weight; the min-share stage
// (min_share − share)·weight.
func TestCOSHHWeights(t *testing.T) {
	users := []COSHHUser{{MinShare: 0, Weight: 1}, {MinShare: 0, Weight: 3}}
	r := coshhNewRouter(t, users, coshhTwoTypes())
	coshhArrive(t, r, 0, 0, 0)
	coshhArrive(t, r, 1, 1, 0)
	r.Started(0, 1) // U0: 1/1
	r.Started(1, 2) // U1: 2/3
	coshhWantPick(t, r, 0, 1, COSHHFair)
	r.Started(1, 1) // U1: 3/3 = 1 ties U0: the lower index
	coshhWantPick(t, r, 0, 0, COSHHFair)

	users = []COSHHUser{{MinShare: 4, Weight: 1}, {MinShare: 2, Weight: 3}}
	r = coshhNewRouter(t, users, coshhTwoTypes())
	coshhArrive(t, r, 0, 0, 0)
	coshhArrive(t, r, 1, 1, 0)
	// Deficits ×weight: U0 4·1 = 4, U1 2·3 = 6: U1 first.
	coshhWantPick(t, r, 0, 1, COSHHMinShare)
	r.Started(1, 1) // U1: 1·3 = 3 < 4
	coshhWantPick(t, r, 0, 0, COSHHMinShare)
}

// When no job of SC'_t waits, any waiting job that can run on t; none when
// every waiting job's class cannot run there.
func TestCOSHHFallback(t *testing.T) {
	users := []COSHHUser{{Weight: 1}, {Weight: 1}}
	plan := coshhTwoTypes()
	r := coshhNewRouter(t, users, plan)
	coshhArrive(t, r, 0, 0, 0)   // class 0, suggested on type 0 only
	coshhArrive(t, r, 1, 1, 0.5) // class 0
	coshhWantPick(t, r, 1, 0, COSHHFallback)
	r.Started(0, 1)
	coshhWantPick(t, r, 1, 1, COSHHFallback) // U1 has the least share now
	coshhArrive(t, r, 2, 1, 10)              // class 1: SC'_1 again
	coshhWantPick(t, r, 1, 2, COSHHFair)
	if _, c := r.Class(2); c != 1 {
		t.Fatalf("job 2 in class %d", c)
	}
	// Class 0 cannot run on type 1: no fallback to it.
	plan.Secondary.Runs = [][]bool{{true, false}, {true, true}}
	r = coshhNewRouter(t, users, plan)
	coshhArrive(t, r, 0, 0, 0)
	coshhWantPick(t, r, 1, -1, COSHHNone)
	coshhWantPick(t, r, 0, 0, COSHHFair)
}

// Within the chosen user, the earliest-arrived waiting job; a job that stops
// waiting is not picked and keeps its place when it waits again.
func TestCOSHHEarliestAndWaiting(t *testing.T) {
	users := []COSHHUser{{Weight: 1}}
	plan := coshhTwoTypes()
	plan.Secondary.Suggested = [][]int{{0, 1}, {1}}
	r := coshhNewRouter(t, users, plan)
	coshhArrive(t, r, 5, 0, 10) // class 1
	coshhArrive(t, r, 3, 0, 0)  // class 0
	coshhArrive(t, r, 9, 0, 10) // class 1
	coshhWantPick(t, r, 0, 5, COSHHFair)
	r.Waiting(5, false)
	coshhWantPick(t, r, 0, 3, COSHHFair)
	r.Waiting(3, false)
	coshhWantPick(t, r, 0, 9, COSHHFair)
	r.Waiting(5, true) // its reduce stage became ready: ahead of job 9
	coshhWantPick(t, r, 0, 5, COSHHFair)
	r.Done(5)
	r.Done(9)
	coshhWantPick(t, r, 0, -1, COSHHNone)
	r.Waiting(3, true)
	coshhWantPick(t, r, 1, 3, COSHHFallback)
}

// Seed 003 Alg. 1: a job that fits no class within the tolerance makes the
// router re-classify and re-solve (the Replan callback), then re-queue every
// job by the new plan.
func TestCOSHHReplan(t *testing.T) {
	users := []COSHHUser{{Weight: 1}, {MinShare: 1, Weight: 1}}
	calls := 0
	newPlan := &COSHHPlan{
		Primary:   COSHHClasses{Centres: [][]float64{{0}}, Radius: []float64{100}, Suggested: [][]int{{0}, {0}}},
		Secondary: COSHHClasses{Centres: [][]float64{{0}, {50}}, Radius: []float64{1, 1}, Suggested: [][]int{{1}, {0}}},
	}
	var keep bool
	r, err := NewCOSHHRouter(COSHHConfig{Users: users, Machines: []int{1, 1}, Plan: coshhTwoTypes(), Tolerance: 0.1,
		Replan: func(job int) (*COSHHPlan, error) {
			calls++
			if job == 99 {
				return nil, errors.New("LP failed")
			}
			if keep {
				return nil, nil
			}
			return newPlan, nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	coshhArrive(t, r, 0, 0, 0.5) // class 0: within 1·1.1 + 0.1
	coshhArrive(t, r, 1, 0, 10)  // class 1
	if calls != 0 {
		t.Fatalf("%d re-plans for jobs that fit", calls)
	}
	coshhWantPick(t, r, 1, 1, COSHHFair)
	coshhArrive(t, r, 2, 0, 48) // nearest class 1 at distance 38: re-plan
	if calls != 1 || r.Overhead().Replans != 1 {
		t.Fatalf("%d calls, overhead %+v", calls, r.Overhead())
	}
	// New plan: 0 and 10 in class 0 (SC'_1), 48 in class 1 (SC'_0).
	for job, want := range map[int]int{0: 0, 1: 0, 2: 1} {
		if _, c := r.Class(job); c != want {
			t.Errorf("job %d in class %d, want %d", job, c, want)
		}
	}
	coshhWantPick(t, r, 0, 2, COSHHFair)
	coshhWantPick(t, r, 1, 0, COSHHFair)
	// A plan kept (nil) is a call but no re-plan.
	keep = true
	coshhArrive(t, r, 3, 0, -40)
	if o := r.Overhead(); calls != 2 || o.Replans != 1 || o.ReplanCalls != 2 {
		t.Errorf("%d calls, overhead %+v", calls, o)
	}
	if err := r.Arrive(99, 0, []float64{1000}, []float64{1000}); err == nil || !strings.Contains(err.Error(), "LP failed") {
		t.Errorf("failing re-plan: %v", err)
	}
	// Tolerance +Inf: never.
	r, _ = NewCOSHHRouter(COSHHConfig{Users: users, Machines: []int{1, 1}, Plan: coshhTwoTypes(), Tolerance: math.Inf(1),
		Replan: func(int) (*COSHHPlan, error) { t.Fatal("re-plan with an infinite tolerance"); return nil, nil }})
	coshhArrive(t, r, 0, 1, 1e9)
}

func TestCOSHHBadInput(t *testing.T) {
	users := []COSHHUser{{Weight: 1}}
	for _, tc := range []struct {
		cfg  COSHHConfig
		want string
	}{
		{COSHHConfig{Users: users, Machines: []int{1, 1}}, "no plan"},
		{COSHHConfig{Users: users}, "no machine types"},
		{COSHHConfig{Users: []COSHHUser{{Weight: 0}}, Machines: []int{1, 1}, Plan: coshhTwoTypes()}, "weight"},
		{COSHHConfig{Users: []COSHHUser{{MinShare: math.NaN(), Weight: 1}}, Machines: []int{1, 1}, Plan: coshhTwoTypes()}, "min share"},
		{COSHHConfig{Users: users, Machines: []int{1}, Plan: coshhTwoTypes()}, "suggested sets for 2 machine types, the cluster has 1"},
		{COSHHConfig{Users: users, Machines: []int{1, 1}, Plan: &COSHHPlan{}}, "secondary classification has no classes"},
		{COSHHConfig{Users: users, Machines: []int{1, 1}, Plan: coshhTwoTypes(), Tolerance: -1}, "tolerance"},
	} {
		if _, err := NewCOSHHRouter(tc.cfg); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", tc.cfg, err, tc.want)
		}
	}
	p := coshhTwoTypes()
	p.Secondary.Suggested[1] = []int{2}
	if _, err := NewCOSHHRouter(COSHHConfig{Users: users, Machines: []int{1, 1}, Plan: p}); err == nil || !strings.Contains(err.Error(), "suggests class 2 of 2") {
		t.Errorf("bad class index: %v", err)
	}
	r := coshhNewRouter(t, users, coshhTwoTypes())
	for _, err := range []error{
		r.Arrive(0, 1, nil, []float64{0}),
		r.Arrive(0, 0, nil, []float64{0, 1}),
		r.Arrive(0, 0, nil, []float64{math.NaN()}),
		r.Arrive(-1, 0, nil, []float64{0}),
	} {
		if err == nil {
			t.Error("bad arrival accepted")
		}
	}
	coshhArrive(t, r, 0, 0, 0)
	if err := r.Arrive(0, 0, nil, []float64{0}); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Errorf("second arrival: %v", err)
	}
}

// coshhRef is Alg. 2 by brute force over every job: the reference for the
// router's heaps and queues.
type coshhRef struct {
	users   []COSHHUser
	share   []float64
	plan    *COSHHPlan
	user    map[int]int
	seq     map[int]int
	class   map[int][2]int
	waiting map[int]bool
	x       map[int]float64
}

// classify puts job j in the class of nearest centre (centres at 10·i;
// ties: the lower class) of each classification; primary only for users
// with a min share.
func (f *coshhRef) classify(j int) {
	nearest := func(k int) int {
		best := 0
		for i := 1; i < k; i++ {
			if math.Abs(f.x[j]-float64(10*i)) < math.Abs(f.x[j]-float64(10*best)) {
				best = i
			}
		}
		return best
	}
	c1 := -1
	if k := len(f.plan.Primary.Centres); k > 0 && f.users[f.user[j]].MinShare > 0 {
		c1 = nearest(k)
	}
	f.class[j] = [2]int{c1, nearest(len(f.plan.Secondary.Centres))}
}

func (f *coshhRef) pick(t int) (int, COSHHStage) {
	in := func(set []int, c int) bool { return slices.Contains(set, c) }
	best, bestStage := -1, COSHHNone
	var bestKey float64
	better := func(j int, key float64) bool {
		if best < 0 || key < bestKey {
			return true
		}
		if key > bestKey {
			return false
		}
		if f.user[j] != f.user[best] {
			return f.user[j] < f.user[best]
		}
		return f.seq[j] < f.seq[best]
	}
	for j, w := range f.waiting {
		u := f.user[j]
		if c := f.class[j][0]; w && c >= 0 && f.share[u] < f.users[u].MinShare && in(f.plan.Primary.Suggested[t], c) {
			if key := -(f.users[u].MinShare - f.share[u]) * f.users[u].Weight; better(j, key) {
				best, bestKey, bestStage = j, key, COSHHMinShare
			}
		}
	}
	if best >= 0 {
		return best, bestStage
	}
	for _, stage := range []COSHHStage{COSHHFair, COSHHFallback} {
		for j, w := range f.waiting {
			u, c := f.user[j], f.class[j][1]
			ok := in(f.plan.Secondary.Suggested[t], c)
			if stage == COSHHFallback {
				ok = f.plan.Secondary.Runs == nil || f.plan.Secondary.Runs[c][t]
			}
			if w && ok {
				if key := f.share[u] / f.users[u].Weight; better(j, key) {
					best, bestKey, bestStage = j, key, stage
				}
			}
		}
		if best >= 0 {
			return best, bestStage
		}
	}
	return -1, COSHHNone
}

func coshhRandomPlan(rng *rand.Rand, types, k1, k2 int) *COSHHPlan {
	cls := func(k int) COSHHClasses {
		c := COSHHClasses{}
		for i := 0; i < k; i++ {
			c.Centres = append(c.Centres, []float64{float64(10 * i)})
			c.Radius = append(c.Radius, 5)
		}
		for t := 0; t < types; t++ {
			var sc []int
			for i := 0; i < k; i++ {
				if rng.IntN(3) == 0 {
					sc = append(sc, i)
				}
			}
			c.Suggested = append(c.Suggested, sc)
		}
		if rng.IntN(2) == 0 {
			for i := 0; i < k; i++ {
				row := make([]bool, types)
				for t := range row {
					row[t] = rng.IntN(4) > 0
				}
				c.Runs = append(c.Runs, row)
			}
		}
		return c
	}
	return &COSHHPlan{Primary: cls(k1), Secondary: cls(k2)}
}

// The router's heaps agree with Alg. 2 by brute force at every step of
// random runs: arrivals, waiting changes, task starts and ends, completions
// and new plans.
func TestCOSHHRouterMatchesReference(t *testing.T) {
	for run := uint64(0); run < 30; run++ {
		rng := rand.New(rand.NewPCG(run, 13))
		types, nu := 1+rng.IntN(4), 1+rng.IntN(6)
		var users []COSHHUser
		for u := 0; u < nu; u++ {
			users = append(users, COSHHUser{MinShare: float64(rng.IntN(3) * rng.IntN(4)), Weight: float64(1 + rng.IntN(3))})
		}
		plan := coshhRandomPlan(rng, types, 1+rng.IntN(3), 1+rng.IntN(5))
		r, err := NewCOSHHRouter(COSHHConfig{Users: users, Machines: slices.Repeat([]int{2}, types), Plan: plan, Tolerance: math.Inf(1)})
		if err != nil {
			t.Fatal(err)
		}
		ref := &coshhRef{users: users, share: make([]float64, nu), plan: plan, x: map[int]float64{},
			user: map[int]int{}, seq: map[int]int{}, class: map[int][2]int{}, waiting: map[int]bool{}}
		var running []int // jobs with a task holding one container
		next := 0
		for step := 0; step < 400; step++ {
			switch op := rng.IntN(10); {
			case op < 3: // arrival
				u := rng.IntN(nu)
				x := float64(rng.IntN(60))
				if err := r.Arrive(next, u, []float64{x}, []float64{x}); err != nil {
					t.Fatal(err)
				}
				ref.user[next], ref.seq[next], ref.x[next] = u, step, x
				ref.classify(next)
				if c1, c2 := r.Class(next); [2]int{c1, c2} != ref.class[next] {
					t.Fatalf("run %d: job %d (x %v) in classes %d, %d; reference %v", run, next, x, c1, c2, ref.class[next])
				}
				ref.waiting[next] = true
				r.Waiting(next, true)
				next++
			case op < 5 && len(ref.waiting) > 0: // waiting flips
				j := rng.IntN(next)
				if _, ok := ref.waiting[j]; ok {
					w := rng.IntN(2) == 0
					ref.waiting[j] = w
					r.Waiting(j, w)
				}
			case op < 7: // a decision, and the task starts
				ty := rng.IntN(types)
				jr, sr := ref.pick(ty)
				j, s := r.Pick(ty)
				if j != jr || s != sr {
					t.Fatalf("run %d step %d: Pick(%d) = %d (%v), reference %d (%v)", run, step, ty, j, s, jr, sr)
				}
				if j >= 0 {
					r.Started(j, 1)
					ref.share[ref.user[j]]++
					running = append(running, j)
				}
			case op < 8 && len(running) > 0: // a task ends
				k := rng.IntN(len(running))
				j := running[k]
				running = slices.Delete(running, k, k+1)
				r.Ended(j, 1)
				ref.share[ref.user[j]]--
			case op < 9 && next > 0: // a job completes
				j := rng.IntN(next)
				if _, ok := ref.waiting[j]; ok && !slices.Contains(running, j) {
					r.Done(j)
					delete(ref.waiting, j)
				}
			default: // a new plan
				if rng.IntN(4) == 0 {
					plan = coshhRandomPlan(rng, types, rng.IntN(3), 1+rng.IntN(5))
					if err := r.SetPlan(plan); err != nil {
						t.Fatal(err)
					}
					ref.plan = plan
					for j := range ref.waiting {
						ref.classify(j)
					}
				}
			}
			for ty := 0; ty < types; ty++ {
				jr, sr := ref.pick(ty)
				if j, s := r.pick(ty); j != jr || s != sr {
					t.Fatalf("run %d step %d: pick(%d) = %d (%v), reference %d (%v)", run, step, ty, j, s, jr, sr)
				}
			}
		}
	}
}
