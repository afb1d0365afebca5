package pipeline

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/schedplan/schedplan/classify"
	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/cluster/task"
	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/estimate"
	"github.com/schedplan/schedplan/lp"
)

// fbClass is one Facebook job category of seed 003, Table 4 (Chen et al.):
// jobs in the trace, input and shuffle bytes, map and reduce task-seconds.
type fbClass struct {
	name           string
	jobs           int
	input, shuffle int64
	output         int64
	mapSec, redSec float64
}

var fbTable4 = []fbClass{
	{"small jobs", 126, 21e3, 0, 871e3, 20, 0},
	{"fast data load", 25, 381e3, 0, 1.9e9, 6079, 0},
	{"slow data load", 3, 10e3, 0, 4.2e9, 26321, 0},
	{"large data load", 10, 405e3, 0, 447e9, 66657, 0},
	{"huge data load", 3, 446e3, 0, 1.1e12, 125662, 0},
	{"fast aggregate", 10, 230e9, 8.8e9, 491e6, 104338, 66760},
	{"aggregate and expand", 6, 1.9e12, 502e6, 2.6e9, 348942, 76736},
	{"expand and aggregate", 2, 418e9, 2.5e12, 45e9, 1076089, 974395},
	{"data transform", 14, 255e9, 788e9, 1.6e9, 384562, 338050},
	{"data summary", 1, 7.6e12, 51e9, 104e3, 4843452, 853911},
}

// fbWorkload draws n jobs of seed 003 §5.2's Facebook experiment: classes
// in Table 4's proportions, user U_{c+1} submitting the jobs of class c
// (Table 5's users, "each user submits jobs from one of the job classes"),
// Poisson arrivals of mean gap seconds.
func fbWorkload(n int, gap float64, seed uint64) *data.Jobs {
	rng := rand.New(rand.NewPCG(seed, 3))
	total := 0
	for _, c := range fbTable4 {
		total += c.jobs
	}
	j := &data.Jobs{Source: "seed003-table4"}
	for k := range fbTable4 {
		j.User.Values = append(j.User.Values, fmt.Sprintf("U%d", k+1))
	}
	t := 0.0
	for i := 0; i < n; i++ {
		x, c := rng.IntN(total), 0
		for x >= fbTable4[c].jobs {
			x -= fbTable4[c].jobs
			c++
		}
		cl := fbTable4[c]
		j.ID.Append(fmt.Sprintf("j%d", i))
		j.Submit = append(j.Submit, t)
		t += rng.ExpFloat64() * gap
		j.User.Codes = append(j.User.Codes, int32(c))
		j.InputBytes.Values = append(j.InputBytes.Values, cl.input)
		j.ShuffleBytes.Values = append(j.ShuffleBytes.Values, cl.shuffle)
		j.OutputBytes.Values = append(j.OutputBytes.Values, cl.output)
		j.MapTaskSeconds.Values = append(j.MapTaskSeconds.Values, cl.mapSec)
		j.ReduceTaskSeconds.Values = append(j.ReduceTaskSeconds.Values, cl.redSec)
	}
	return j
}

// coshhShape runs seed 003 §5's experiment: 100 Facebook jobs (Table 4) of
// Table 5's users on Table 3's cluster under FIFO, Fair and COSHH, the
// plan classified and solved with execution-time errors U[−I, I] (§5.4)
// while the simulated durations stay exact.
func coshhShape(t *testing.T, errI float64, seed uint64) map[string]*task.COSHHRunMetrics {
	t.Helper()
	spec := cluster.DefaultSpec()
	j := fbWorkload(100, 2000, seed)
	sizes, _, err := estimate.Sizes(j, estimate.SizeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	opt := classify.Options{K: 6, Seed: 1}
	if errI > 0 {
		opt.TimeErrors = estimate.ErrorModel{Kind: estimate.Uniform, I: errI}
	}
	prim, sec, err := classify.COSHH(j, sizes, spec, opt)
	if err != nil {
		t.Fatal(err)
	}
	psol, err := COSHHSolve(prim, spec, lp.COSHHOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ssol, err := COSHHSolve(sec, spec, lp.COSHHOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var shapes []task.Shape
	for i := 0; i < j.Len(); i++ {
		ms, _ := j.MapTaskSeconds.At(i)
		rs, _ := j.ReduceTaskSeconds.At(i)
		shapes = append(shapes, task.Shape{ID: i, Arrival: j.Submit[i], User: j.UserAt(i), MapSeconds: ms, ReduceSeconds: rs})
	}
	jobs, err := task.Synthesize(shapes, task.SynthOptions{Skew: 0.5, Seed: 1, TaskSeconds: 300, MapContainers: 1, ReduceContainers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if err := COSHHTypeScales(jobs, j, sizes, spec, 1, 0); err != nil {
		t.Fatal(err)
	}
	cl := COSHHTaskCluster(spec)
	users := COSHHUsers(spec)
	out := map[string]*task.COSHHRunMetrics{}
	for _, name := range []string{"fifo", "fair", "coshh"} {
		var p task.Policy
		if name == "coshh" {
			if p, err = NewCOSHHPolicy(j, sizes, spec, prim, sec, psol, ssol, 0); err != nil {
				t.Fatal(err)
			}
		} else if p, err = task.ParsePolicy(name); err != nil {
			t.Fatal(err)
		}
		m, _, err := task.SimulateCOSHHMetrics(context.Background(), jobs, cl, p, users, 1, task.Options{Observer: &task.Checker{}})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		t.Logf("I=%.0f%% %-5s end %.0f s, mean completion %.0f s, dissatisfaction %.3f, fairness %.3f, locality %.1f%%, overhead %+v",
			100*errI, name, m.End, m.MeanCompletion, m.Dissatisfaction, m.Fairness, m.Locality, m.Overhead)
		out[name] = m
	}
	// A common horizon for the time averages (seed 003 compares
	// Dissatisfaction(T) at one T): the last completion of any run.
	horizon := 0.0
	for _, m := range out {
		horizon = math.Max(horizon, m.End)
	}
	for _, name := range []string{"fifo", "fair", "coshh"} {
		m := out[name]
		m.Dissatisfaction, m.Fairness = m.Shares.Dissatisfaction(horizon), m.Shares.Fairness(horizon)
		t.Logf("I=%.0f%% %-5s over [0, %.0f s]: dissatisfaction %.4f, fairness %.4f", 100*errI, name, horizon, m.Dissatisfaction, m.Fairness)
	}
	return out
}

// Seed 003 §5.3 (Fig. 5, Table 7): on the Facebook workload COSHH has the
// lowest mean completion time, a Dissatisfaction below FIFO's, and a
// Locality close to Fair's.
func TestCOSHHShapeFacebook(t *testing.T) {
	if testing.Short() {
		t.Skip("task-level runs of 100 jobs")
	}
	for _, seed := range []uint64{1, 4, 7} {
		coshhShapeFacebook(t, seed)
	}
}

func coshhShapeFacebook(t *testing.T, seed uint64) {
	m := coshhShape(t, 0, seed)
	fifo, fair, co := m["fifo"], m["fair"], m["coshh"]
	if !(co.MeanCompletion < fifo.MeanCompletion && co.MeanCompletion < fair.MeanCompletion) {
		t.Errorf("seed %d: mean completion: COSHH %.0f s, FIFO %.0f s, Fair %.0f s: COSHH is not the lowest", seed, co.MeanCompletion, fifo.MeanCompletion, fair.MeanCompletion)
	}
	if !(co.Dissatisfaction <= fifo.Dissatisfaction) {
		t.Errorf("seed %d: dissatisfaction: COSHH %.3f above FIFO %.3f", seed, co.Dissatisfaction, fifo.Dissatisfaction)
	}
	// "The locality of COSHH is close to, and is in most cases better than
	// the Fair sharing algorithm" (§5.3): not more than 5 points below.
	if !(co.Locality >= fair.Locality-5) {
		t.Errorf("seed %d: locality: COSHH %.1f%%, more than 5 points below Fair's %.1f%%", seed, co.Locality, fair.Locality)
	}
	if co.Overhead.Picks == 0 || co.Overhead.Arrivals != 100 {
		t.Errorf("seed %d: overhead %+v: want 100 arrivals and some picks", seed, co.Overhead)
	}
}

// Seed 003 §5.4 (Fig. 9): with execution-time errors up to 40% in the
// classification and the LP, COSHH's mean completion time stays below
// FIFO's and Fair's.
func TestCOSHHShapeErrors(t *testing.T) {
	if testing.Short() {
		t.Skip("task-level runs of 100 jobs")
	}
	for _, seed := range []uint64{1, 4, 7} {
		m := coshhShape(t, 0.4, seed)
		fifo, fair, co := m["fifo"], m["fair"], m["coshh"]
		if !(co.MeanCompletion < fifo.MeanCompletion && co.MeanCompletion < fair.MeanCompletion) {
			t.Errorf("seed %d, I = 40%%: mean completion: COSHH %.0f s, FIFO %.0f s, Fair %.0f s", seed, co.MeanCompletion, fifo.MeanCompletion, fair.MeanCompletion)
		}
	}
}

// BenchmarkCOSHHReplan times what a re-classification of seed 003's Alg. 1
// costs: classifying 1,000 jobs of the Table 4 mix (k = 10) and solving the
// secondary classification's LP (a cold solve; no warm start), in
// ms/replan; ms/lp-solve includes building the LP.
func BenchmarkCOSHHReplan(b *testing.B) {
	spec := cluster.DefaultSpec()
	j := fbWorkload(1000, 2000, 1)
	sizes, _, err := estimate.Sizes(j, estimate.SizeOptions{})
	if err != nil {
		b.Fatal(err)
	}
	var lpNs int64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_, sec, err := classify.COSHH(j, sizes, spec, classify.Options{K: 10, Seed: 1})
		if err != nil {
			b.Fatal(err)
		}
		t0 := time.Now()
		if _, err := COSHHSolve(sec, spec, lp.COSHHOptions{}); err != nil {
			b.Fatal(err)
		}
		lpNs += time.Since(t0).Nanoseconds()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/1e6/float64(b.N), "ms/replan")
	b.ReportMetric(float64(lpNs)/1e6/float64(b.N), "ms/lp-solve")
}
