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

// BenchmarkCOSHHCanonical times the canonical allocation: the whole solve
// (λ, then the second LP on the same master) against λ alone
// (LambdaOnly); the difference is the second LP's time.
//
//	go test -run '^$' -bench COSHHCanonical -benchtime 3x ./lp
func BenchmarkCOSHHCanonical(b *testing.B) {
	for _, c := range []struct {
		nc, nt int
		s      Solver
	}{{200, 50, CLP}, {2000, 500, CLP}, {50, 10, Gonum}} {
		for _, lambdaOnly := range []bool{true, false} {
			name := "canonical"
			if lambdaOnly {
				name = "lambda-only"
			}
			b.Run(fmt.Sprintf("%dx%d/%s/%s", c.nc, c.nt, c.s, name), func(b *testing.B) {
				if c.s == CLP && !CLPAvailable() {
					b.Skip("CLP not available")
				}
				p := randomCOSHH(rand.New(rand.NewPCG(uint64(c.nc), uint64(c.nt))), c.nc, c.nt)
				var sol *COSHHSolution
				var err error
				for i := 0; i < b.N; i++ {
					if sol, err = SolveCOSHH(p, COSHHOptions{Solver: c.s, LambdaOnly: lambdaOnly}); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(b.Elapsed().Seconds()*1000/float64(b.N), "ms/solve")
				b.ReportMetric(float64(sol.Rounds), "rounds")
				b.ReportMetric(float64(sol.CanonicalRounds), "canonical-rounds")
				b.ReportMetric(sol.CanonicalTime.Seconds()*1000, "canonical-ms")
				b.ReportMetric(sol.LPTime.Seconds()*1000, "lp-ms")
				polished := 0.0
				if sol.Polished {
					polished = 1
				}
				b.ReportMetric(polished, "polished")
			})
		}
	}
}

// perturbed returns p with every α and μ changed by up to ±10% (a
// re-classification moves the classes' rates a little).
func perturbed(p *COSHHProblem, r *rand.Rand) *COSHHProblem {
	q := *p
	q.Alpha = make([]float64, len(p.Alpha))
	q.Mu = make([][]float64, len(p.Mu))
	for i := range p.Alpha {
		q.Alpha[i] = p.Alpha[i] * (0.9 + 0.2*r.Float64())
		q.Mu[i] = make([]float64, len(p.Mu[i]))
		for t, v := range p.Mu[i] {
			q.Mu[i][t] = v * (0.9 + 0.2*r.Float64())
		}
	}
	return &q
}

// BenchmarkCOSHHResolve times the re-solve after a re-classification (α
// and μ moved by up to ±10%): cold, and warm-started from the previous
// solution's columns (COSHHOptions.Warm).
//
//	go test -run '^$' -bench COSHHResolve -benchtime 5x ./lp
func BenchmarkCOSHHResolve(b *testing.B) {
	for _, c := range []struct {
		nc, nt int
		s      Solver
	}{{200, 50, CLP}, {2000, 500, CLP}, {50, 10, Gonum}} {
		for _, warm := range []bool{false, true} {
			name := "cold"
			if warm {
				name = "warm"
			}
			b.Run(fmt.Sprintf("%dx%d/%s/%s", c.nc, c.nt, c.s, name), func(b *testing.B) {
				if c.s == CLP && !CLPAvailable() {
					b.Skip("CLP not available")
				}
				r := rand.New(rand.NewPCG(uint64(c.nc), uint64(c.nt)))
				p := randomCOSHH(r, c.nc, c.nt)
				prev, err := SolveCOSHH(p, COSHHOptions{Solver: c.s})
				if err != nil {
					b.Fatal(err)
				}
				q := perturbed(p, r)
				opt := COSHHOptions{Solver: c.s}
				if warm {
					opt.Warm = prev
				}
				b.ResetTimer()
				var sol *COSHHSolution
				for i := 0; i < b.N; i++ {
					if sol, err = SolveCOSHH(q, opt); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(b.Elapsed().Seconds()*1000/float64(b.N), "ms/solve")
				b.ReportMetric(float64(sol.Rounds+sol.CanonicalRounds), "rounds")
			})
		}
	}
}
