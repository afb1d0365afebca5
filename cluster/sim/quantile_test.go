package sim

import (
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"

	"gonum.org/v1/gonum/stat"
)

// samples returns test samples of many shapes: tiny, tied, sorted,
// reversed, organ-pipe and heavy-tailed.
func samples(r *rand.Rand) [][]float64 {
	var out [][]float64
	for _, n := range []int{1, 2, 3, 5, 17, 100, 1001, 20000} {
		u := make([]float64, n)
		ties := make([]float64, n)
		tail := make([]float64, n)
		for i := range u {
			u[i] = r.Float64()
			ties[i] = float64(r.IntN(4))
			tail[i] = math.Pow(-math.Log(1-r.Float64()), 2) * 1e6
		}
		asc := slices.Sorted(slices.Values(u))
		desc := slices.Clone(asc)
		slices.Reverse(desc)
		organ := append(slices.Clone(asc[:n/2]), desc[:n-n/2]...)
		out = append(out, u, ties, tail, asc, desc, organ)
	}
	return out
}

func TestQuantilesBySelectionMatchGonum(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for si, x := range samples(r) {
		s := slices.Sorted(slices.Values(x))
		want := quantilesSorted(s)
		got := QuantilesOf(x)
		if got.Min != want.Min || got.Max != want.Max || got.P50 != want.P50 || got.P90 != want.P90 || got.P99 != want.P99 {
			t.Errorf("sample %d (n=%d): got %+v, want %+v", si, len(x), got, want)
		}
		if d := math.Abs(got.Mean - want.Mean); d > 1e-12*math.Abs(want.Mean) {
			t.Errorf("sample %d: mean %v, want %v", si, got.Mean, want.Mean)
		}
	}
}

func TestWeightedMeanQuantileMatchesGonum(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for si, x := range samples(r) {
		for _, unit := range []bool{true, false} {
			w := make([]float64, len(x))
			for i := range w {
				w[i] = 1
				if !unit {
					w[i] = float64(1 + r.IntN(5))
				}
			}
			for _, p := range []float64{0, 0.01, 0.5, 0.9, 0.99, 1} {
				sx, sw := slices.Clone(x), slices.Clone(w)
				sort.Stable(pairs{sx, sw})
				wantMean, wantQ := stat.Mean(sx, sw), stat.Quantile(p, stat.LinInterp, sx, sw)
				gotMean, gotQ := WeightedMeanQuantile(p, slices.Clone(x), slices.Clone(w))
				if math.Abs(gotQ-wantQ) > 1e-12*math.Abs(wantQ) || math.Abs(gotMean-wantMean) > 1e-12*math.Abs(wantMean) {
					t.Errorf("sample %d (n=%d, unit=%v) p=%v: got (%v, %v), want (%v, %v)", si, len(x), unit, p, gotMean, gotQ, wantMean, wantQ)
				}
			}
		}
	}
}

func TestQuantilesNaN(t *testing.T) {
	q := QuantilesOf([]float64{1, math.NaN(), 3})
	if !math.IsNaN(q.P50) || !math.IsNaN(q.Mean) {
		t.Errorf("a sample with NaN: %+v, want NaN quantiles", q)
	}
}

func BenchmarkQuantilesOf(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 6))
	x := make([]float64, 1_000_000)
	for i := range x {
		x[i] = math.Pow(-math.Log(1-r.Float64()), 2)
	}
	b.Run("select", func(b *testing.B) {
		for b.Loop() {
			_ = QuantilesOf(x)
		}
	})
	b.Run("sort", func(b *testing.B) {
		for b.Loop() {
			_ = quantilesSorted(slices.Sorted(slices.Values(x)))
		}
	})
}

func TestPerJobRunMatchesComputeRun(t *testing.T) {
	jobs := []Job{{Arrival: 0, Size: 2}, {Arrival: 1, Size: 0}, {Arrival: 1.5, Size: 1}}
	r, err := Simulate(jobs, 1, &PS{})
	if err != nil {
		t.Fatal(err)
	}
	dl := []float64{2, 1, 2}
	var a, b Metrics
	full, per := a.ComputeRun(jobs, r, 1, dl), b.PerJobRun(jobs, r, 1, dl)
	for i := range jobs {
		if a.Response[i] != b.Response[i] || a.Missed[i] != b.Missed[i] || (a.Slowdown[i] != b.Slowdown[i] && !math.IsNaN(a.Slowdown[i])) {
			t.Errorf("job %d: per-job metrics differ", i)
		}
	}
	full.Response, full.Slowdown = Quantiles{}, Quantiles{}
	if full != per {
		t.Errorf("summary without quantiles %+v, want %+v", per, full)
	}
}

// TestWeightedQuantileNoExtrapolation: rounding in the cumulative weights
// must not push the interpolation weight t below 0 (extrapolating past the
// largest value, or 0·−Inf) or above 1; the p = 1 quantile is the maximum.
func TestWeightedQuantileNoExtrapolation(t *testing.T) {
	for _, c := range []struct{ x, w []float64 }{
		{[]float64{0.6044167065223657, math.Inf(-1), math.Inf(-1)}, []float64{1, 7.1, 0.3}},
		{[]float64{0.6, 0.1, 0.2}, []float64{1, 7.1, 0.3}},
		{[]float64{3, 1, 2, 0.5}, []float64{0.1, 0.2, 0.3, 1.0 / 3}},
	} {
		_, q := WeightedMeanQuantile(1, slices.Clone(c.x), slices.Clone(c.w))
		if want := slices.Max(c.x); q != want {
			t.Errorf("x=%v w=%v: p=1 quantile %v, want the maximum %v", c.x, c.w, q, want)
		}
	}
}

// TestQuantilesOfLargeMatchSort checks quantilesOf to the bit against
// stat.Quantile on the sorted sample, for samples large enough to take
// several radix passes (a bucket of more than the radix select gathers:
// many equal values), every shape, and that the sample is left as it was.
func TestQuantilesOfLargeMatchSort(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{70_001, 1_200_000} {
		u, ties, slow, tail := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
		for i := range u {
			u[i] = r.Float64()
			ties[i] = float64(r.IntN(4))
			slow[i] = 1
			if r.IntN(3) == 0 {
				slow[i] += math.Pow(-math.Log(1-r.Float64()), 2)
			}
			tail[i] = math.Pow(-math.Log(1-r.Float64()), 2)
		}
		asc := slices.Sorted(slices.Values(u))
		desc := slices.Clone(asc)
		slices.Reverse(desc)
		organ := append(slices.Clone(asc[:n/2]), desc[:n-n/2]...)
		for si, x := range [][]float64{u, ties, slow, tail, asc, desc, organ} {
			want := quantilesSorted(slices.Sorted(slices.Values(x)))
			before := slices.Clone(x)
			got := quantilesOf(x)
			for _, f := range [][2]float64{{got.Min, want.Min}, {got.P50, want.P50}, {got.P90, want.P90}, {got.P99, want.P99}, {got.Max, want.Max}} {
				if math.Float64bits(f[0]) != math.Float64bits(f[1]) {
					t.Fatalf("n=%d sample %d: got %+v, want %+v", n, si, got, want)
				}
			}
			if !slices.Equal(x, before) {
				t.Fatalf("n=%d sample %d: quantilesOf moved the values", n, si)
			}
		}
	}
}
