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
// keys are split in place by their leading bytes (as Uint64s splits them)
// until every bucket holds at most a 1/(4·workers) share of them, and the
// buckets are then sorted independently, the largest first.
func Uint64sOn(x []uint64, workers int, forEach ForEach) {
	if workers <= 1 || len(x) < parallelMin {
		Uint64s(x)
		return
	}
	type bucket struct {
		keys  []uint64
		shift uint
	}
	limit := max(len(x)/(4*workers), lsdMax)
	var buckets []bucket
	var split func(x []uint64, shift uint)
	split = func(x []uint64, shift uint) {
		count := splitByte(x, shift)
		lo := 0
		for _, c := range count {
			sub := x[lo : lo+c]
			lo += c
			switch {
			case c <= 1:
			case c > limit && shift > 0:
				split(sub, shift-8)
			case shift > 0:
				buckets = append(buckets, bucket{sub, shift - 8})
			}
		}
	}
	split(x, 56)
	slices.SortFunc(buckets, func(a, b bucket) int { return cmp.Compare(len(b.keys), len(a.keys)) })
	bufs := make(chan []uint64, workers)
	for range workers {
		bufs <- make([]uint64, lsdMax)
	}
	forEach(len(buckets), func(i int) {
		buf := <-bufs
		sortFrom(buckets[i].keys, buckets[i].shift, buf)
		bufs <- buf
	})
}
