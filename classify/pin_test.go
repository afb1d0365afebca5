package classify

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/estimate"
)

// pinLog is a generated log of several row blocks (and error-time blocks)
// with a ragged end, four users of which three have min_share > 0 in the
// default spec, heavy-tailed bytes, and some jobs whose tasks fit no small
// machine type (+Inf times).
func pinLog(n int) (*data.Jobs, []float64) {
	rng := rand.New(rand.NewPCG(30, 8))
	users := make([]string, n)
	in, sh, out := make([]int64, n), make([]int64, n), make([]int64, n)
	prio := make([]int32, n)
	sizes := make([]float64, n)
	for i := range users {
		users[i] = []string{"U1", "U2", "U5", "other"}[rng.IntN(4)]
		in[i] = int64(math.Exp(14 + 5*rng.NormFloat64()))
		sh[i] = int64(math.Exp(10 + 4*rng.NormFloat64()))
		out[i] = int64(math.Exp(12 + 2*rng.NormFloat64()))
		prio[i] = int32(1 + rng.IntN(3))
		sizes[i] = float64(in[i]+sh[i]) * 1e-9
		if i%97 == 0 {
			sizes[i] = 0 // floored at the smallest positive size
		}
	}
	return synthetic(users, in, sh, out, prio), sizes
}

// digest hashes what a classification computed: k, inertia, the
// assignments and, per class, its count, α, μ, task bytes, centre and
// radius (every float by its bits).
func digest(h []byte, r *Result) []byte {
	w := sha256.New()
	put := func(v float64) { _ = binary.Write(w, binary.LittleEndian, math.Float64bits(v)) }
	_ = binary.Write(w, binary.LittleEndian, int64(r.K))
	put(r.Inertia)
	_ = binary.Write(w, binary.LittleEndian, r.Assign)
	for _, c := range r.Classes {
		_ = binary.Write(w, binary.LittleEndian, int64(c.Count))
		put(c.Alpha)
		put(c.MeanTaskBytes)
		put(c.Radius)
		put(c.MeanSize)
		for _, v := range c.Mu {
			put(v)
		}
		for _, v := range c.Centroid {
			put(v)
		}
	}
	w.Write(h)
	return w.Sum(nil)
}

// COSHH's classifications, their features of a subset of rows and a refit
// are pinned, bit for bit, to what they were when every job's execution
// times were materialised at once (newJobTimes before the row-block
// estimates): without errors, with uniform errors and with log-normal ones
// (drawn per job and type in row order from one stream). It passes on the
// old code too: it pins.
func TestCOSHHPinned(t *testing.T) {
	if testing.Short() {
		t.Skip("pins a 100k-row classification")
	}
	const n = 3*rowBlock + 1234
	j, sizes := pinLog(n)
	spec := cluster.DefaultSpec()
	var subset []int
	for i := 5; i < n; i += 7 {
		subset = append(subset, i)
	}
	want := map[string]string{
		"exact":     "255e9a410a3ed2904ad800da15cc99e6e3e32cfbe781ef0b1e21ea62dd8e86bf",
		"uniform":   "f3652e5d3597a82e33052bbb96e8b744ef3cb645a7ff72c13227d20ca6041554",
		"lognormal": "7db7233c2a2a142445465c6812db6455ec1711aabb27be6444455771f8cce0c1",
	}
	for _, tc := range []struct {
		name string
		errs estimate.ErrorModel
	}{
		{"exact", estimate.ErrorModel{}},
		{"uniform", estimate.ErrorModel{Kind: estimate.Uniform, I: 0.4}},
		{"lognormal", estimate.ErrorModel{Kind: estimate.LogNormal, Sigma: 0.5}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pr, sec, err := COSHH(j, sizes, spec, Options{K: 4, Seed: 3, Sample: 20_000, TimeErrors: tc.errs})
			if err != nil {
				t.Fatal(err)
			}
			if pr.Sample == nil || sec.Sample == nil || len(pr.Rows) == 0 || len(pr.Rows) == n {
				t.Fatalf("want sampled fits and a proper primary subset: %v %v %d rows", pr.Sample, sec.Sample, len(pr.Rows))
			}
			h := digest(digest(nil, pr), sec)
			x, err := sec.FeatureRows(j, sizes, subset)
			if err != nil {
				t.Fatal(err)
			}
			w := sha256.New()
			_ = binary.Write(w, binary.LittleEndian, x.RawMatrix().Data)
			w.Write(h)
			h = w.Sum(nil)
			re, err := sec.Refit(j, sizes, subset, sec.Centres(), Options{Seed: 3})
			if err != nil {
				t.Fatal(err)
			}
			if got := fmt.Sprintf("%x", digest(h, re)); got != want[tc.name] {
				t.Errorf("digest %s, pinned %s", got, want[tc.name])
			}
		})
	}
}
