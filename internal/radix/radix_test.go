package radix

import (
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
)

// uint64Sorts are the sorts of uint64 keys the tests compare with
// slices.Sort: Uint64s and Uint64sOn on two and three goroutines.
var uint64Sorts = []struct {
	name string
	sort func([]uint64)
}{
	{"Uint64s", Uint64s},
	{"Uint64sOn 2", func(x []uint64) { Uint64sOn(x, 2, concurrently) }},
	{"Uint64sOn 3", func(x []uint64) { Uint64sOn(x, 3, concurrently) }},
}

// concurrently runs every do(i) on a goroutine of its own (the tests'
// ForEach: the package cannot import internal/par).
func concurrently(n int, do func(i int)) {
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { do(i) })
	}
	wg.Wait()
}

// TestUint64sAgreesWithSlicesSort sorts keys of every shape (uniform,
// narrow, all equal, short) and compares with slices.Sort.
func TestUint64sAgreesWithSlicesSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct {
		name string
		n    int
		key  func(i int) uint64
	}{
		{"empty", 0, nil},
		{"one", 1, func(int) uint64 { return 7 }},
		{"uniform", 100_000, func(int) uint64 { return rng.Uint64() }},
		{"narrow", 100_000, func(int) uint64 { return 1<<40 + rng.Uint64N(300) }},
		{"one top bucket", 100_000, func(int) uint64 { return 5<<48 | rng.Uint64N(1<<48) }},
		{"few top buckets", 100_000, func(i int) uint64 { return uint64(i%3)<<62 | rng.Uint64N(1<<40) }},
		{"equal", 1000, func(int) uint64 { return 42 }},
		{"many equal", 2 * parallelMin, func(i int) uint64 { return 42 + uint64(i%2)<<30 }},
		{"many uniform", 2 * parallelMin, func(int) uint64 { return rng.Uint64() }},
		{"many exponential", 3 * parallelMin, func(int) uint64 { return math.Float64bits(rng.ExpFloat64()) }},
		{"many narrow", 2 * parallelMin, func(int) uint64 { return 1<<40 + rng.Uint64N(300) }},
		{"many below bit 37", 2 * parallelMin, func(int) uint64 { return rng.Uint64N(1 << 37) }},
		{"many in one top digit", 2 * parallelMin, func(int) uint64 { return 7<<60 | rng.Uint64N(1<<44) }},
		{"descending", 5000, func(i int) uint64 { return uint64(5000 - i) }},
	} {
		x := make([]uint64, c.n)
		for i := range x {
			x[i] = c.key(i)
		}
		want := slices.Clone(x)
		slices.Sort(want)
		for _, s := range uint64Sorts {
			y := slices.Clone(x)
			if s.sort(y); !slices.Equal(y, want) {
				t.Errorf("%s, %s: not sorted as slices.Sort sorts", s.name, c.name)
			}
		}
	}
}

// TestFloat64sAgreesWithSlicesSort compares with slices.Sort on numbers of
// both signs, zeros of both signs, infinities and subnormals (no NaNs,
// which the two order differently), bit for bit except the sign of zeros.
func TestFloat64sAgreesWithSlicesSort(t *testing.T) {
	for _, s := range []struct {
		name string
		sort func([]float64)
	}{
		{"Float64s", Float64s},
		{"Float64sOn 2", func(x []float64) { Float64sOn(x, 2, concurrently) }},
	} {
		t.Run(s.name, func(t *testing.T) { checkFloat64Sort(t, s.sort) })
	}
}

func checkFloat64Sort(t *testing.T, sort func([]float64)) {
	rng := rand.New(rand.NewPCG(3, 4))
	x := make([]float64, 2*parallelMin+1)
	for i := range x {
		switch i % 101 {
		case 0:
			x[i] = math.Copysign(0, -1)
		case 1:
			x[i] = 0
		case 2:
			x[i] = math.Inf(1 - 2*(i%2))
		case 3:
			x[i] = 5e-324 * float64(i%7)
		default:
			x[i] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(40)-20))
		}
	}
	want := slices.Clone(x)
	slices.Sort(want)
	sort(x)
	got := x
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("element %d: %v, want %v", i, got[i], want[i])
		}
		if i > 0 && got[i] == 0 && got[i-1] == 0 && math.Signbit(got[i]) && !math.Signbit(got[i-1]) {
			t.Fatalf("element %d: -0 after +0", i)
		}
	}
}

func BenchmarkSort5M(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	x := make([]float64, 5_000_000)
	y := make([]float64, len(x))
	for i := range x {
		x[i] = rng.ExpFloat64()
	}
	b.Run("radix", func(b *testing.B) {
		for b.Loop() {
			copy(y, x)
			Float64s(y)
		}
	})
	b.Run("radix-on-2", func(b *testing.B) {
		for b.Loop() {
			copy(y, x)
			Float64sOn(y, 2, concurrently)
		}
	})
	b.Run("slices", func(b *testing.B) {
		for b.Loop() {
			copy(y, x)
			slices.Sort(y)
		}
	})
}
