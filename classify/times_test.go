package classify

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/estimate"
)

// flatTimes are every row's times (row-major rows × types) and task data.
type flatTimes struct{ t, taskData []float64 }

// allTimes reads every row of jt in order.
func allTimes(jt *jobTimes) flatTimes {
	var out flatTimes
	r := jt.rows()
	for i := 0; i < jt.j.Len(); i++ {
		ti, td := r.row(i)
		out.t = append(out.t, ti...)
		out.taskData = append(out.taskData, td)
	}
	return out
}

// The estimates drawn block by block from the kept generator states equal
// one pass of ErrorModel.Apply over every job's times in row order from
// RunRand(seed, errorStream) (what newJobTimes drew before), whichever
// rows are read and in whatever order the blocks are visited, for both
// error models; +Inf (a job that does not fit) stays +Inf.
func TestJobTimesDrawsMatchOnePass(t *testing.T) {
	const n = 3*timeBlock + 77
	j, sizes := pinLog(n)
	types := MachineTypes(cluster.DefaultSpec())
	nt := len(types)
	exact := allTimes(newJobTimes(j, sizes, 1, types, 1e-9, DefaultBlockBytes, estimate.ErrorModel{}, 0, n))
	for _, errs := range []estimate.ErrorModel{{Kind: estimate.Uniform, I: 0.3}, {Kind: estimate.LogNormal, Sigma: 0.7}} {
		want := errs.Apply(exact.t, estimate.RunRand(5, errorStream), nil)
		for k, v := range exact.t {
			if math.IsInf(v, 1) {
				want[k] = v
			}
		}
		jt := newJobTimes(j, sizes, 1, types, 1e-9, DefaultBlockBytes, errs, 5, n)
		// Rows visited backwards by block, and a fresh reader for a
		// random subset: the same bits.
		r := jt.rows()
		for b := (n - 1) / timeBlock; b >= 0; b-- {
			for i := b * timeBlock; i < min(n, (b+1)*timeBlock); i++ {
				got, _ := r.row(i)
				for k, v := range got {
					if math.Float64bits(v) != math.Float64bits(want[i*nt+k]) {
						t.Fatalf("%v: row %d type %d: %v, one pass %v", errs, i, k, v, want[i*nt+k])
					}
				}
			}
		}
		rng := rand.New(rand.NewPCG(1, 2))
		r = jt.rows()
		for i := rng.IntN(50); i < n; i += 1 + rng.IntN(3000) {
			got, td := r.row(i)
			if td != exact.taskData[i] || math.Float64bits(got[0]) != math.Float64bits(want[i*nt]) {
				t.Fatalf("%v: subset row %d: %v (%v), one pass %v (%v)", errs, i, got[0], td, want[i*nt], exact.taskData[i])
			}
		}
	}
}
