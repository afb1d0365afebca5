package classify

import "fmt"

// AdjustedRand returns the adjusted Rand index of two partitions of the same
// items (Hubert and Arabie 1985): 1 for identical partitions (up to
// relabelling), about 0 for independent ones. Labels must be ≥ 0. When both
// partitions put every item in one cluster (or each in its own), the index
// is 1.
func AdjustedRand(a, b []int32) (float64, error) {
	if len(a) != len(b) {
		return 0, fmt.Errorf("adjusted Rand: partitions of %d and %d items", len(a), len(b))
	}
	type pair struct{ x, y int32 }
	joint := map[pair]int{}
	ca, cb := map[int32]int{}, map[int32]int{}
	for i := range a {
		if a[i] < 0 || b[i] < 0 {
			return 0, fmt.Errorf("adjusted Rand: item %d has a negative label", i)
		}
		joint[pair{a[i], b[i]}]++
		ca[a[i]]++
		cb[b[i]]++
	}
	c2 := func(n int) float64 { return float64(n) * float64(n-1) / 2 }
	var index, sa, sb float64
	for _, n := range joint {
		index += c2(n)
	}
	for _, n := range ca {
		sa += c2(n)
	}
	for _, n := range cb {
		sb += c2(n)
	}
	total := c2(len(a))
	if total == 0 {
		return 1, nil
	}
	expected := sa * sb / total
	maxIndex := (sa + sb) / 2
	if maxIndex == expected {
		return 1, nil
	}
	return (index - expected) / (maxIndex - expected), nil
}
