package lp

import (
	"errors"
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/mat"
)

// Duals for the gonum backend, whose Simplex returns the optimal point but
// not its basis: recovered from the point (basisDuals, with a few
// degenerate crossover pivots), or from the dual LP (gonumDual).

// gonumDuals finds duals y for the standard form at its optimum z: first
// from a basis recovered from z (the positive columns, completed with
// independent columns, slacks first), accepted if it is dual feasible
// (ĉ − Âᵀy ≥ −tol); otherwise by solving the dual LP.
//
// dualLP false skips the dual LP (the column-generation masters: gonum's
// Simplex can cycle forever on that degenerate LP, as on the embedded
// trace's COSHH LP with k = 8; the master then goes on without duals, with
// every column).
func gonumDuals(c []float64, A *mat.Dense, b, z []float64, dualLP bool) (y []float64, basis []int, err error) {
	if y, basis := basisDuals(c, A, b, z); y != nil {
		return y, basis, nil
	}
	if !dualLP {
		return nil, nil, errors.New("no optimal basis recovered from the point")
	}
	m, n := A.Dims()
	if n*(2*m+n) > maxDualEntries {
		return nil, nil, fmt.Errorf("no optimal basis recovered, and the dual LP (%d×%d dense) is too large for the gonum backend", n, 2*m+n)
	}
	y, err = gonumDual(c, A, b)
	return y, nil, err
}

// basisDuals returns y = B⁻ᵀ c_B and an optimal basis B recovered from z
// (the positive columns, completed with independent columns, then made dual
// feasible by crossover), or nil when that fails.
func basisDuals(c []float64, A *mat.Dense, b, z []float64) ([]float64, []int) {
	m, n := A.Dims()
	zmax := 0.0
	for _, v := range z {
		zmax = math.Max(zmax, math.Abs(v))
	}
	var order []int
	for j, v := range z {
		if v > 1e-9*math.Max(1, zmax) {
			order = append(order, j)
		}
	}
	if len(order) > m {
		return nil, nil
	}
	// Then the other columns, the ones with few entries (slacks) first.
	nnz := make([]int, n)
	for j := 0; j < n; j++ {
		for i := 0; i < m; i++ {
			if A.At(i, j) != 0 {
				nnz[j]++
			}
		}
	}
	var rest []int
	for j := 0; j < n; j++ {
		if !(z[j] > 1e-9*math.Max(1, zmax)) {
			rest = append(rest, j)
		}
	}
	sort.SliceStable(rest, func(a, b int) bool { return nnz[rest[a]] < nnz[rest[b]] })
	order = append(order, rest...)
	col := make([]float64, m)
	keep, _ := independentRows(len(order), m, m, func(k int, dst []float64) float64 {
		mat.Col(col, order[k], A)
		copy(dst, col)
		return 0
	})
	var basis []int
	for k, ok := range keep {
		if ok {
			basis = append(basis, order[k])
			if len(basis) == m {
				break
			}
		}
	}
	if len(basis) != m {
		return nil, nil
	}
	return crossover(c, A, b, basis)
}

// crossover runs primal simplex pivots (Bland's rule, dense LU) from a
// primal feasible basis until it is dual feasible, and returns the duals
// and the basis; nil when it does not get there. From a basis recovered
// at an optimal point the pivots are degenerate and few: they fix a
// completion of the basis that the optimal point did not determine.
func crossover(c []float64, A *mat.Dense, b []float64, basis []int) ([]float64, []int) {
	m, n := A.Dims()
	inBasis := make([]bool, n)
	for _, j := range basis {
		inBasis[j] = true
	}
	B := mat.NewDense(m, m, nil)
	col := make([]float64, m)
	cb := make([]float64, m)
	var lu mat.LU
	var y, xb, d mat.VecDense
	for iter := 0; iter <= 20*m; iter++ {
		for k, j := range basis {
			mat.Col(col, j, A)
			B.SetCol(k, col)
			cb[k] = c[j]
		}
		lu.Factorize(B)
		if math.IsInf(lu.Cond(), 1) {
			return nil, nil
		}
		// A mat.Condition error is a warning about accuracy; the duals
		// are checked below and column generation is checked against full
		// solves in the tests.
		if err := lu.SolveVecTo(&y, true, mat.NewVecDense(m, cb)); err != nil && !isCondition(err) {
			return nil, nil
		}
		yv := y.RawVector().Data
		enter := -1
		for j := 0; j < n && enter < 0; j++ {
			if inBasis[j] {
				continue
			}
			// Dual feasibility relative to the size of the terms of c_j − A_jᵀy.
			rc, size := c[j], math.Abs(c[j])
			for i := 0; i < m; i++ {
				t := A.At(i, j) * yv[i]
				rc -= t
				size += math.Abs(t)
			}
			if rc < -1e-9*math.Max(1, size) {
				enter = j // Bland: the first improving column
			}
		}
		if enter < 0 {
			return append([]float64(nil), yv...), basis
		}
		if err := lu.SolveVecTo(&xb, false, mat.NewVecDense(m, b)); err != nil && !isCondition(err) {
			return nil, nil
		}
		mat.Col(col, enter, A)
		if err := lu.SolveVecTo(&d, false, mat.NewVecDense(m, col)); err != nil && !isCondition(err) {
			return nil, nil
		}
		dv, xv := d.RawVector().Data, xb.RawVector().Data
		dmax := 0.0
		for _, v := range dv {
			dmax = math.Max(dmax, math.Abs(v))
		}
		leave, best := -1, math.Inf(1)
		for k, v := range dv {
			if v <= 1e-9*dmax {
				continue
			}
			ratio := math.Max(xv[k], 0) / v
			// Bland: ties go to the smallest column index.
			if ratio < best*(1-1e-12) || (ratio <= best*(1+1e-12) && leave >= 0 && basis[k] < basis[leave]) {
				leave, best = k, ratio
			}
		}
		if leave < 0 {
			return nil, nil // unbounded direction: not an optimal point
		}
		inBasis[basis[leave]] = false
		inBasis[enter] = true
		basis[leave] = enter
	}
	return nil, nil
}

func isCondition(err error) bool {
	var c mat.Condition
	return errors.As(err, &c)
}

// gonumDual solves max bᵀ y s.t. Aᵀ y ≤ c (y free) as the standard form
// min −bᵀ(y⁺ − y⁻) s.t. Aᵀ y⁺ − Aᵀ y⁻ + t = c, and returns y.
func gonumDual(c []float64, A *mat.Dense, b []float64) ([]float64, error) {
	m, n := A.Dims()
	D := mat.NewDense(n, 2*m+n, nil)
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			if v := A.At(i, j); v != 0 {
				D.Set(j, i, v)
				D.Set(j, m+i, -v)
			}
		}
	}
	for j := 0; j < n; j++ {
		D.Set(j, 2*m+j, 1)
	}
	cd := make([]float64, 2*m+n)
	for i := 0; i < m; i++ {
		cd[i], cd[m+i] = -b[i], b[i]
	}
	// y⁺ and y⁻ columns for a row with b = 0 and the same entries are twins;
	// gonum copes. A zero row of A cannot occur (dropped in conversion).
	_, w, err := gonumSimplex(cd, D, c, nil)
	if err != nil {
		return nil, fmt.Errorf("the dual LP failed: %v", err)
	}
	y := make([]float64, m)
	for i := range y {
		y[i] = w[i] - w[m+i]
	}
	return y, nil
}
