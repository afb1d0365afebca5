package radix

import (
	"math"
	"math/rand/v2"
	"slices"
	"syscall"
	"testing"
)

// TestSelectFloat64sAgreesWithFloat64s compares SelectFloat64s with a
// sorted copy (Float64s) bit for bit, at the extremes, the quantiles a
// summary reads and random ranks, on samples of every shape: heavy
// tails, ties (more than one bucket gathers: several passes), values
// ulps apart, both zeros, both infinities, NaNs of both signs,
// denormals, and the sample must be left as it was.
func TestSelectFloat64sAgreesWithFloat64s(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	negNaN := math.Float64frombits(1<<63 | math.Float64bits(math.NaN()))
	for _, c := range []struct {
		name string
		n    int
		v    func(i int) float64
	}{
		{"one", 1, func(int) float64 { return 3 }},
		{"two", 2, func(i int) float64 { return float64(2 - i) }},
		{"heavy", 100_000, func(int) float64 { return math.Exp(3 * r.NormFloat64()) }},
		{"ms ties", 200_000, func(int) float64 { return math.Round(math.Exp(2*r.NormFloat64())*1000) / 1000 }},
		{"slowdowns", 3 * (1 << 19), func(int) float64 {
			if r.IntN(5) < 2 {
				return 1
			}
			return 1 + math.Pow(-math.Log(1-r.Float64()), 2.5)
		}},
		{"all equal, many", 2*(1<<19) + 1, func(int) float64 { return 0.1 }},
		{"ulps", 3 * (1 << 19), func(int) float64 { return math.Float64frombits(math.Float64bits(1e9) + uint64(r.IntN(5))) }},
		{"one top bucket", 2 * (1 << 19), func(int) float64 { return 1 + r.Float64()/32 }},
		{"zeros and signs", 10_000, func(int) float64 {
			return []float64{0, math.Copysign(0, -1), -1, 1, math.Inf(1), math.Inf(-1), math.NaN(), negNaN, math.SmallestNonzeroFloat64, -math.MaxFloat64}[r.IntN(10)]
		}},
		{"denormals", 50_000, func(int) float64 { return math.Float64frombits(uint64(r.IntN(1 << 40))) }},
	} {
		x := make([]float64, c.n)
		for i := range x {
			x[i] = c.v(i)
		}
		sorted := slices.Clone(x)
		Float64s(sorted)
		before := slices.Clone(x)
		ranks := []int{0, c.n - 1, c.n / 2, (c.n - 1) / 2, 9 * c.n / 10, 99 * c.n / 100, c.n / 2}
		for range 20 {
			ranks = append(ranks, r.IntN(c.n))
		}
		got := SelectFloat64s(x, ranks)
		for j, k := range ranks {
			if math.Float64bits(got[j]) != math.Float64bits(sorted[k]) {
				t.Fatalf("%s: rank %d is %v (%#x), want %v (%#x)", c.name, k, got[j], math.Float64bits(got[j]), sorted[k], math.Float64bits(sorted[k]))
			}
		}
		for i := range x {
			if math.Float64bits(x[i]) != math.Float64bits(before[i]) {
				t.Fatalf("%s: value %d moved", c.name, i)
			}
		}
	}
}

// TestSelectFloat64sBadRank checks that a rank outside the sample panics,
// naming it, and that no rank gives no values.
func TestSelectFloat64sBadRank(t *testing.T) {
	if got := SelectFloat64s([]float64{1}, nil); len(got) != 0 {
		t.Errorf("no ranks gave %v", got)
	}
	for _, k := range []int{-1, 3} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("rank %d of 3 values did not panic", k)
				}
			}()
			SelectFloat64s([]float64{1, 2, 3}, []int{k})
		}()
	}
}

// BenchmarkSelectFloat64s selects the six order statistics of a summary
// (P50, P90, P99 and the values below them) among 3 M values shaped like
// a validation window's responses (log-normal, millisecond ties) and
// slowdowns (at least 1, 40 % exactly 1).
func BenchmarkSelectFloat64s(b *testing.B) {
	r := rand.New(rand.NewPCG(1, 2))
	const n = 3_000_000
	resp, slow := make([]float64, n), make([]float64, n)
	for i := range resp {
		resp[i] = math.Round(math.Exp(2.5*r.NormFloat64())*1000) / 1000
		slow[i] = 1
		if r.IntN(5) >= 2 {
			slow[i] = 1 + math.Pow(-math.Log(1-r.Float64()), 2.5)
		}
	}
	ranks := []int{n/2 - 1, n / 2, 9*n/10 - 1, 9 * n / 10, 99*n/100 - 1, 99 * n / 100}
	for _, c := range []struct {
		name string
		x    []float64
	}{{"responses", resp}, {"slowdowns", slow}} {
		b.Run(c.name, func(b *testing.B) {
			start := cpuTime()
			for b.Loop() {
				SelectFloat64s(c.x, ranks)
			}
			b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
		})
	}
}

// cpuTime is the process's CPU time so far, in nanoseconds (a benchmark
// on a shared machine compares CPU time, not wall time).
func cpuTime() int64 {
	var u syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &u)
	return u.Utime.Nano() + u.Stime.Nano()
}

// TestSelectFloat64sBandMissed checks the way out when a rank lies
// outside its band (a sample that misled): a band that does not hold its
// rank reports it, and the ranks are then found among every key.
func TestSelectFloat64sBandMissed(t *testing.T) {
	x := []float64{5, 1, 4, 2, 3, 3}
	ranks := []int{0, 2, 5}
	b := band{a: floatKey(2), b: floatKey(4), targets: []int{1}}
	miss := band{a: floatKey(3), b: floatKey(4), targets: []int{0}}
	bands := []band{b, miss}
	countBands(x, bands)
	out := make([]float64, len(ranks))
	if !bands[0].resolve(ranks, out) || out[1] != 3 {
		t.Errorf("rank 2 in [2, 4]: %v, %v", bands[0], out)
	}
	if bands[1].resolve(ranks, out) {
		t.Errorf("rank 0 resolved in [3, 4]: %v", out)
	}
	selectAll(x, ranks, []int{0, 1, 2}, out)
	if !slices.Equal(out, []float64{1, 3, 5}) {
		t.Errorf("selectAll: %v, want [1 3 5]", out)
	}
}
