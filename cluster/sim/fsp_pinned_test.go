package sim

import (
	"fmt"
	"hash/fnv"
	"math"
	"testing"
)

// fspPinned are FNV-64a hashes of every completion's and response's bits
// of FSP runs on synthetic instances (fspPinnedRuns), as FSP computed them
// before its virtual-completion loop stopped reading rem and the estimate
// of every copy it looks at: the rewrite must give the same bits.
var fspPinned = map[string]uint64{
	"fsp+ps/0.7/0":     0x5e6a8a3dad72d393,
	"fsp+ps/0.7/0.5":   0xb830d19e81375aff,
	"fsp+ps/0.7/1":     0x30f7b0e5452c9e6,
	"fsp+ps/1/0":       0xc9e34a1572a74cd9,
	"fsp+ps/1/0.5":     0xde75e2a8eb3b1fac,
	"fsp+ps/1/1":       0xd54d396d5a24e0cf,
	"fsp+ps/1.3/0":     0x6734c3b47e717324,
	"fsp+ps/1.3/0.5":   0xd59f26a275f75fe8,
	"fsp+ps/1.3/1":     0xd8a6ca4d0df88515,
	"fsp+fifo/0.7/0":   0x5e6a8a3dad72d393,
	"fsp+fifo/0.7/0.5": 0x2cea5c7e2ad7b6d1,
	"fsp+fifo/0.7/1":   0x346a34382bf7818,
	"fsp+fifo/1/0":     0xc9e34a1572a74cd9,
	"fsp+fifo/1/0.5":   0xde75e2a8eb3b1fac,
	"fsp+fifo/1/1":     0xd6e941361a75d72b,
	"fsp+fifo/1.3/0":   0x6734c3b47e717324,
	"fsp+fifo/1.3/0.5": 0xd59f26a275f75fe8,
	"fsp+fifo/1.3/1":   0xd8a6ca4d0df88515,
}

// fspPinnedHash runs spec over synthetic jobs and hashes the results.
func fspPinnedHash(t *testing.T, spec string, load, sigma float64) uint64 {
	t.Helper()
	jobs := synthetic(30_000, load, sigma, 21)
	r, err := Simulate(jobs, 1, mustPolicy(t, spec))
	if err != nil {
		t.Fatal(err)
	}
	h := fnv.New64a()
	var b [8]byte
	for i := range r.Completion {
		for _, v := range []float64{r.Completion[i], r.Response[i]} {
			u := math.Float64bits(v)
			for k := range b {
				b[k] = byte(u >> (8 * k))
			}
			h.Write(b[:])
		}
	}
	return h.Sum64()
}

// TestFSPPinned compares FSP's results with the pinned hashes.
func TestFSPPinned(t *testing.T) {
	for _, spec := range []string{"fsp+ps", "fsp+fifo"} {
		for _, load := range []float64{0.7, 1, 1.3} {
			for _, sigma := range []float64{0, 0.5, 1} {
				key := fmt.Sprintf("%s/%g/%g", spec, load, sigma)
				got := fspPinnedHash(t, spec, load, sigma)
				if want, ok := fspPinned[key]; !ok || got != want {
					t.Errorf("%s: hash %#x, pinned %#x", key, got, want)
				}
			}
		}
	}
}
