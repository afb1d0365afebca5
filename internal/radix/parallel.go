package radix

import (
	"cmp"
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
// keys are split in place by their leading bytes (as Uint64s splits them;
// the buckets of one level side by side) until every bucket holds at most a
// 1/(4·workers) share of them, and the buckets are then sorted
// independently, the largest first.
func Uint64sOn(x []uint64, workers int, forEach ForEach) {
	if workers <= 1 || len(x) < parallelMin {
		Uint64s(x)
		return
	}
	limit := max(len(x)/(4*workers), lsdMax)
	var leaves []bucket
	for large := []bucket{{x, 56}}; len(large) > 0; {
		subs := make([][]bucket, len(large))
		forEach(len(large), func(i int) { subs[i] = large[i].split() })
		large = nil
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
