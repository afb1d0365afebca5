package classify

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/estimate"
)

// The per-job loops that run on every core (forRowBlocks: execution
// times, the paper features, the scaling) give the same bits as one
// serial pass in row order, on a table of several blocks with a ragged
// last one, every row or a subset of them.
func TestRowBlocksMatchSerial(t *testing.T) {
	const n = 3*rowBlock + 1234
	rng := rand.New(rand.NewPCG(11, 12))
	users := make([]string, n)
	in, sh, out := make([]int64, n), make([]int64, n), make([]int64, n)
	prio := make([]int32, n)
	sizes := make([]float64, n)
	for i := range users {
		users[i] = []string{"U1", "U2", "U5", "other", "x"}[rng.IntN(5)]
		in[i] = int64(math.Exp(10 + 4*rng.NormFloat64()))
		sh[i] = int64(math.Exp(8 + 3*rng.NormFloat64()))
		out[i] = int64(math.Exp(12 + rng.NormFloat64()))
		prio[i] = int32(1 + rng.IntN(3))
		sizes[i] = float64(in[i]+sh[i]) * 1e-9
	}
	j := synthetic(users, in, sh, out, prio)
	spec := cluster.DefaultSpec()
	types := MachineTypes(spec)
	jt := newJobTimes(j, sizes, 1, types, 1e-6, DefaultBlockBytes, estimate.ErrorModel{}, 1, n)
	all := allTimes(jt)
	for i := 0; i < n; i++ {
		d := JobDemand(j, sizes, i, 1e-6, DefaultBlockBytes)
		if all.taskData[i] != d.TaskData {
			t.Fatalf("row %d: task data %v, serial %v", i, all.taskData[i], d.TaskData)
		}
		for k, m := range types {
			if got, want := all.t[i*len(types)+k], m.ExecTime(d); math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("row %d, type %d: time %v, serial %v", i, k, got, want)
			}
		}
	}
	var subset []int
	for i := 0; i < n; i += 1 + rng.IntN(3) {
		subset = append(subset, i)
	}
	for _, rows := range [][]int{nil, subset} {
		var m Model
		m.Types = types
		m.fillUsers(j, rows, spec, span(j.Submit))
		x := m.paperMatrix(j, rows, jt, nil)
		d := len(types) + 2
		k := 0
		forRows(n, rows, func(i int) {
			user := j.UserAt(i)
			want := make([]float64, d)
			if p, ok := m.UserPriority[user]; ok {
				want[0] = p
			} else {
				want[0] = float64(j.PriorityAt(i))
			}
			for t := range types {
				want[1+t] = rate(all.t[i*len(types)+t])
			}
			want[d-1] = m.UserArrival[user]
			if got := x.RawRowView(k); !slices.Equal(got, want) {
				t.Fatalf("output row %d (job %d): %v, serial %v", k, i, got, want)
			}
			k++
		})
		methods := make([]Method, d)
		for c := range methods {
			methods[c] = []Method{Log, ZScore, LogUnit, None}[c%4]
		}
		raw := mat.DenseCopyOf(x) // fitApply scales x in place
		s, z, err := fitApply(x, methods, true)
		if err != nil {
			t.Fatal(err)
		}
		rn, _ := x.Dims()
		for c, meth := range methods {
			col := make([]float64, rn)
			for i := range col {
				col[i] = raw.At(i, c)
				if meth == Log || meth == LogUnit {
					col[i] = s.nonlinear(c, col[i])
				}
			}
			for i, v := range col {
				if got, want := z.At(i, c), (v-s.Mean[c])/s.Std[c]; math.Float64bits(got) != math.Float64bits(want) {
					t.Fatalf("column %d, row %d: scaled %v, serial %v", c, i, got, want)
				}
			}
		}
	}
}
