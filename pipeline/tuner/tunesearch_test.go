package tuner

import (
	"context"
	"encoding/json"
	"math"
	"reflect"
	"testing"

	"github.com/schedplan/schedplan/cluster/sim"
)

// bowl is a synthetic scorer: LAS_MQ has its minimum at α0 = 7, k = 5,
// p = 3, decay = 0.3 with PS inside a level; every other policy scores 2.
func bowl(_ context.Context, spec string, _ *ScoreWindow, _ bool) (Score, []float64, error) {
	p, err := sim.ParsePolicy(spec)
	if err != nil {
		return Score{}, nil, err
	}
	c, ok := p.(*sim.LASMQ)
	if !ok {
		return Score{Mean: 2, P99: 20, P99Slowdown: 2, MeanSlowdown: 1}, nil, nil
	}
	sq := func(x float64) float64 { return x * x }
	d := 1.0
	if c.K > 1 {
		d = c.Weights[1]
	}
	m := sq(math.Log(c.Alpha0/7)) + 0.1*sq(float64(c.K-5)) + sq(math.Log(c.P/3)) + sq(d-0.3)
	if c.Order != sim.OrderPS {
		m += 0.5
	}
	return Score{Mean: 1 + m, P99: 10 + m, P99Slowdown: 2, MeanSlowdown: 1}, nil, nil
}

func TestTuneCVFindsBowlMinimum(t *testing.T) {
	sizes := make([]float64, 1000)
	jobs := make([]sim.Job, 1000)
	for i := range sizes {
		sizes[i] = math.Exp(float64(i%100) / 10) // 1 .. e^9.9
		jobs[i] = sim.Job{Arrival: float64(i) * 1e5, Size: sizes[i], Estimate: sizes[i]}
	}
	var results []*CVResult
	for _, workers := range []int{1, 4} {
		res, err := TuneCV(context.Background(), jobs, 1, TuneOptions{Budget: 300, Workers: workers}, bowl)
		if err != nil {
			t.Fatal(err)
		}
		if n := CountScored(res.Candidates); n > 300 {
			t.Errorf("spent %d > budget 300", n)
		}
		results = append(results, res)
	}
	j0, err0 := json.Marshal(results[0])
	j1, err1 := json.Marshal(results[1])
	if err0 != nil || err1 != nil || string(j0) != string(j1) {
		t.Errorf("result depends on the number of workers (or does not marshal: %v, %v)", err0, err1)
	}
	r := results[0]
	b := r.Candidates[r.Chosen].LASMQ
	if b == nil {
		t.Fatalf("chose %s", r.Candidates[r.Chosen].Policy)
	}
	if math.Abs(math.Log(b.Alpha0/7)) > 0.3 || b.K < 4 || b.K > 6 || math.Abs(math.Log(b.P/3)) > 0.3 || b.Order != sim.OrderPS {
		t.Errorf("best %v is far from the minimum (α0 7, k 5, p 3, ps)", b)
	}
	if m := r.Candidates[r.Chosen].FoldMean.Mean; m > 1.1 {
		t.Errorf("best mean %v", m)
	}
	if len(r.VsAlpha0) != 9 || len(r.VsK) != 9 {
		t.Errorf("sensitivity curves: %d and %d points", len(r.VsAlpha0), len(r.VsK))
	}
	if r.CI.Available {
		t.Errorf("a scorer without per-job results gives no interval, got %v", r.CI)
	}
}

func TestLASMQParams(t *testing.T) {
	c := LASMQParams{K: 4, Alpha0: 2, P: 10, Decay: 0.5}
	if got := c.Thresholds(); !reflect.DeepEqual(got, []float64{2, 20, 200}) {
		t.Errorf("thresholds %v", got)
	}
	if got := c.Weights(); !reflect.DeepEqual(got, []float64{1, 0.5, 0.25, 0.125}) {
		t.Errorf("weights %v", got)
	}
	if !(LASMQParams{K: 2, Decay: 0}).Strict() {
		t.Error("decay 0 is strict")
	}
	g := FirstGuess([]float64{0, 1, 2, 3, 1000}, 6)
	if g.Alpha0 < 1 || g.Alpha0 > 3 || g.K != 6 {
		t.Errorf("first guess %v", g)
	}
	// Every order round-trips through the specification.
	for _, o := range sim.LevelOrders {
		c := LASMQParams{K: 3, Alpha0: 2, P: 4, Decay: 0.5, Order: o}
		p, err := sim.ParsePolicy(c.Spec())
		if err != nil {
			t.Fatal(err)
		}
		if m := p.(*sim.LASMQ); m.Order != o && !(m.Order == "" && o == sim.OrderFIFO) || m.K != 3 || m.Alpha0 != 2 || m.P != 4 || !reflect.DeepEqual(m.Weights, c.Weights()) {
			t.Errorf("%s parsed as %+v", c.Spec(), m)
		}
		if got := CanonicalLASMQ(c.Spec()); got != c.canonical().Spec() {
			t.Errorf("canonical %q, want %q", got, c.canonical().Spec())
		}
		b := c.Config()
		if b.Order != o && !(o == sim.OrderFIFO && b.Order == "") || b.Spec() == "" {
			t.Errorf("bundle form %+v", b)
		}
		q, err := sim.ParsePolicy(b.Spec())
		if err != nil || q.(*sim.LASMQ).Order != o && o != sim.OrderFIFO {
			t.Errorf("bundle spec %q: %v", b.Spec(), err)
		}
	}
	// One level: the threshold, step and weights do not act.
	if a, b := (LASMQParams{K: 1, Alpha0: 5, P: 3, Decay: 0}).canonical(), (LASMQParams{K: 1, Alpha0: 7, P: 9, Decay: 1}).canonical(); a != b {
		t.Errorf("one level: %v != %v", a, b)
	}
}

// The containers order (seed 000 Alg. 1 line 10) is in the search space
// exactly when the jobs carry container counts: a scorer that rewards it
// leads the search there with counts; without them no candidate but Hu et
// al.'s default (a baseline, which names it) is scored in it.
func TestTuneCVContainersOrderWithCounts(t *testing.T) {
	score := func(ctx context.Context, spec string, w *ScoreWindow, keep bool) (Score, []float64, error) {
		s, r, err := bowl(ctx, spec, w, keep)
		if p, _ := sim.ParsePolicy(spec); err == nil && p != nil {
			if m, ok := p.(*sim.LASMQ); ok && m.Order == sim.OrderContainers {
				s.Mean, s.P99 = s.Mean-0.9, s.P99-0.9
			}
		}
		return s, r, err
	}
	for _, counts := range []bool{true, false} {
		jobs := make([]sim.Job, 1000)
		for i := range jobs {
			s := math.Exp(float64(i%100) / 10)
			jobs[i] = sim.Job{Arrival: float64(i) * 1e5, Size: s, Estimate: s}
			if counts {
				jobs[i].Containers = float64(1 + i%7)
			}
		}
		res, err := TuneCV(context.Background(), jobs, 1, TuneOptions{Budget: 120}, score)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, c := range res.Candidates {
			if c.LASMQ != nil && c.LASMQ.Order == sim.OrderContainers && c.Name != DefaultLASMQName {
				n++
			}
		}
		chosen := res.Candidates[res.Chosen].LASMQ
		switch {
		case counts && (chosen == nil || chosen.Order != sim.OrderContainers):
			t.Errorf("with counts: chose %s, want the containers order", res.Candidates[res.Chosen].Policy)
		case counts && n == 0:
			t.Error("with counts: no containers candidate besides the default")
		case !counts && n > 0:
			t.Errorf("without counts: %d containers candidates besides the default (they are FIFO)", n)
		}
	}
}
