package sim

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
)

// pinSamples are samples shaped like a run's responses (heavy-tailed,
// many ties at a clock's resolution) and slowdowns (at least 1, many
// exactly 1), and edge cases: tiny and tied samples, infinities, zeros of
// one sign, negative and denormal values, NaN.
func pinSamples() [][]float64 {
	r := rand.New(rand.NewPCG(30, 31))
	var out [][]float64
	gens := []func(i int) float64{
		func(int) float64 { return math.Round(math.Exp(2*r.NormFloat64())*1000) / 1000 },        // responses, ms ties
		func(int) float64 { return math.Pow(-math.Log(1-r.Float64()), 3) * 50 },                 // heavy tail
		func(i int) float64 { return 1 + float64(i%3)*math.Pow(-math.Log(1-r.Float64()), 2) },   // slowdowns
		func(int) float64 { return float64(r.IntN(5)) },                                         // few values
		func(int) float64 { return 1 + float64(r.IntN(3))*0x1p-52 },                             // ulps apart
		func(int) float64 { return math.Float64frombits(uint64(r.IntN(1 << 30))) },              // denormals
		func(int) float64 { return r.NormFloat64() * 1e3 },                                      // signed
		func(i int) float64 { return []float64{0, 1, math.Inf(1), 2, math.Inf(-1)}[r.IntN(5)] }, // ±Inf, +0
		func(i int) float64 { return []float64{math.Copysign(0, -1), -1, 3}[r.IntN(3)] },        // −0 only
		func(int) float64 { return 7.25 },                                                       // all equal
	}
	for _, n := range []int{1, 2, 3, 4, 7, 10, 99, 100, 101, 1000, 1001, 16385, 100_000, 300_001} {
		for _, g := range gens {
			x := make([]float64, n)
			for i := range x {
				x[i] = g(i)
			}
			out = append(out, x)
		}
	}
	withNaN := []float64{1, 2, math.NaN(), 3}
	return append(out, withNaN)
}

// quantilesPinned is the FNV-1a hash of the bits of every field of the
// summaries of pinSamples as quantilesInPlace computed them, by three
// quickselects, before radix.SelectFloat64s replaced them.
const quantilesPinned = 0xcb1350b9420f12b

// TestQuantilesPinned checks that quantilesOf gives, bit for bit,
// what it gave before its selection changed (means included: the sum is
// taken in the sample's order).
func TestQuantilesPinned(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skip("hash pinned on amd64")
	}
	h := fnv.New64a()
	var b [8]byte
	for _, x := range pinSamples() {
		q := quantilesOf(x)
		for _, v := range []float64{q.Mean, q.Min, q.P50, q.P90, q.P99, q.Max} {
			u := math.Float64bits(v)
			for k := range b {
				b[k] = byte(u >> (8 * k))
			}
			h.Write(b[:])
		}
	}
	if got := h.Sum64(); got != quantilesPinned {
		t.Errorf("hash %#x, pinned %#x", got, quantilesPinned)
	}
}
