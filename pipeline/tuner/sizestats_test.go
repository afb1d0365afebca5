package tuner

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"

	"gonum.org/v1/gonum/stat"
)

// sortedSizeStats is sizeStatsOf as the tuner computed it before: the
// positive finite values sorted, and stat.Quantile on them.
func sortedSizeStats(x []float64) sizeStats {
	var pos []float64
	for _, v := range x {
		if v > 0 && !math.IsInf(v, 0) {
			pos = append(pos, v)
		}
	}
	if len(pos) == 0 {
		return sizeStats{}
	}
	sort.Float64s(pos)
	q := func(p float64) float64 { return stat.Quantile(p, stat.LinInterp, pos, nil) }
	return sizeStats{n: len(pos), q01: q(0.01), q50: q(0.5), q99: q(0.99), q999: q(0.999), max: pos[len(pos)-1]}
}

// TestSizeStatsOf checks that the radix select gives the sorted values'
// quantiles to the bit, on edge cases and on heavy-tailed, tied and
// narrow samples (values that share most of their bits).
func TestSizeStatsOf(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	sample := func(n int, f func(i int) float64) []float64 {
		x := make([]float64, n)
		for i := range x {
			x[i] = f(i)
		}
		return x
	}
	for _, tc := range []struct {
		name string
		x    []float64
	}{
		{"empty", nil},
		{"none positive", []float64{0, -1, math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1)}},
		{"one", []float64{7}},
		{"two", []float64{3, 1}},
		{"first guess test", []float64{0, 1, 2, 3, 1000}},
		{"mixed", []float64{5, math.NaN(), 0, 2, math.Inf(1), -3, 2, 9, 1e-300, math.SmallestNonzeroFloat64, math.MaxFloat64}},
		{"ties", sample(1000, func(i int) float64 { return float64(1 + i%3) })},
		{"all equal", sample(4097, func(int) float64 { return 42.5 })},
		{"n 100 (p·n integral)", sample(100, func(int) float64 { return r.ExpFloat64() })},
		{"n 1000", sample(1000, func(int) float64 { return r.ExpFloat64() })},
		{"narrow", sample(50000, func(int) float64 { return 1 + r.Float64()*1e-12 })},
		{"heavy tail", sample(200000, func(int) float64 { return math.Exp(3 * r.NormFloat64()) })},
		{"with zeros", sample(30001, func(i int) float64 { return float64(i%5) * r.Float64() })},
	} {
		got, want := sizeStatsOf(tc.x), sortedSizeStats(tc.x)
		if got.n != want.n {
			t.Errorf("%s: %d values, want %d", tc.name, got.n, want.n)
			continue
		}
		for _, f := range []struct {
			name      string
			got, want float64
		}{{"q01", got.q01, want.q01}, {"q50", got.q50, want.q50}, {"q99", got.q99, want.q99}, {"q999", got.q999, want.q999}, {"max", got.max, want.max}} {
			if math.Float64bits(f.got) != math.Float64bits(f.want) {
				t.Errorf("%s: %s %v, want %v", tc.name, f.name, f.got, f.want)
			}
		}
		if sizeRangeOf(got) != sizeRangeOf(want) || firstGuessOf(got, 6) != firstGuessOf(want, 6) {
			t.Errorf("%s: the search space or the first guess differs", tc.name)
		}
	}
}

// TestSizeStatsOfSweep compares the radix select with the sorted
// quantiles on every n up to 300 and on adversarial mixes: denormals,
// values one ulp apart, a single positive value among NaN, ±Inf and
// zeros, and many ties around a few distinct values.
func TestSizeStatsOfSweep(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 11))
	gens := map[string]func() float64{
		"denormal": func() float64 { return math.Float64frombits(uint64(r.IntN(1 << 20))) },
		"ulps":     func() float64 { return math.Float64frombits(math.Float64bits(1e9) + uint64(r.IntN(7))) },
		"mixed": func() float64 {
			switch r.IntN(6) {
			case 0:
				return math.NaN()
			case 1:
				return math.Inf(1 - 2*r.IntN(2))
			case 2:
				return math.Copysign(0, -1)
			case 3:
				return -r.Float64()
			}
			return math.Exp(40 * r.NormFloat64())
		},
		"ties": func() float64 { return []float64{1, 2, math.MaxFloat64, math.SmallestNonzeroFloat64}[r.IntN(4)] },
	}
	for name, g := range gens {
		for n := 1; n <= 300; n++ {
			x := make([]float64, n)
			for i := range x {
				x[i] = g()
			}
			got, want := sizeStatsOf(x), sortedSizeStats(x)
			if got.n != want.n || math.Float64bits(got.q01) != math.Float64bits(want.q01) || math.Float64bits(got.q50) != math.Float64bits(want.q50) ||
				math.Float64bits(got.q99) != math.Float64bits(want.q99) || math.Float64bits(got.q999) != math.Float64bits(want.q999) || math.Float64bits(got.max) != math.Float64bits(want.max) {
				t.Fatalf("%s n=%d: %+v, want %+v", name, n, got, want)
			}
		}
	}
	one := []float64{math.NaN(), math.Inf(1), 0, 3.5, math.Inf(-1), -2}
	if got, want := sizeStatsOf(one), sortedSizeStats(one); got != want {
		t.Errorf("one positive: %+v, want %+v", got, want)
	}
}

// BenchmarkSizeStatsOf is the statistics of 7 M heavy-tailed sizes (the
// 10 M-job log's tuning window).
func BenchmarkSizeStatsOf(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	x := make([]float64, 7_000_000)
	for i := range x {
		x[i] = math.Exp(3 * r.NormFloat64())
	}
	b.ReportAllocs()
	for b.Loop() {
		sizeStatsOf(x)
	}
}
