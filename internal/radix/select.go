package radix

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
)

// SelectFloat64s returns the values of x at the given ranks (0-based) in
// Float64s' order — out[j] is what x[ranks[j]] would be after
// Float64s(x) — without modifying x, in one pass over it. It selects by
// the values' order keys (orderKey: −0 before +0, NaNs at the ends), as
// Floyd and Rivest's select does: a random sample of the keys, sorted,
// gives each rank a band of keys [a, b] that holds it with high
// probability (its rank in the sample ± 3.5 standard deviations of a
// sample quantile: about 4 % of the keys at the median, less at the
// tails); the pass counts the keys below each band and those equal to
// its ends, and gathers those strictly inside it, among which a
// quickselect finds the rank. Ties and clusters of close values (the
// slowdowns of a run, half of them within 10⁻⁹ of 1) cost no extra pass,
// where a radix select by the keys' top bits counts such a cluster by
// every 16 bits in turn. A rank that falls outside its band (about 1 in
// 2,000 bands) is found among all the keys, sorted: the same values at
// the cost of a copy; so is every rank of fewer than 4·sampleSize values
// (32,768), where a sample would cost more than it saves. It panics on a
// rank outside [0, len(x)).
func SelectFloat64s(x []float64, ranks []int) []float64 {
	out := make([]float64, len(ranks))
	if len(ranks) == 0 {
		return out
	}
	n := len(x)
	order := make([]int, len(ranks)) // ranks' indices by ascending rank
	for j, r := range ranks {
		if r < 0 || r >= n {
			panic(fmt.Sprintf("radix: rank %d of %d values", r, n))
		}
		order[j] = j
	}
	slices.SortFunc(order, func(i, j int) int { return ranks[i] - ranks[j] })
	if n <= 4*sampleSize {
		selectAll(x, ranks, order, out)
		return out
	}
	bands := bandsOf(x, ranks, order)
	countBands(x, bands)
	for _, b := range bands {
		if !b.resolve(ranks, out) {
			selectAll(x, ranks, order, out)
			return out
		}
	}
	return out
}

// sampleSize is the number of keys SelectFloat64s samples: the bands it
// gathers are about 7·√(p(1−p)/sampleSize) of the keys wide.
const sampleSize = 8192

// selectAll sets out[j] to the key of rank ranks[j] by a quickselect on a
// copy of every key (order: the ranks' indices, ranks ascending).
func selectAll(x []float64, ranks, order []int, out []float64) {
	keys := make([]uint64, len(x))
	for i, v := range x {
		keys[i] = floatKey(v)
	}
	sorted := make([]int, len(order))
	for i, j := range order {
		sorted[i] = ranks[j]
	}
	selectKeys(keys, sorted)
	for _, j := range order {
		out[j] = keyFloat(keys[ranks[j]])
	}
}

// band is a range of keys [a, b] that should hold the ranks of its
// targets (indices into ranks, ascending by rank): below counts the keys
// under a, atA and atB those equal to a and b (atB 0 when a == b), and
// inside holds those strictly between.
type band struct {
	a, b            uint64
	below, atA, atB int
	inside          []uint64
	targets         []int
	lo, hi          int // the sample's keys a and b (−1, sampleSize: none)
}

// bandsOf samples x's keys and returns a band for each rank, those that
// overlap merged, in ascending order.
func bandsOf(x []float64, ranks, order []int) []band {
	n := len(x)
	rng := rand.New(rand.NewPCG(uint64(n), 0x5e1ec7)) // the same sample for the same length
	s := make([]uint64, sampleSize)
	for i := range s {
		s[i] = floatKey(x[rng.IntN(n)])
	}
	slices.Sort(s)
	m := float64(sampleSize)
	var bands []band
	for _, j := range order {
		p := float64(ranks[j]) / float64(n)
		c, d := p*m, 3.5*math.Sqrt(m*p*(1-p))+2
		a, b := uint64(0), uint64(math.MaxUint64)
		lo, hi := -1, int(math.Ceil(c+d))
		if c-d >= 0 {
			lo = int(c - d)
			a = s[lo]
		}
		if hi < sampleSize {
			b = s[hi]
		} else {
			hi = sampleSize
		}
		if k := len(bands) - 1; k >= 0 && a <= bands[k].b {
			bands[k].b, bands[k].hi = max(bands[k].b, b), max(bands[k].hi, hi)
			bands[k].targets = append(bands[k].targets, j)
			continue
		}
		bands = append(bands, band{a: a, b: b, lo: lo, hi: hi, targets: []int{j}})
	}
	for i := range bands {
		// Room for the keys the sample puts inside, and a quarter more.
		expect := (bands[i].hi - bands[i].lo) * n / sampleSize
		bands[i].inside = make([]uint64, 0, expect+expect/4+16)
	}
	return bands
}

// countBands makes the passes over x that fill the bands' counts and
// gather their keys, four bands a pass.
func countBands(x []float64, bands []band) {
	for len(bands) > 0 {
		var four [4]*band
		for i := range four {
			four[i] = &band{a: math.MaxUint64, b: math.MaxUint64} // none: counted, not read
			if i < len(bands) {
				four[i] = &bands[i]
			}
		}
		countFour(x, four)
		bands = bands[min(4, len(bands)):]
	}
}

// countFour counts and gathers the keys of x for four bands. Counting the
// keys below a band is a borrow, not a branch (the median's is taken
// half the time, at random), in a local; a key is tested for a band's
// ends only once inside [a, b] (k−a ≤ b−a in unsigned arithmetic), which
// few are.
func countFour(x []float64, b [4]*band) {
	a0, a1, a2, a3 := b[0].a, b[1].a, b[2].a, b[3].a
	w0, w1, w2, w3 := b[0].b-a0, b[1].b-a1, b[2].b-a2, b[3].b-a3
	var n0, n1, n2, n3 uint64
	for _, v := range x {
		k := floatKey(v)
		_, u0 := bits.Sub64(k, a0, 0)
		_, u1 := bits.Sub64(k, a1, 0)
		_, u2 := bits.Sub64(k, a2, 0)
		_, u3 := bits.Sub64(k, a3, 0)
		n0, n1, n2, n3 = n0+u0, n1+u1, n2+u2, n3+u3
		if k-a0 <= w0 {
			b[0].add(k)
		}
		if k-a1 <= w1 {
			b[1].add(k)
		}
		if k-a2 <= w2 {
			b[2].add(k)
		}
		if k-a3 <= w3 {
			b[3].add(k)
		}
	}
	b[0].below += int(n0)
	b[1].below += int(n1)
	b[2].below += int(n2)
	b[3].below += int(n3)
}

// add counts or gathers key k, which lies in [a, b].
func (b *band) add(k uint64) {
	switch k {
	case b.a:
		b.atA++
	case b.b:
		b.atB++
	default:
		b.inside = append(b.inside, k)
	}
}

// resolve sets the values of the band's targets, reporting whether every
// rank lay in the band.
func (b *band) resolve(ranks []int, out []float64) bool {
	var in []int // the ranks among inside, ascending
	for _, j := range b.targets {
		r := ranks[j] - b.below
		switch {
		case r < 0 || r >= b.atA+len(b.inside)+b.atB:
			return false
		case r >= b.atA && r < b.atA+len(b.inside):
			in = append(in, r-b.atA)
		}
	}
	selectKeys(b.inside, in)
	for _, j := range b.targets {
		switch r := ranks[j] - b.below; {
		case r < b.atA:
			out[j] = keyFloat(b.a)
		case r < b.atA+len(b.inside):
			out[j] = keyFloat(b.inside[r-b.atA])
		default:
			out[j] = keyFloat(b.b)
		}
	}
	return true
}

// selectKeys reorders x so that x[r] is the key a sort would put there,
// for every r of ranks (ascending): a quickselect with a three-way
// partition (many equal keys cost nothing) that follows every part
// holding a rank, sorting a part after 2·log₂ n unlucky rounds.
func selectKeys(x []uint64, ranks []int) {
	selectKeysIn(x, 0, ranks, 2*bits.Len(uint(len(x))))
}

// selectKeysIn is selectKeys of x, which starts at rank base of the
// whole, with budget rounds left.
func selectKeysIn(x []uint64, base int, ranks []int, budget int) {
	for len(ranks) > 0 && len(x) > 1 {
		if len(x) <= 32 || budget == 0 {
			slices.Sort(x)
			return
		}
		budget--
		a, b, c := x[0], x[len(x)/2], x[len(x)-1]
		pivot := max(min(a, b), min(max(a, b), c))
		lt, gt := partitionKeys(x, pivot)
		// The ranks below the pivot's, at it (done) and above.
		i := 0
		for i < len(ranks) && ranks[i]-base < lt {
			i++
		}
		j := i
		for j < len(ranks) && ranks[j]-base < gt {
			j++
		}
		selectKeysIn(x[:lt], base, ranks[:i], budget)
		x, base, ranks = x[gt:], base+gt, ranks[j:]
	}
}

// partitionKeys partitions x around pivot, Dutch national flag style:
// x[:lt] < pivot, x[lt:gt] == pivot, x[gt:] > pivot.
func partitionKeys(x []uint64, pivot uint64) (lt, gt int) {
	i, gt := 0, len(x)
	for i < gt {
		switch v := x[i]; {
		case v < pivot:
			x[lt], x[i] = v, x[lt]
			lt++
			i++
		case v > pivot:
			gt--
			x[gt], x[i] = v, x[gt]
		default:
			i++
		}
	}
	return lt, gt
}

// floatKey is v's order key (orderKey of its bits, without a branch).
func floatKey(v float64) uint64 {
	b := math.Float64bits(v)
	return b ^ (uint64(int64(b)>>63) | 1<<63)
}

// keyFloat is the value of order key k.
func keyFloat(k uint64) float64 { return math.Float64frombits(fromOrderKey(k)) }
