package pipeline

import (
	"math"
	"testing"

	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/cluster/task/coshh"
)

// table4Work is the mean work of a job drawn from classes (Table 4's map
// plus reduce task-seconds, weighted by the class's jobs).
func table4Work(classes []fbClass) float64 {
	work, jobs := 0.0, 0
	for _, c := range classes {
		work += float64(c.jobs) * (c.mapSec + c.redSec)
		jobs += c.jobs
	}
	return work / float64(jobs)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// policyMeans averages COSHHRunMetrics over seeds, by policy.
type policyMeans map[string]*struct{ dis, fair, loc, mean float64 }

func (pm policyMeans) add(name string, dis, fair, loc, mean, n float64) {
	x := pm[name]
	if x == nil {
		x = &struct{ dis, fair, loc, mean float64 }{}
		pm[name] = x
	}
	x.dis += dis / n
	x.fair += fair / n
	x.loc += loc / n
	x.mean += mean / n
}

// Seed 003 Table 7 under the paper's own description of its Fair sharing
// (§5.3; validation.COSHHPaperBaseline: one pool per user with Table 5's
// min share and weight, "first satisfies the minimum shares", and the
// "sticky slot problem" of Fair without delay scheduling, which §8 cites
// as a separate, complementary algorithm), FIFO as Hadoop 1's
// JobQueueTaskScheduler, Table 3's "Mem" columns read as storage
// (shapeRun.storage), workload draws 1–10 (the draws' loads differ by 10×,
// so the order is taken on the mean of ten as the paper's figures are one
// experiment's). Holds:
//   - Dissatisfaction FIFO > COSHH > Fair at every draw (§5.1 at each job
//     completion); Fair's mean below 0.1 (paper 0.083) and COSHH's within a
//     factor 2 of the paper's 0.294;
//   - Fairness FIFO > Fair > COSHH in the mean (§5.1 literally, every
//     user of the run counted);
//   - Locality FIFO > Fair at every draw, FIFO > Fair > COSHH in the mean
//     (paper 97.7 / 95.7 / 95.0), each mean within 5 points of the
//     paper's, and FIFO's and Fair's within 5 points at every draw.
//
// (The whole order holds at 5 of the 10 draws for locality and 7 for
// fairness, logged: COSHH's locality swings from 85 % to 97 % with the
// draw.)
//
// Does not hold (logged): Fig. 5 (Fair's mean completion is the lowest,
// FIFO's the highest), the magnitudes of FIFO's dissatisfaction (0.2–2.4,
// paper 10.782) and of Fairness (41–79, paper 0.7–6.6).
func TestSeed003Table7Paper(t *testing.T) {
	if testing.Short() {
		t.Skip("task-level runs of 100 jobs")
	}
	const draws = 10
	pm := policyMeans{}
	lo, fo := 0, 0 // draws with Table 7's locality and fairness orders
	for seed := uint64(1); seed <= draws; seed++ {
		m := coshhShapeOf(t, shapeRun{seed: seed, storage: true, paperFair: true})
		logTable7(t, "paper's Fair, storage:", seed, m)
		checkDisOrder(t, "paper's Fair, storage", seed, m)
		if !(m["fifo"].Locality > m["fair"].Locality) {
			t.Errorf("paper's Fair seed %d: locality FIFO %.1f%%, Fair %.1f%%: FIFO's is not above Fair's (Table 7: 97.7 / 95.7)", seed, m["fifo"].Locality, m["fair"].Locality)
		}
		lo += b2i(m["fifo"].Locality > m["fair"].Locality && m["fair"].Locality > m["coshh"].Locality)
		fo += b2i(m["fifo"].PaperFairness > m["fair"].PaperFairness && m["fair"].PaperFairness > m["coshh"].PaperFairness)
		for name, x := range m {
			pm.add(name, x.PaperDissatisfaction, x.PaperFairness, x.Locality, x.MeanCompletion, draws)
			if p := table7[name]; name != "coshh" && !(math.Abs(x.Locality-p.loc) <= 5) {
				t.Errorf("paper's Fair seed %d: %s locality %.1f%% is more than 5 points from Table 7's %.1f%%", seed, name, x.Locality, p.loc)
			}
		}
	}
	fifo, fair, co := pm["fifo"], pm["fair"], pm["coshh"]
	t.Logf("paper's Fair, storage, mean of draws 1–%d: Fig. 5 mean completion FIFO / Fair / COSHH %.0f / %.0f / %.0f s (paper: COSHH −31%% vs FIFO, −42%% vs Fair); dissatisfaction %.4f / %.4f / %.4f (paper 10.782 / 0.083 / 0.294); fairness %.2f / %.2f / %.2f (paper 6.646 / 2.537 / 0.663); locality %.2f / %.2f / %.2f %% (paper 97.7 / 95.7 / 95.0)",
		draws, fifo.mean, fair.mean, co.mean, fifo.dis, fair.dis, co.dis, fifo.fair, fair.fair, co.fair, fifo.loc, fair.loc, co.loc)
	t.Logf("paper's Fair, storage: Table 7's whole order at %d of %d draws for locality, %d for fairness; FIFO's locality above Fair's and Dissatisfaction's order at every draw", lo, draws, fo)
	if !(fifo.fair > fair.fair && fair.fair > co.fair) {
		t.Errorf("mean fairness FIFO %.2f, Fair %.2f, COSHH %.2f: not FIFO > Fair > COSHH (Table 7)", fifo.fair, fair.fair, co.fair)
	}
	if !(fifo.loc > fair.loc && fair.loc > co.loc) {
		t.Errorf("mean locality FIFO %.2f, Fair %.2f, COSHH %.2f %%: not FIFO > Fair > COSHH (Table 7)", fifo.loc, fair.loc, co.loc)
	}
	for name, x := range pm {
		if p := table7[name].loc; !(math.Abs(x.loc-p) <= 5) {
			t.Errorf("mean %s locality %.2f%% is more than 5 points from Table 7's %.1f%%", name, x.loc, p)
		}
	}
	if !(fair.dis < 0.1) {
		t.Errorf("Fair's mean dissatisfaction %.4f is not below 0.1 (Table 7: 0.083)", fair.dis)
	}
	if p := table7["coshh"].dis; !(co.dis > p/2 && co.dis < 2*p) {
		t.Errorf("COSHH's mean dissatisfaction %.4f is not within a factor 2 of Table 7's %.3f", co.dis, p)
	}
}

// Seed 003's Yahoo! experiment (Fig. 6, Table 6) at the Facebook
// experiment's offered load: §5.2 derives both arrival rates from the
// traces and the jobs submitted but prints neither, and the Yahoo! classes
// are table4Work's 14.6 times the Facebook ones, so the mean gap is 2,000 s
// times that ratio (≈ 29,000 s) rather than the Facebook experiment's
// 2,000 s (TestSeed003Yahoo, 10⁶–10⁷ s completions). Table 3 read as
// storage, the paper's Fair (validation.COSHHPaperBaseline), draws 1–3.
// Holds, every draw: Table 6's Dissatisfaction order FIFO > COSHH > Fair
// (8.618 / 1.209 / 7.16e-4) and every policy's locality within 5 points of
// Table 6's (95.6 / 97.4 / 96.5 %). Does not hold (logged): Table 6's
// Fairness order (FIFO > COSHH > Fair; here Fair above COSHH) and Fig. 6
// (Fair's mean completion the lowest; the largest class, 65·10⁶
// task-seconds, keeps FIFO's mean at 10⁶ s).
func TestSeed003YahooLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("task-level runs of 100 jobs")
	}
	ratio := table4Work(yahooTable4) / table4Work(fbTable4)
	table6 := map[string]float64{"fifo": 95.6, "fair": 97.4, "coshh": 96.5}
	for seed := uint64(1); seed <= 3; seed++ {
		m := coshhShapeOf(t, shapeRun{classes: yahooTable4, users: yahooUsers, seed: seed, storage: true, paperFair: true, gap: 2000 * ratio})
		fifo, fair, co := m["fifo"], m["fair"], m["coshh"]
		t.Logf("Yahoo! at the Facebook load (mean gap %.0f s, work ratio %.1f), seed %d: Fig. 6 mean completion FIFO / Fair / COSHH %.0f / %.0f / %.0f s (paper −74%% and −80%% for COSHH); dissatisfaction %.4f / %.4f / %.4f (paper 8.618 / 7.16e-4 / 1.209); fairness %.2f / %.2f / %.2f (paper 4.974 / 0.965 / 2.779); locality %.1f / %.1f / %.1f %% (paper 95.6 / 97.4 / 96.5)",
			2000*ratio, ratio, seed, fifo.MeanCompletion, fair.MeanCompletion, co.MeanCompletion, fifo.PaperDissatisfaction, fair.PaperDissatisfaction, co.PaperDissatisfaction,
			fifo.PaperFairness, fair.PaperFairness, co.PaperFairness, fifo.Locality, fair.Locality, co.Locality)
		if !(fifo.PaperDissatisfaction > co.PaperDissatisfaction && co.PaperDissatisfaction > fair.PaperDissatisfaction) {
			t.Errorf("Yahoo! seed %d: dissatisfaction FIFO %.4f, COSHH %.4f, Fair %.4f: not FIFO > COSHH > Fair (Table 6)", seed, fifo.PaperDissatisfaction, co.PaperDissatisfaction, fair.PaperDissatisfaction)
		}
		for name, p := range table6 {
			if l := m[name].Locality; !(math.Abs(l-p) <= 5) {
				t.Errorf("Yahoo! seed %d: %s locality %.1f%% is more than 5 points from Table 6's %.1f%%", seed, name, l, p)
			}
		}
	}
}

// Seed 003 §5.1's Dissatisfaction(t) is at most the sum of the weights of
// the users with a min share (a user's term, (min_share − slots) /
// min_share × weight, is largest with no slots). With Table 5's users and
// the weight read as the priority that bound is 10 (Facebook) and 9
// (Yahoo!), reached when every such user waits with no slot
// (COSHHShareMetrics); Table 7's FIFO figure, 10.782, is above it, so the
// paper's Dissatisfaction(T) is neither a value nor a mean of values of
// Dissatisfaction(t) with weight = priority: its weights or its
// aggregation over time are not the printed ones, and magnitudes cannot
// be matched (Table 6's 8.618 is below Yahoo!'s bound).
func TestSeed003DissatisfactionBound(t *testing.T) {
	fb := cluster.DefaultSpec().Users
	for _, tc := range []struct {
		name  string
		users []cluster.User
		bound float64
		paper float64 // the paper's FIFO figure
		above bool    // whether the paper's figure passes the bound
	}{
		{"Facebook (Table 7)", fb, 10, 10.782, true},
		{"Yahoo! (Table 6)", yahooUsers, 9, 8.618, false},
	} {
		us := make([]coshh.COSHHUser, len(tc.users))
		for i, u := range tc.users {
			us[i] = coshh.COSHHUser{MinShare: u.MinShare, Weight: u.EffectiveWeight()}
		}
		m := coshh.NewCOSHHShareMetrics(us, 0)
		for u := range us {
			m.Update(1, u, 0, true) // every user waits with no slot
		}
		dis, _, _ := m.Now()
		t.Logf("%s: largest Dissatisfaction(t) with weight = priority %.3f; the paper's FIFO %.3f", tc.name, dis, tc.paper)
		if dis != tc.bound {
			t.Errorf("%s: Dissatisfaction with every user waiting = %v, want %v", tc.name, dis, tc.bound)
		}
		if (tc.paper > dis) != tc.above {
			t.Errorf("%s: the paper's %.3f against the bound %.3f: above = %v, want %v", tc.name, tc.paper, dis, tc.paper > dis, tc.above)
		}
	}
}

// Seed 003's Fig. 5 and Table 7's locality pull Table 3's memory rule in
// opposite directions. Read literally (a job whose data does not fit R2's,
// R5's or R6's 400 KB runs MaxCOSHHTypeScale = 1,000 times slower there)
// FIFO and Fair run nearly every map on R3, which holds half the blocks
// (3 replicas of 6 machines), so their locality is ≈ 50 % and completions
// 10⁵–10⁶ s; read as storage (no slowdown) COSHH's LP sees rates
// proportional to exec_rate, its suggested sets are an arbitrary vertex,
// and Fair wins Fig. 5 (the LP sends the small jobs, 63 % of them, to
// one slow machine: ~10⁴ s each). Between the two, with the slowdown S on
// the simulated durations only (shapeRun.memScale; COSHH's plan as read
// literally) at a mean gap of 16,000 s (where COSHH's plan is not
// overloaded), draws 1–3, the paper's Fair: COSHH's gain over Fair rises
// with S (S = 1: COSHH 17 % worse; S = 10: 46 % better) and FIFO's
// locality falls with it (94 % to 67 %), and no S gives both Fig. 5's gain
// over Fair (≥ 30 %; paper 42 %) and FIFO's locality within 5 points of
// Table 7's 97.7 %. The test fails when that stops being so.
func TestSeed003MemoryRuleTradeoff(t *testing.T) {
	if testing.Short() {
		t.Skip("task-level runs of 100 jobs")
	}
	const draws = 3
	prevGain, prevLoc := math.Inf(-1), math.Inf(1)
	for _, s := range []float64{1, 2, 3, 10, 30} {
		pm := policyMeans{}
		for seed := uint64(1); seed <= draws; seed++ {
			m := coshhShapeOf(t, shapeRun{seed: seed, paperFair: true, gap: 16000, memScale: s})
			for name, x := range m {
				pm.add(name, x.PaperDissatisfaction, x.PaperFairness, x.Locality, x.MeanCompletion, draws)
			}
		}
		fifo, fair, co := pm["fifo"], pm["fair"], pm["coshh"]
		gain := 1 - co.mean/fair.mean
		t.Logf("memory rule S = %g, mean gap 16,000 s, mean of draws 1–%d: mean completion FIFO / Fair / COSHH %.0f / %.0f / %.0f s (COSHH %+.0f%% vs FIFO, %+.0f%% vs Fair; paper −31%%, −42%%); locality %.1f / %.1f / %.1f %% (paper 97.7 / 95.7 / 95.0)",
			s, draws, fifo.mean, fair.mean, co.mean, 100*(co.mean/fifo.mean-1), -100*gain, fifo.loc, fair.loc, co.loc)
		if gain >= 0.3 && math.Abs(fifo.loc-table7["fifo"].loc) <= 5 {
			t.Errorf("S = %g: COSHH %.0f%% below Fair and FIFO's locality %.1f%% within 5 points of Table 7: both hold, update FIDELITY.md", s, 100*gain, fifo.loc)
		}
		if !(gain > prevGain && fifo.loc < prevLoc) {
			t.Errorf("S = %g: COSHH's gain over Fair %.3f (before %.3f) and FIFO's locality %.1f%% (before %.1f%%): not a trade-off", s, gain, prevGain, fifo.loc, prevLoc)
		}
		prevGain, prevLoc = gain, fifo.loc
	}
}

// Seed 003 Table 7 and Fig. 5 with Table 3's slow machines calibrated on
// Table 7's locality. With R1, R4 and R6 at 1/100 of the fast machines'
// speed (5 vs 500 MHz), 1 block in C(6,3) = 20 has every replica on them
// and is run elsewhere by any policy that does not wait ~100 task
// lengths, so FIFO's and Fair's locality stays at ≈ 95 %
// (TestSeed003Table7Paper: 94.3 / 92.9 %), below Table 7's 97.7 / 95.7 %
// (and every baseline figure of Tables 6, 8 and 9 is ≥ 93.4 %): in the
// paper's simulator those machines ran their local maps far faster than
// 1/100 (a 5 MHz CPU need not make a map reading R1's or R4's 9 Gbps
// storage 100× slower; the paper does not say how its simulator applied
// the rate). With their exec rate at 0.1, 0.3 and 1
// (shapeRun.slowRate), storage reading, the paper's Fair, draws 1–10, in
// the mean of the draws, at every rate: Table 7's order for all three
// metrics (Dissatisfaction FIFO > COSHH > Fair, Fairness FIFO > Fair >
// COSHH, Locality FIFO > Fair > COSHH), every locality within 5 points
// of Table 7's, and COSHH's mean completion the lowest (Fig. 5's winner);
// FIFO's and Fair's locality rise with the rate. Does not hold (logged):
// Fair the worst in Fig. 5 (FIFO is, 3–5× Fair) and the magnitudes.
func TestSeed003SlowMachines(t *testing.T) {
	if testing.Short() {
		t.Skip("task-level runs of 100 jobs")
	}
	const draws = 10
	prevFIFO, prevFair := 0.0, 0.0
	for _, rate := range []float64{0.1, 0.3, 1} {
		pm := policyMeans{}
		lo, fo, do, win := 0, 0, 0, 0
		for seed := uint64(1); seed <= draws; seed++ {
			m := coshhShapeOf(t, shapeRun{seed: seed, storage: true, paperFair: true, slowRate: rate})
			fifo, fair, co := m["fifo"], m["fair"], m["coshh"]
			lo += b2i(fifo.Locality > fair.Locality && fair.Locality > co.Locality)
			fo += b2i(fifo.PaperFairness > fair.PaperFairness && fair.PaperFairness > co.PaperFairness)
			do += b2i(fifo.PaperDissatisfaction > co.PaperDissatisfaction && co.PaperDissatisfaction > fair.PaperDissatisfaction)
			win += b2i(co.MeanCompletion < fifo.MeanCompletion && co.MeanCompletion < fair.MeanCompletion)
			for name, x := range m {
				pm.add(name, x.PaperDissatisfaction, x.PaperFairness, x.Locality, x.MeanCompletion, draws)
			}
		}
		fifo, fair, co := pm["fifo"], pm["fair"], pm["coshh"]
		t.Logf("slow machines at exec rate %g, mean of draws 1–%d: Fig. 5 mean completion FIFO / Fair / COSHH %.0f / %.0f / %.0f s (COSHH %+.0f%% vs FIFO, %+.0f%% vs Fair; paper −31%%, −42%%; COSHH lowest at %d draws); dissatisfaction %.4f / %.4f / %.4f (order at %d draws); fairness %.2f / %.2f / %.2f (order at %d draws); locality %.2f / %.2f / %.2f %% (order at %d draws; paper 97.7 / 95.7 / 95.0)",
			rate, draws, fifo.mean, fair.mean, co.mean, 100*(co.mean/fifo.mean-1), 100*(co.mean/fair.mean-1), win, fifo.dis, fair.dis, co.dis, do, fifo.fair, fair.fair, co.fair, fo, fifo.loc, fair.loc, co.loc, lo)
		if !(fifo.dis > co.dis && co.dis > fair.dis) {
			t.Errorf("rate %g: mean dissatisfaction FIFO %.4f, COSHH %.4f, Fair %.4f: not FIFO > COSHH > Fair", rate, fifo.dis, co.dis, fair.dis)
		}
		if !(fifo.fair > fair.fair && fair.fair > co.fair) {
			t.Errorf("rate %g: mean fairness FIFO %.2f, Fair %.2f, COSHH %.2f: not FIFO > Fair > COSHH", rate, fifo.fair, fair.fair, co.fair)
		}
		if !(fifo.loc > fair.loc && fair.loc > co.loc) {
			t.Errorf("rate %g: mean locality FIFO %.2f, Fair %.2f, COSHH %.2f %%: not FIFO > Fair > COSHH", rate, fifo.loc, fair.loc, co.loc)
		}
		for name, x := range pm {
			if p := table7[name].loc; !(math.Abs(x.loc-p) <= 5) {
				t.Errorf("rate %g: mean %s locality %.2f%% is more than 5 points from Table 7's %.1f%%", rate, name, x.loc, p)
			}
		}
		if !(co.mean < fifo.mean && co.mean < fair.mean) {
			t.Errorf("rate %g: mean completion COSHH %.0f s, FIFO %.0f s, Fair %.0f s: COSHH's is not the lowest (Fig. 5)", rate, co.mean, fifo.mean, fair.mean)
		}
		if !(fifo.loc > prevFIFO && fair.loc > prevFair) {
			t.Errorf("rate %g: locality FIFO %.2f, Fair %.2f %% did not rise from %.2f, %.2f", rate, fifo.loc, fair.loc, prevFIFO, prevFair)
		}
		prevFIFO, prevFair = fifo.loc, fair.loc
	}
}
