package lp

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkCOSHH solves random COSHH LPs (see randomCOSHH) by column
// generation and in full, with CLP and gonum. The dense gonum simplex is run
// only where it finishes in seconds (gonum's column generation at 200×50
// takes ~20 s; its full solve there is not run).
//
//	go test -run '^$' -bench COSHH -benchtime 1x ./lp

// benchCOSHH solves a random COSHH LP of nc classes × nt machine types.
func benchCOSHH(b *testing.B, nc, nt int, s Solver, meth Method) {
	if s == CLP && !CLPAvailable() {
		b.Skip("CLP not available")
	}
	p := randomCOSHH(rand.New(rand.NewPCG(uint64(nc), uint64(nt))), nc, nt)
	b.ResetTimer()
	var sol *COSHHSolution
	var err error
	for i := 0; i < b.N; i++ {
		sol, err = SolveCOSHH(p, COSHHOptions{Solver: s, Method: meth})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(b.Elapsed().Seconds()*1000/float64(b.N), "ms/solve")
	b.ReportMetric(float64(sol.Rounds), "rounds")
	b.ReportMetric(float64(sol.Columns), "columns")
}

func BenchmarkCOSHH(b *testing.B) {
	for _, c := range []struct {
		nc, nt int
		s      Solver
		meth   Method
	}{
		{50, 10, CLP, ColumnGeneration},
		{50, 10, CLP, Full},
		{50, 10, Gonum, ColumnGeneration},
		{50, 10, Gonum, Full},
		{200, 50, CLP, ColumnGeneration},
		{200, 50, CLP, Full},
		{200, 50, Gonum, ColumnGeneration},
		{2000, 500, CLP, ColumnGeneration},
	} {
		b.Run(fmt.Sprintf("%dx%d/%s/%v", c.nc, c.nt, c.s, c.meth), func(b *testing.B) {
			benchCOSHH(b, c.nc, c.nt, c.s, c.meth)
		})
	}
}
