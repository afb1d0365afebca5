package prism

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"sort"
	"testing"
	"time"
)

func mustPrismSelector(t testing.TB, cfg PrismConfig) *PrismSelector {
	t.Helper()
	s, err := NewPrismSelector(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Alg. 1 of seed 004 on a small heartbeat, every utility by hand (eq. 1–6
// with α = 1, ε = 0.01, a = 0.1). Machine and share base: 4 cores, 8 GB,
// 100 MB/s disk, 125 MB/s network.
//
//	job 0: no usage, 4 map tasks left, none running; starts local maps of
//	       <1 core, 1 GB, 10 MB/s>.
//	job 1: uses 2 cores (share 0.5), 2 of 4 maps running, on the machine;
//	       one task paused 10 s before a phase of <1, 1, 30, 0>; can start
//	       2 local maps of <1, 1, 10, 0>.
//
// Pick 1: job 0's map: U_fair = 0.5 − (0.5 − 0.25) = 0.25, U_perf =
// 4/0.01 − 4/1 = 396 → 396.25 (job 1's resume: −0.25 + 0.1·10² = 9.75).
// Pick 2: job 1's resume, 9.75 (job 0's map: 0.25 + 4/1 − 4/2 = 2.25).
// Pick 3: job 0's map, 0.25 + 2 = 2.25 (job 1's map: −0.25 + 4/2 − 4/3).
// Pick 4: job 0's map, 0.25 + 4/2 − 4/3 = 0.9167. Then no core is free.
func TestSelectByHand(t *testing.T) {
	m := Seed004Machine()
	task := Vector{CPU: 1, Memory: 1, Disk: 10}
	jobs := []PrismJob{
		{Remaining: [NumSides]int{4, 0}, Starts: []PrismStart{{Side: MapSide, Local: true, Count: 4, Demand: task}}},
		{
			Usage: Vector{CPU: 2}, Running: [NumSides]int{2, 0}, Remaining: [NumSides]int{4, 0}, OnMachine: true,
			Paused: []PrismPaused{{Demand: Vector{CPU: 1, Memory: 1, Disk: 30}, Wait: 10}},
			Starts: []PrismStart{{Side: MapSide, Local: true, Count: 2, Demand: task}},
		},
	}
	before := clonePrismJobs(jobs)
	s := mustPrismSelector(t, LegacyPrismConfig())
	got := s.Select(m, m, jobs)
	want := []PrismPick{
		{Job: 0, Start: 0, Paused: -1, Utility: 396.25, Fairness: 0.25, Perf: 396, Demand: task},
		{Job: 1, Start: -1, Paused: 0, Utility: 9.75, Fairness: -0.25, Perf: 10, Demand: jobs[1].Paused[0].Demand},
		{Job: 0, Start: 0, Paused: -1, Utility: 2.25, Fairness: 0.25, Perf: 2, Demand: task},
		{Job: 0, Start: 0, Paused: -1, Utility: 0.25 + 2 - 4.0/3, Fairness: 0.25, Perf: 2 - 4.0/3, Demand: task},
	}
	if len(got) != len(want) {
		t.Fatalf("picks = %+v, want %d", got, len(want))
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.Job != w.Job || g.Start != w.Start || g.Paused != w.Paused || g.Demand != w.Demand ||
			!prismNear(g.Utility, w.Utility) || !prismNear(g.Fairness, w.Fairness) || !prismNear(g.Perf, w.Perf) {
			t.Errorf("pick %d = %+v, want %+v", i, g, w)
		}
	}
	if !reflect.DeepEqual(jobs, before) {
		t.Error("Select modified its input")
	}
	// α = 0 (fairness only, seed 004 §5.2): only phases that narrow the
	// spread of shares are worth scheduling.
	s0 := mustPrismSelector(t, PrismConfig{Alpha: 0, Epsilon: 0.01, A: 0.1, K: 20})
	for _, p := range s0.Select(m, m, jobs) {
		if p.Job != 0 || !(p.Fairness > 0) {
			t.Errorf("α = 0 picked %+v", p)
		}
	}
}

func clonePrismJobs(jobs []PrismJob) []PrismJob {
	c := slices.Clone(jobs)
	for i := range c {
		c[i].Starts = slices.Clone(c[i].Starts)
		c[i].Paused = slices.Clone(c[i].Paused)
	}
	return c
}

// A paused phase whose job is the richest is resumed only once its urgency
// a·T_wait² outweighs the fairness it costs (seed 004 §5.1: "If the task
// has been paused for a long time, it becomes urgent").
func TestPausedPhaseWaitsThenResumes(t *testing.T) {
	m := Seed004Machine()
	jobs := []PrismJob{
		{Usage: Vector{CPU: 1}, Remaining: [NumSides]int{0, 1}},
		{Usage: Vector{CPU: 3}, Running: [NumSides]int{0, 1}, Remaining: [NumSides]int{0, 1},
			Paused: []PrismPaused{{Demand: Vector{CPU: 1}}}},
	}
	// Fairness cost (eq. 3's DRF spread, α = 1): spread 0.5 → 0.75,
	// −0.25; p(T) = 0.1·T² > 0.25 from T > √2.5 ≈ 1.58 s.
	s := mustPrismSelector(t, LegacyPrismConfig())
	for _, c := range []struct {
		wait   float64
		resume bool
	}{{0, false}, {1, false}, {1.5, false}, {1.6, true}, {30, true}} {
		jobs[1].Paused[0].Wait = c.wait
		picks := s.Select(m, m, jobs)
		if got := len(picks) == 1; got != c.resume {
			t.Errorf("wait %v s: picks %+v, want resume = %v", c.wait, picks, c.resume)
		}
	}
}

// The deficit fairness (FairnessDeficit): U_fairness = |e_j| − |e_j − δ|
// with e_j the share job j is owed (PrismJob.Owed) and δ the share the
// phase adds, here against one Seed004Machine (a core is 0.25); the top k
// are the jobs owed the most. At α = 0 the choice is by fairness alone.
func TestSelectDeficitFairness(t *testing.T) {
	m := Seed004Machine()
	core := Vector{CPU: 1}
	job := func(owed float64, onMachine bool) PrismJob {
		return PrismJob{Owed: owed, OnMachine: onMachine, Remaining: [NumSides]int{4, 0},
			Starts: []PrismStart{{Side: MapSide, Local: true, Count: 4, Demand: core}}}
	}
	cfg := DefaultPrismConfig()
	cfg.Alpha, cfg.MaxPicks, cfg.Fairness = 0, 1, FairnessDeficit
	for _, tc := range []struct {
		name     string
		k        int
		jobs     []PrismJob
		wantJob  int
		wantFair float64
	}{
		{"the most owed first", 20, []PrismJob{job(0.3, false), job(0.5, false)}, 1, 0.25},
		{"partly owed", 20, []PrismJob{job(0.2, false), job(-1, false)}, 0, 0.2 - 0.05},
		{"top k = 1 leaves out the less owed", 1, []PrismJob{job(0.2, false), job(0.5, false)}, 1, 0.25},
		{"a job on the machine is a candidate whatever its deficit", 1, []PrismJob{job(0.4, true), job(0.5, false)}, 1, 0.25},
		{"above its share: nothing at α = 0", 20, []PrismJob{job(-0.1, false), job(0.1, false)}, -1, 0},
	} {
		cfg.K = tc.k
		s := mustPrismSelector(t, cfg)
		picks := s.Select(m, m, tc.jobs)
		if tc.wantJob < 0 {
			if len(picks) != 0 {
				t.Errorf("%s: picks %+v, want none", tc.name, picks)
			}
			continue
		}
		if len(picks) != 1 || picks[0].Job != tc.wantJob || !prismNear(picks[0].Fairness, tc.wantFair) {
			t.Errorf("%s: picks %+v, want job %d with U_fairness %v", tc.name, picks, tc.wantJob, tc.wantFair)
		}
	}
	if got := DeficitFairness(0.1, 0.25); !prismNear(got, 0.1-0.15) {
		t.Errorf("DeficitFairness(0.1, 0.25) = %v, want −0.05", got)
	}
}

// The deficit in tasks (FairnessTasks, the default), by hand with
// TaskSlots 4: a new task adds δ = 1/4 of a machine, a paused task's next
// phase nothing (the task is counted), so U_fairness = |e| − |e − 1/4| for
// a leading phase and 0 for a paused one: at α = 0 a job owed 0.3 starts
// a task (0.25), one owed 0.1 gets 0.1 − 0.15 < 0 (nothing), and a paused
// phase is never resumed by fairness; at α = 0.1 its urgency a·T² = 10
// (T = 10 s) resumes it first.
func TestSelectTaskFairness(t *testing.T) {
	m := Seed004Machine()
	core := Vector{CPU: 1}
	job := func(owed float64, paused bool) PrismJob {
		j := PrismJob{Owed: owed, OnMachine: true, Remaining: [NumSides]int{4, 0}, Running: [NumSides]int{1, 0},
			Starts: []PrismStart{{Side: MapSide, Local: true, Count: 3, Demand: core}}}
		if paused {
			j.Paused = []PrismPaused{{Demand: core, Wait: 10}}
		}
		return j
	}
	cfg := DefaultPrismConfig()
	cfg.Alpha, cfg.MaxPicks, cfg.TaskSlots = 0, 1, 4
	for _, tc := range []struct {
		name            string
		alpha           float64
		jobs            []PrismJob
		wantJob, paused int
		wantFair, wantU float64
	}{
		{"owed more than a task: starts one", 0, []PrismJob{job(0.3, false)}, 0, -1, 0.25, 0.25},
		{"owed less than half a task: nothing", 0, []PrismJob{job(0.1, false)}, -1, -1, 0, 0},
		{"paused phase: no fairness gain, the start wins", 0, []PrismJob{job(0.3, true)}, 0, -1, 0.25, 0.25},
		{"paused phase alone at α = 0: nothing", 0, []PrismJob{job(-1, true)}, -1, -1, 0, 0},
		{"urgency resumes it at α = 0.1", 0.1, []PrismJob{job(0.3, true)}, 0, 0, 0, 0.1 * 0.1 * 100},
	} {
		cfg.Alpha = tc.alpha
		picks := mustPrismSelector(t, cfg).Select(m, m, tc.jobs)
		if tc.wantJob < 0 {
			if len(picks) != 0 {
				t.Errorf("%s: picks %+v, want none", tc.name, picks)
			}
			continue
		}
		if len(picks) != 1 || picks[0].Job != tc.wantJob || picks[0].Paused != tc.paused || !prismNear(picks[0].Fairness, tc.wantFair) || !prismNear(picks[0].Utility, tc.wantU) {
			t.Errorf("%s: picks %+v, want job %d (paused %d) with U_fairness %v, U %v", tc.name, picks, tc.wantJob, tc.paused, tc.wantFair, tc.wantU)
		}
	}
}

// Data-local tasks first (§5.2): a non-local task is offered only when no
// local task fits.
func TestSelectLocalFirst(t *testing.T) {
	m := Seed004Machine()
	small, big := Vector{CPU: 1}, Vector{CPU: 3}
	job := PrismJob{Remaining: [NumSides]int{3, 0}, Starts: []PrismStart{
		{Side: MapSide, Local: false, Count: 1, Demand: small},
		{Side: MapSide, Local: true, Count: 1, Demand: big},
	}}
	s := mustPrismSelector(t, PrismConfig{Alpha: 1, Epsilon: 0.01, A: 0.1, K: 20, MaxPicks: 1})
	if p := s.Select(m, m, []PrismJob{job}); len(p) != 1 || p[0].Start != 1 {
		t.Errorf("free 4 cores: picks %+v, want the local task (group 1)", p)
	}
	free := Vector{CPU: 2, Memory: 8, Disk: 100, Network: 125}
	if p := s.Select(free, m, []PrismJob{job}); len(p) != 1 || p[0].Start != 0 {
		t.Errorf("free 2 cores: picks %+v, want the non-local task (group 0), the local one does not fit", p)
	}
}

// Only the K jobs with the lowest shares (and the jobs on the machine) are
// candidates (Alg. 1 lines 6–11); the top K is recomputed after each pick.
func TestSelectTopK(t *testing.T) {
	m := Seed004Machine()
	d := Vector{CPU: 0.5}
	mk := func(share float64, rem int) PrismJob {
		return PrismJob{Usage: Vector{CPU: 40 * share}, Remaining: [NumSides]int{rem, 0},
			Starts: []PrismStart{{Side: MapSide, Local: true, Count: 1, Demand: d}}}
	}
	base := m.Scale(10)
	// Job 0 has the most to gain (more remaining tasks) but the highest share.
	jobs := []PrismJob{mk(0.3, 50), mk(0.1, 1), mk(0.2, 1)}
	order := func(k int) []int {
		s := mustPrismSelector(t, PrismConfig{Alpha: 1, Epsilon: 0.01, A: 0.1, K: k})
		var o []int
		for _, p := range s.Select(m, base, jobs) {
			o = append(o, p.Job)
		}
		return o
	}
	if got := order(1); !slices.Equal(got, []int{1, 2, 0}) {
		t.Errorf("k = 1: order %v, want [1 2 0] (lowest share first)", got)
	}
	if got := order(3); !slices.Equal(got, []int{0, 1, 2}) {
		t.Errorf("k = 3: order %v, want [0 1 2] (highest utility first)", got)
	}
	if got := order(0); len(got) != 0 {
		t.Errorf("k = 0 and no job on the machine: picks %v, want none", got)
	}
	jobs[2].OnMachine = true
	if got := order(0); !slices.Equal(got, []int{2}) {
		t.Errorf("k = 0, job 2 on the machine: picks %v, want [2]", got)
	}
}

// Among jobs of equal share, the top K prefers the one with fewer tasks
// started and not finished: job 0's three tasks are all paused on other
// machines (share 0, as job 1's, which has started nothing); with k = 1,
// job 1 is the candidate, not the lower index (before the fix, job 0 —
// whose next task would pause in turn — kept job 1 out of the candidates).
func TestSelectTopKTieStarted(t *testing.T) {
	m := Seed004Machine()
	d := Vector{CPU: 1, Disk: 10}
	jobs := []PrismJob{
		{Running: [NumSides]int{3, 0}, Remaining: [NumSides]int{10, 0}, Starts: []PrismStart{{Side: MapSide, Local: true, Count: 7, Demand: d}}},
		{Remaining: [NumSides]int{1, 0}, Starts: []PrismStart{{Side: MapSide, Local: true, Count: 1, Demand: d}}},
	}
	s := mustPrismSelector(t, PrismConfig{Alpha: 1, Epsilon: 0.01, A: 0.1, K: 1, MaxPicks: 1})
	if p := s.Select(m, m, jobs); len(p) != 1 || p[0].Job != 1 {
		t.Fatalf("k = 1, shares 0 and 0, started 3 and 0: picks %+v, want job 1's map", p)
	}
	st := s.Stats()
	if st.Calls != 1 || st.Picks != 1 || st.StopMaxPicks != 1 || st.Valued != 1 {
		t.Errorf("stats %+v, want 1 call, 1 pick ended by maxpicks, 1 candidate valued", st)
	}
}

// PrismStats counts the rejections by reason: a paused phase that does not
// fit, a job whose start does not fit, a fitting candidate of utility ≤ 0.
func TestSelectStats(t *testing.T) {
	m := Vector{CPU: 4, Memory: 8, Disk: 100, Network: 125}
	jobs := []PrismJob{
		// On the machine: a paused phase too big for the free disk, and a
		// start that does not fit either.
		{OnMachine: true, Running: [NumSides]int{1, 0}, Remaining: [NumSides]int{2, 0}, Usage: Vector{Disk: 50},
			Paused: []PrismPaused{{Demand: Vector{Disk: 40}, Wait: 5}},
			Starts: []PrismStart{{Side: MapSide, Local: true, Count: 1, Demand: Vector{Disk: 40}}}},
		// The job with the largest share: its fitting start narrows nothing
		// and, with α = 0, has utility ≤ 0.
		{OnMachine: true, Running: [NumSides]int{2, 0}, Remaining: [NumSides]int{3, 0}, Usage: Vector{Disk: 90},
			Starts: []PrismStart{{Side: MapSide, Local: true, Count: 1, Demand: Vector{CPU: 1}}}},
	}
	s := mustPrismSelector(t, PrismConfig{Alpha: 0, Epsilon: 0.01, A: 0.1, K: 0})
	if p := s.Select(Vector{CPU: 4, Memory: 8, Disk: 30, Network: 125}, m, jobs); len(p) != 0 {
		t.Fatalf("picks %+v, want none", p)
	}
	want := PrismStats{Calls: 1, Valued: 3, NoFitPaused: 1, NoFitStart: 1, NotPositiveStart: 1, StopNotPositive: 1}
	if got := s.Stats(); got != want {
		t.Errorf("stats %+v, want %+v", got, want)
	}
}

// PrismConfig.Hold: free disk 20 MB/s; shares (disk) 0.5, 0.3, 0.1. Job
// 0's task, paused 10 s before a phase of 30 MB/s, does not fit: utility
// 0.1·10² + (0.4 − 0.7) = 9.7. Job 1 can start a map of 10 MB/s: 2/1 − 2/2
// + 0 (its share 0.4 stays inside the spread) = 1. Job 2 a task of 1 core
// and no disk: 1 + (0.4 − 0.25) = 1.15 (its share 0.1 → 0.25 narrows the
// spread). Without Hold, Alg. 1 as printed drops the paused phase and starts job
// 1's map (and job 2's task). With Hold, the paused phase (utility 9.7)
// holds 30 MB/s of the 20 free, so no phase using disk may start: job 1's
// map waits, job 2's task (no disk) starts.
func TestSelectHold(t *testing.T) {
	m := Seed004Machine()
	jobs := []PrismJob{
		{OnMachine: true, Usage: Vector{Disk: 50}, Running: [NumSides]int{1, 0}, Remaining: [NumSides]int{1, 0},
			Paused: []PrismPaused{{Demand: Vector{Disk: 30}, Wait: 10}}},
		{OnMachine: true, Usage: Vector{Disk: 30}, Running: [NumSides]int{1, 0}, Remaining: [NumSides]int{2, 0},
			Starts: []PrismStart{{Side: MapSide, Local: true, Count: 1, Demand: Vector{Disk: 10}}}},
		{OnMachine: true, Usage: Vector{Disk: 10}, Running: [NumSides]int{1, 0}, Remaining: [NumSides]int{2, 0},
			Starts: []PrismStart{{Side: MapSide, Local: true, Count: 1, Demand: Vector{CPU: 1}}}},
	}
	free := Vector{CPU: 4, Memory: 8, Disk: 20, Network: 125}
	jobsOf := func(p []PrismPick) []int {
		var o []int
		for _, x := range p {
			o = append(o, x.Job)
		}
		slices.Sort(o)
		return o
	}
	cfg := LegacyPrismConfig()
	if got := jobsOf(mustPrismSelector(t, cfg).Select(free, m, jobs)); !slices.Equal(got, []int{1, 2}) {
		t.Errorf("without hold: picks of jobs %v, want [1 2] (the paused phase is dropped)", got)
	}
	cfg.Hold = true
	s := mustPrismSelector(t, cfg)
	if got := jobsOf(s.Select(free, m, jobs)); !slices.Equal(got, []int{2}) {
		t.Errorf("hold: picks of jobs %v, want [2] (job 1's map would take the disk the paused phase waits for)", got)
	}
	if st := s.Stats(); st.Held != 1 {
		t.Errorf("hold: %d heartbeats held, want 1", st.Held)
	}
	// Once 30 MB/s are free, the held phase is the first pick.
	free[Disk] = 30
	if p := s.Select(free, m, jobs); len(p) == 0 || p[0].Job != 0 || p[0].Paused != 0 {
		t.Errorf("hold, 30 MB/s free: picks %+v, want job 0's paused phase first", p)
	}
}

// The bounded heap returns the same set as sorting all jobs.
func TestTopKMatchesSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for range 300 {
		n, k := 1+rng.IntN(60), rng.IntN(25)
		jobs := make([]PrismJob, n)
		for j := range jobs {
			jobs[j].Usage = Vector{CPU: float64(rng.IntN(5))}
			jobs[j].Running = [NumSides]int{rng.IntN(3), rng.IntN(2)}
			if rng.IntN(4) > 0 {
				jobs[j].Starts = []PrismStart{{Count: rng.IntN(2)}}
			}
		}
		s := mustPrismSelector(t, PrismConfig{Alpha: 1, Epsilon: 0.01, A: 0.1, K: k})
		s.reset(jobs, Vector{CPU: 4})
		s.topK(jobs)
		var got, all []int
		for _, h := range s.heap {
			got = append(got, int(h.j))
		}
		for j := range jobs {
			if s.canStart(j) {
				all = append(all, j)
			}
		}
		started := func(j int) int { return jobs[j].Running[MapSide] + jobs[j].Running[ReduceSide] }
		sort.SliceStable(all, func(a, b int) bool {
			x, y := all[a], all[b]
			return s.shares[x] < s.shares[y] || (s.shares[x] == s.shares[y] && started(x) < started(y))
		})
		want := all[:min(k, len(all))]
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("n=%d k=%d: heap %v, sort %v", n, k, got, want)
		}
	}
}

// On random heartbeats: admitted demand never exceeds the free capacity,
// a group never starts more tasks than it has, a paused task resumes at
// most once, every pick has a positive utility, and inputs are unchanged.
func TestSelectNeverExceedsCapacity(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	sels := []*PrismSelector{mustPrismSelector(t, PrismConfig{Alpha: 1, Epsilon: 0.01, A: 0.1, K: 5}),
		mustPrismSelector(t, PrismConfig{Alpha: 1, Epsilon: 0.01, A: 0.1, K: 5, Hold: true})}
	for it := range 1000 {
		s := sels[it%2]
		free := randPrismVector(rng, 8)
		jobs := randPrismJobs(rng, 1+rng.IntN(30))
		before := clonePrismJobs(jobs)
		picks := s.Select(free, free.Scale(10), jobs)
		var sum Vector
		started := map[[2]int]int{}
		resumed := map[[2]int]bool{}
		for _, p := range picks {
			sum = sum.Add(p.Demand)
			if !(p.Utility > 0) {
				t.Fatalf("heartbeat %d: pick %+v has utility ≤ 0", it, p)
			}
			if p.Start >= 0 {
				key := [2]int{p.Job, p.Start}
				started[key]++
				if started[key] > jobs[p.Job].Starts[p.Start].Count {
					t.Fatalf("heartbeat %d: group %v started %d tasks of %d", it, key, started[key], jobs[p.Job].Starts[p.Start].Count)
				}
			} else {
				key := [2]int{p.Job, p.Paused}
				if resumed[key] {
					t.Fatalf("heartbeat %d: paused task %v resumed twice", it, key)
				}
				resumed[key] = true
			}
		}
		for d := range NumDims {
			if sum[d] > free[d]*(1+1e-12) {
				t.Fatalf("heartbeat %d: admitted %v > free %v (%s)", it, sum, free, Dim(d))
			}
		}
		if !reflect.DeepEqual(jobs, before) {
			t.Fatalf("heartbeat %d: Select modified its input", it)
		}
	}
}

func TestSelectMaxPicks(t *testing.T) {
	m := Seed004Machine()
	job := PrismJob{Remaining: [NumSides]int{8, 0}, Starts: []PrismStart{{Side: MapSide, Local: true, Count: 8, Demand: Vector{CPU: 0.1}}}}
	s := mustPrismSelector(t, PrismConfig{Alpha: 1, Epsilon: 0.01, A: 0.1, K: 1, MaxPicks: 3})
	if got := len(s.Select(m, m, []PrismJob{job})); got != 3 {
		t.Errorf("MaxPicks 3: %d picks", got)
	}
	s = mustPrismSelector(t, LegacyPrismConfig())
	if got := len(s.Select(m, m, []PrismJob{job})); got != 8 {
		t.Errorf("no bound: %d picks, want all 8 tasks", got)
	}
}

func randPrismVector(rng *rand.Rand, scale float64) Vector {
	var v Vector
	for d := range v {
		v[d] = scale * rng.Float64()
	}
	return v
}

func randPrismJobs(rng *rand.Rand, n int) []PrismJob {
	jobs := make([]PrismJob, n)
	for j := range jobs {
		job := &jobs[j]
		job.Weight = float64(rng.IntN(3))
		job.Usage = randPrismVector(rng, 10)
		for s := range NumSides {
			job.Remaining[s] = rng.IntN(20)
			job.Running[s] = rng.IntN(job.Remaining[s] + 1)
		}
		job.OnMachine = rng.IntN(4) == 0
		for range rng.IntN(3) {
			job.Starts = append(job.Starts, PrismStart{Side: Side(rng.IntN(2)), Local: rng.IntN(2) == 0, Count: rng.IntN(4), Demand: randPrismVector(rng, 2)})
		}
		if job.OnMachine {
			for range rng.IntN(3) {
				job.Paused = append(job.Paused, PrismPaused{Demand: randPrismVector(rng, 2), Wait: 20 * rng.Float64()})
			}
		}
	}
	return jobs
}

// benchHeartbeats builds heartbeats of a busy 100-machine cluster of seed
// 004 §6 machines with n running jobs of the PUMA mix (Table 2) and the
// Fig. 8 sort profile (other classes: the fallback with the sort demand):
// each heartbeat comes from a machine with about half its capacity free,
// 8 jobs with tasks on it (2 paused tasks each), and every job able to
// start a local or a non-local map or reduce task.
func benchHeartbeats(n, count int) (free, base Vector, beats [][]PrismJob) {
	rng := rand.New(rand.NewPCG(15, 4))
	m := Seed004Machine()
	base = m.Scale(100)
	srt, _ := DefaultProfiles().Lookup("sort")
	mapD := srt.Sides[MapSide][0]
	redD := srt.Sides[ReduceSide][0].DemandOn(true)
	mix := PUMAMix().Jobs
	free = m.Scale(0.5)
	for range count {
		jobs := make([]PrismJob, n)
		for j := range jobs {
			mj := mix[j%len(mix)]
			job := &jobs[j]
			job.Weight = 1
			job.Remaining = [NumSides]int{rng.IntN(mj.Maps + 1), mj.Reduces}
			job.Running = [NumSides]int{rng.IntN(job.Remaining[MapSide] + 1), 0}
			job.Usage = mapD.DemandOn(true).Scale(float64(job.Running[MapSide]))
			job.Starts = []PrismStart{
				{Side: MapSide, Local: false, Count: 3, Demand: mapD.DemandOn(false)},
				{Side: MapSide, Local: true, Count: rng.IntN(2), Demand: mapD.DemandOn(true)},
				{Side: ReduceSide, Local: true, Count: 2, Demand: redD},
			}
			if j%(n/8) == 0 {
				job.OnMachine = true
				job.Paused = []PrismPaused{{Demand: srt.Sides[MapSide][1].Demand, Wait: 5 * rng.Float64()}, {Demand: redD, Wait: rng.Float64()}}
			}
		}
		beats = append(beats, jobs)
	}
	return free, base, beats
}

// Seed 004 §5.2: k = 20; issue 15: ≤ 1 ms median per heartbeat decision for
// 1,000 running jobs.
func BenchmarkPrismSelect1000Jobs(b *testing.B) {
	free, base, beats := benchHeartbeats(1000, 32)
	s := mustPrismSelector(b, LegacyPrismConfig())
	var times []time.Duration
	picks := 0
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		t0 := time.Now()
		picks += len(s.Select(free, base, beats[i%len(beats)]))
		times = append(times, time.Since(t0))
		i++
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2])/1e3, "µs-median/decision")
	b.ReportMetric(float64(times[len(times)*99/100])/1e3, "µs-p99/decision")
	b.ReportMetric(float64(picks)/float64(i), "picks/decision")
}
