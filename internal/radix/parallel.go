package radix

import (
	"cmp"
	"math/bits"
	"slices"
	"unsafe"
)

// ForEach runs do(0..n-1), possibly on several goroutines at once, and
// returns when every call has (par.For with a number of workers).
type ForEach func(n int, do func(i int))

// parallelMin is the fewest keys worth sorting on several goroutines.
const parallelMin = 1 << 18

// Float64sOn is Float64s on up to workers goroutines that forEach runs
// (the same order).
func Float64sOn(x []float64, workers int, forEach ForEach) {
	k := unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(x))), len(x))
	chunks := min(workers, (len(k)+parallelMin-1)/parallelMin)
	each := func(f func(v uint64) uint64) {
		forEach(chunks, func(c int) {
			part := k[c*len(k)/chunks : (c+1)*len(k)/chunks]
			for i, v := range part {
				part[i] = f(v)
			}
		})
	}
	each(orderKey)
	Uint64sOn(k, workers, forEach)
	each(fromOrderKey)
}

// Uint64sOn is Uint64s on up to workers goroutines that forEach runs: the
// keys are split in place by the 16 bits at and below the highest bit where
// they differ (counted on every worker; float sizes spread over a few
// hundred such buckets where their leading byte gives two), a bucket still
// too large to sort whole is split further by bytes (the buckets of a level
// side by side), and every bucket of at most a 1/(4·workers) share of the
// keys is then sorted independently, the largest first.
func Uint64sOn(x []uint64, workers int, forEach ForEach) {
	if workers <= 1 || len(x) < parallelMin {
		Uint64s(x)
		return
	}
	limit := max(len(x)/(4*workers), lsdMax)
	first := splitTop(x, workers, forEach)
	var leaves, large []bucket
	for len(first) > 0 || len(large) > 0 {
		var subs [][]bucket
		if first != nil {
			subs, first = [][]bucket{first}, nil
		} else {
			subs = make([][]bucket, len(large))
			forEach(len(large), func(i int) { subs[i] = large[i].split() })
			large = nil
		}
		for _, s := range subs {
			for _, b := range s {
				if len(b.keys) > limit {
					large = append(large, b)
				} else {
					leaves = append(leaves, b)
				}
			}
		}
	}
	slices.SortFunc(leaves, func(a, b bucket) int { return cmp.Compare(len(b.keys), len(a.keys)) })
	bufs := make(chan []uint64, workers)
	for range workers {
		bufs <- make([]uint64, lsdMax)
	}
	forEach(len(leaves), func(i int) {
		buf := <-bufs
		sortFrom(leaves[i].keys, leaves[i].shift, buf)
		bufs <- buf
	})
}

// splitTop moves the keys of x into buckets in place by their bits
// [lo, lo+16), lo the multiple of 8 that puts the highest bit where keys
// differ in that digit, and returns the buckets of more than one key with
// bits left to sort by. The digits are counted on every worker.
func splitTop(x []uint64, workers int, forEach ForEach) []bucket {
	chunks := min(workers, (len(x)+parallelMin-1)/parallelMin)
	part := func(c int) []uint64 { return x[c*len(x)/chunks : (c+1)*len(x)/chunks] }
	diffs := make([]uint64, chunks)
	forEach(chunks, func(c int) {
		for _, v := range part(c) {
			diffs[c] |= v ^ x[0]
		}
	})
	diff := uint64(0)
	for _, d := range diffs {
		diff |= d
	}
	if diff == 0 {
		return nil // every key equal
	}
	top := 63 - bits.LeadingZeros64(diff)
	lo := uint((max(top+1-16, 0) + 7) / 8 * 8)
	counts := make([][1 << 16]int, chunks)
	forEach(chunks, func(c int) {
		n := &counts[c]
		for _, v := range part(c) {
			n[uint16(v>>lo)]++
		}
	})
	head, end := make([]int, 1<<16), make([]int, 1<<16)
	sum := 0
	for d := range head {
		head[d] = sum
		for c := range counts {
			sum += counts[c][d]
		}
		end[d] = sum
	}
	permute(x, head, end, lo, 1<<16-1)
	var out []bucket
	start := 0
	for d := range end {
		if c := end[d] - start; c > 1 && lo > 0 {
			out = append(out, bucket{x[start:end[d]], lo - 8})
		}
		start = end[d]
	}
	return out
}

// bucket is keys that agree above bit shift+8, to be sorted by the byte at
// shift and those below it.
type bucket struct {
	keys  []uint64
	shift uint
}

// split moves b's keys into buckets by their byte at b.shift, in place, and
// returns those of more than one key with bytes left to sort by.
func (b bucket) split() []bucket {
	count := splitByte(b.keys, b.shift)
	var out []bucket
	lo := 0
	for _, c := range count {
		if c > 1 && b.shift > 0 {
			out = append(out, bucket{b.keys[lo : lo+c], b.shift - 8})
		}
		lo += c
	}
	return out
}
