package classify

import (
	"encoding/binary"
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// FuzzKMeans feeds small arbitrary matrices (any float64 bits, so NaN, Inf,
// duplicates and huge values) and k to KMeans: it must return an error or a
// consistent result, never panic.
func FuzzKMeans(f *testing.F) {
	f.Add([]byte{3, 2, 1, 0, 0, 0, 0, 0, 0, 240, 63}, uint8(2))
	f.Add(make([]byte, 200), uint8(3))
	f.Fuzz(func(t *testing.T, b []byte, kb uint8) {
		if len(b) < 2 {
			return
		}
		d := int(b[0]%4) + 1
		vals := (len(b) - 1) / 8
		n := vals / d
		if n == 0 || n > 64 {
			return
		}
		x := mat.NewDense(n, d, nil)
		for i := 0; i < n*d; i++ {
			x.RawMatrix().Data[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[1+8*i:]))
		}
		k := int(kb%8) + 1
		r, err := KMeans(x, k, KMeansOptions{Restarts: 2, Seed: uint64(kb), MaxIter: 50})
		if err != nil {
			return
		}
		if len(r.Assign) != n || r.Inertia < 0 || math.IsNaN(r.Inertia) && !hasHuge(x) {
			t.Fatalf("n=%d k=%d: %d assignments, inertia %v", n, k, len(r.Assign), r.Inertia)
		}
		for _, a := range r.Assign {
			if a < 0 || int(a) >= k {
				t.Fatalf("assignment %d out of range", a)
			}
		}
	})
}

// hasHuge reports values whose squares overflow (inertia may then be Inf or
// NaN, an honest outcome).
func hasHuge(x *mat.Dense) bool {
	for _, v := range x.RawMatrix().Data {
		if math.Abs(v) > 1e150 {
			return true
		}
	}
	return false
}
