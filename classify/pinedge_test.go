package classify

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"testing"

	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/estimate"
)

// COSHH's classifications, their features of a subset of rows and a refit
// are pinned, bit for bit, to what the code before the row-block
// estimates computed (f595445), at the edges TestCOSHHPinned leaves out:
// logs of 1 row and of one row fewer and more than an error block, one
// and two machine types, the widest error models (uniform I = 0.999,
// log-normal σ = 10), and k = 256 and 257 on a sampled fit (the best
// refinement's assignment kept a byte a row, and not).
func TestCOSHHPinnedEdges(t *testing.T) {
	if testing.Short() {
		t.Skip("pins 70 classifications")
	}
	const block = 1 << 12 // timeBlock, the rows of one block of error draws
	h := sha256.New()
	put := func(s string, args ...any) { fmt.Fprintf(h, s, args...) }
	for _, n := range []int{1, block - 1, block + 1} {
		j, sizes := pinLog(n)
		var subset []int
		for i := n / 3; i < n; i += 3 {
			subset = append(subset, i)
		}
		for _, nt := range []int{1, 2} {
			spec := cluster.DefaultSpec()
			spec.Resources = spec.Resources[:nt]
			for _, errs := range []estimate.ErrorModel{{}, {Kind: estimate.Uniform, I: 0.3}, {Kind: estimate.Uniform, I: 0.999},
				{Kind: estimate.LogNormal, Sigma: 0.5}, {Kind: estimate.LogNormal, Sigma: 10}} {
				ks := []int{min(n, 3)}
				if n > block && nt == 2 && errs.Kind == estimate.LogNormal && errs.Sigma == 0.5 {
					ks = append(ks, 256, 257)
				}
				for _, k := range ks {
					pr, sec, err := COSHH(j, sizes, spec, Options{K: k, Seed: 3, Sample: 2000, Restarts: 2, TimeErrors: errs})
					put("n %d types %d %v k %d: ", n, nt, errs, k)
					if err != nil {
						put("%v\n", err)
						continue
					}
					if k > 3 && (sec.Sample == nil || len(sec.Classes) != k) {
						t.Fatalf("k %d: want a sampled fit of %d classes: %v, %d classes", k, k, sec.Sample, len(sec.Classes))
					}
					h.Write(digest(digest(nil, pr), sec))
					if len(subset) < len(sec.Classes) {
						continue
					}
					x, err := sec.FeatureRows(j, sizes, subset)
					if err != nil {
						t.Fatal(err)
					}
					_ = binary.Write(h, binary.LittleEndian, x.RawMatrix().Data)
					re, err := sec.Refit(j, sizes, subset, sec.Centres(), Options{Seed: 3})
					if err != nil {
						t.Fatal(err)
					}
					h.Write(digest(nil, re))
				}
			}
		}
	}
	const want = "e7472b44f70aefda56758fe91ae3e06d4947d050b6395abdf6d6aee1d95d1a1d"
	if got := fmt.Sprintf("%x", h.Sum(nil)); got != want {
		t.Errorf("digest %s, pinned %s", got, want)
	}
}
