// Package radix sorts large slices of 64-bit keys (uint64s, float64s) in
// place by radix, most significant byte first: a bucket of more than
// lsdMax keys is split by its next byte in place (one pass counts, one
// moves every key into its bucket: an "American flag" sort, no buffer); a
// smaller one is sorted by its remaining bytes least significant first
// through a buffer of lsdMax keys (512 KiB, in cache), a bucket of few keys
// by slices.Sort. On 5 M keys it costs several times less CPU than
// slices.Sort. Uint64sOn and Float64sOn sort the buckets on several
// goroutines, which the caller's loop (par.For) runs. SelectFloat64s
// finds values of given ranks in the same order without sorting, moving
// or copying them.
//
// It imports only the standard library.
package radix

import (
	"math"
	"slices"
	"unsafe"
)

// lsdMax is the most keys a bucket sorted through the buffer may hold.
const lsdMax = 1 << 16

// smallBucket is the size up to which a bucket is left to slices.Sort.
const smallBucket = 64

// Uint64s sorts x in ascending order, in place.
func Uint64s(x []uint64) {
	if len(x) <= smallBucket {
		slices.Sort(x)
		return
	}
	sortFrom(x, 56, make([]uint64, min(len(x), lsdMax)))
}

// sortFrom sorts x, whose keys agree above bit shift+8, by the byte at
// shift and those below it.
func sortFrom(x []uint64, shift uint, buf []uint64) {
	switch {
	case len(x) <= smallBucket:
		slices.Sort(x)
		return
	case len(x) <= lsdMax:
		lowBytes(x, buf[:len(x)], int(shift/8)+1)
		return
	}
	count := splitByte(x, shift)
	if shift == 0 {
		return
	}
	lo := 0
	for _, c := range count {
		if c > 1 {
			sortFrom(x[lo:lo+c], shift-8, buf)
		}
		lo += c
	}
}

// splitByte moves the keys of x into buckets by their byte at shift, in
// place (one pass counts, one moves every key into its bucket), and returns
// the buckets' sizes.
func splitByte(x []uint64, shift uint) (count [256]int) {
	for _, v := range x {
		count[byte(v>>shift)]++
	}
	var head, end [256]int
	sum := 0
	for b, c := range count {
		head[b], end[b] = sum, sum+c
		sum += c
	}
	permute(x, head[:], end[:], shift, 0xff)
	return count
}

// permute moves every key v of x into its bucket d = v>>shift & mask in
// place, bucket d being x[head[d]:end[d]] (head is used up): the moving
// pass of an American flag sort.
func permute(x []uint64, head, end []int, shift uint, mask uint64) {
	for b := range head {
		for head[b] < end[b] {
			v := x[head[b]]
			d := int(v >> shift & mask)
			for d != b { // carry v to its bucket, taking the key it displaces
				x[head[d]], v = v, x[head[d]]
				head[d]++
				d = int(v >> shift & mask)
			}
			x[head[b]] = v
			head[b]++
		}
	}
}

// lowBytes sorts x (keys that agree above their bytes low bytes) by those
// bytes, least significant first, through buf (len(x) long).
func lowBytes(x, buf []uint64, bytes int) {
	var count [8][256]int
	for _, v := range x {
		for d := 0; d < bytes; d++ {
			count[d][byte(v>>(8*d))]++
		}
	}
	src, dst := x, buf
	for d := 0; d < bytes; d++ {
		c := &count[d]
		if c[byte(src[0]>>(8*d))] == len(src) {
			continue // every key has this digit: nothing moves
		}
		var pos [256]int
		sum := 0
		for b := range c {
			pos[b] = sum
			sum += c[b]
		}
		shift := uint(8 * d)
		for _, v := range src {
			b := byte(v >> shift)
			dst[pos[b]] = v
			pos[b]++
		}
		src, dst = dst, src
	}
	if &src[0] != &x[0] {
		copy(x, src)
	}
}

// Float64s sorts x in ascending order, in place. The order is that of the
// values' bits read as numbers of their sign: −0 before +0, and NaNs at the
// ends (negative ones first, positive ones last), where slices.Sort puts
// every NaN first.
func Float64s(x []float64) {
	k := unsafe.Slice((*uint64)(unsafe.Pointer(unsafe.SliceData(x))), len(x))
	for i, v := range k {
		k[i] = orderKey(v)
	}
	Uint64s(k)
	for i, v := range k {
		x[i] = math.Float64frombits(fromOrderKey(v))
	}
}

// orderKey maps a float64's bits to a uint64 whose order is the values':
// negative numbers have every bit flipped, the others their sign bit set.
func orderKey(bits uint64) uint64 {
	if bits>>63 != 0 {
		return ^bits
	}
	return bits | 1<<63
}

func fromOrderKey(k uint64) uint64 {
	if k>>63 != 0 {
		return k &^ (1 << 63)
	}
	return ^k
}
