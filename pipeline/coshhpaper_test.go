package pipeline

import (
	"math"
	"testing"
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
//   - Locality FIFO > Fair > COSHH in the mean (paper 97.7 / 95.7 / 95.0),
//     each mean within 5 points of the paper's, and FIFO's and Fair's
//     within 5 points at every draw.
//
// Does not hold (logged): Fig. 5 (Fair's mean completion is the lowest,
// FIFO's the highest), the magnitudes of FIFO's dissatisfaction (0.2–3.5,
// paper 10.782) and of Fairness (40–80, paper 0.7–6.6).
func TestSeed003Table7Paper(t *testing.T) {
	if testing.Short() {
		t.Skip("task-level runs of 100 jobs")
	}
	const draws = 10
	pm := policyMeans{}
	for seed := uint64(1); seed <= draws; seed++ {
		m := coshhShapeOf(t, shapeRun{seed: seed, storage: true, paperFair: true})
		logTable7(t, "paper's Fair, storage:", seed, m)
		checkDisOrder(t, "paper's Fair, storage", seed, m)
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
