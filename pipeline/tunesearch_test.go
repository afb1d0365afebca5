package pipeline

import (
	"context"
	"math"
	"reflect"
	"testing"
)

// scoreEach adapts a per-candidate objective to a Scorer.
func scoreEach(f func(LASMQParams) (Score, error)) Scorer {
	return func(_ context.Context, cands []LASMQParams) ([]Score, error) {
		out := make([]Score, len(cands))
		for i, c := range cands {
			var err error
			if out[i], err = f(c); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
}

// bowl is a synthetic objective with its minimum at α0 = 7, k = 5, p = 3,
// decay = 0.3.
func bowl(c LASMQParams) (Score, error) {
	sq := func(x float64) float64 { return x * x }
	m := sq(math.Log(c.Alpha0/7)) + 0.1*sq(float64(c.K-5)) + sq(math.Log(c.P/3)) + sq(c.Decay-0.3)
	return Score{Mean: 1 + m, P99: 10 + m, P99Slowdown: 2}, nil
}

func TestTuneLASMQFindsBowlMinimum(t *testing.T) {
	sizes := make([]float64, 1000)
	for i := range sizes {
		sizes[i] = math.Exp(float64(i%100) / 10) // 1 .. e^9.9
	}
	var results []*TuneResult
	for _, workers := range []int{1, 4} {
		res, err := TuneLASMQ(context.Background(), TuneOptions{Budget: 300, Sizes: sizes, Workers: workers}, scoreEach(bowl))
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Evaluated) > 300 {
			t.Errorf("spent %d > budget 300", len(res.Evaluated))
		}
		results = append(results, res)
	}
	if !reflect.DeepEqual(results[0], results[1]) {
		t.Error("result depends on the number of workers")
	}
	b := results[0].Best.Params
	if math.Abs(math.Log(b.Alpha0/7)) > 0.3 || b.K < 4 || b.K > 6 || math.Abs(math.Log(b.P/3)) > 0.3 {
		t.Errorf("best %v is far from the minimum (α0 7, k 5, p 3)", b)
	}
	if results[0].Best.Score.Mean > 1.1 {
		t.Errorf("best score %v", results[0].Best.Score)
	}
	if len(results[0].VsAlpha0) != 9 || len(results[0].VsK) != 8 {
		t.Errorf("sensitivity curves: %d and %d points", len(results[0].VsAlpha0), len(results[0].VsK))
	}
}

func TestGridForFitsBudget(t *testing.T) {
	for _, n := range []int{24, 50, 300, 1000, 5000} {
		g := gridFor(n, 1, 100)
		if len(g) > n || len(g) < n/5 {
			t.Errorf("budget %d: grid of %d", n, len(g))
		}
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
}
