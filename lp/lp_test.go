package lp

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// backends lists the solvers this binary has; every test runs over all.
func backends() []Solver {
	if CLPAvailable() {
		return []Solver{CLP, Gonum}
	}
	return []Solver{Gonum}
}

func near(a, b, rel float64) bool {
	return math.Abs(a-b) <= rel*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

// checkKKT verifies that sol is optimal for m: primal feasibility, dual sign
// conditions and complementary slackness, and d = c − Aᵀy.
func checkKKT(t *testing.T, m *Model, sol *Solution, tol float64) {
	t.Helper()
	sigma := -1.0
	if m.Sense == Maximize {
		sigma = 1
	}
	act := m.activity(sol.X)
	for i := 0; i < m.NumRows(); i++ {
		lo, hi := m.rowLo[i], m.rowHi[i]
		a := act[i]
		sc := tol * math.Max(1, math.Abs(a))
		if a < lo-sc || a > hi+sc {
			t.Errorf("%s: row %s activity %g outside [%g, %g]", sol.Solver, m.RowName(i), a, lo, hi)
		}
		if !near(a, sol.RowActivity[i], tol) {
			t.Errorf("%s: row %s activity %g, solution says %g", sol.Solver, m.RowName(i), a, sol.RowActivity[i])
		}
		if !sol.DualsAvailable {
			continue
		}
		y := sol.Duals[i]
		atLo, atHi := math.Abs(a-lo) <= sc, math.Abs(a-hi) <= sc
		switch {
		case atLo && atHi:
		case atHi:
			if sigma*y < -tol {
				t.Errorf("%s: row %s at its upper bound has dual %g of the wrong sign", sol.Solver, m.RowName(i), y)
			}
		case atLo:
			if sigma*y > tol {
				t.Errorf("%s: row %s at its lower bound has dual %g of the wrong sign", sol.Solver, m.RowName(i), y)
			}
		default:
			if math.Abs(y) > tol {
				t.Errorf("%s: inactive row %s has dual %g", sol.Solver, m.RowName(i), y)
			}
		}
	}
	for j := 0; j < m.NumCols(); j++ {
		lo, hi, x := m.colLo[j], m.colHi[j], sol.X[j]
		sc := tol * math.Max(1, math.Abs(x))
		if x < lo-sc || x > hi+sc {
			t.Errorf("%s: column %s = %g outside [%g, %g]", sol.Solver, m.ColName(j), x, lo, hi)
		}
		if !sol.DualsAvailable {
			continue
		}
		d := sol.ReducedCosts[j]
		atLo, atHi := math.Abs(x-lo) <= sc, math.Abs(x-hi) <= sc
		switch {
		case atLo && atHi:
		case atHi:
			if sigma*d < -tol {
				t.Errorf("%s: column %s at its upper bound has reduced cost %g", sol.Solver, m.ColName(j), d)
			}
		case atLo:
			if sigma*d > tol {
				t.Errorf("%s: column %s at its lower bound has reduced cost %g", sol.Solver, m.ColName(j), d)
			}
		default:
			if math.Abs(d) > tol {
				t.Errorf("%s: basic column %s has reduced cost %g", sol.Solver, m.ColName(j), d)
			}
		}
	}
	if sol.DualsAvailable {
		d := m.reducedCosts(sol.Duals)
		for j := range d {
			if !near(d[j], sol.ReducedCosts[j], tol) {
				t.Errorf("%s: reduced cost of %s is %g, c − Aᵀy gives %g", sol.Solver, m.ColName(j), sol.ReducedCosts[j], d[j])
			}
		}
	}
	if !near(m.objective(sol.X), sol.Objective, tol) {
		t.Errorf("%s: objective %g, cᵀx = %g", sol.Solver, sol.Objective, m.objective(sol.X))
	}
}

type lpCase struct {
	name   string
	build  func() *Model
	status Status
	obj    float64
	x      []float64 // nil: not checked (several optima)
}

func smallCases() []lpCase {
	return []lpCase{
		{"max two columns", func() *Model {
			// max x + y s.t. x + 2y ≤ 4, 3x + y ≥ −1, 0 ≤ x ≤ 3, y ≥ 0.
			m := NewModel("t1", Maximize)
			r0 := m.AddRow("cap", LE(4))
			r1 := m.AddRow("lowish", GE(-1))
			m.AddColumn("x", 1, Range(0, 3), []int{r0, r1}, []float64{1, 3})
			m.AddColumn("y", 1, NonNeg(), []int{r0, r1}, []float64{2, 1})
			return m
		}, Optimal, 3.5, []float64{3, 0.5}},
		{"min with equality and free column", func() *Model {
			// min 2a + 3b − f s.t. a + b = 10, f − a ≤ 1, f free, a, b ≥ 0 → f = a+1: 2a+3b−a−1 = a + 3b − 1 with a+b=10 → a=10, b=0 → 9.
			m := NewModel("t2", Minimize)
			e := m.AddRow("sum", EQ(10))
			r := m.AddRow("link", LE(1))
			m.AddColumn("a", 2, NonNeg(), []int{e, r}, []float64{1, -1})
			m.AddColumn("b", 3, NonNeg(), []int{e}, []float64{1})
			m.AddColumn("f", -1, Free(), []int{r}, []float64{1})
			return m
		}, Optimal, 9, []float64{10, 0, 11}},
		{"range row and negative bounds", func() *Model {
			// max x − y s.t. −2 ≤ x + y ≤ 2, x ∈ [−5, 1.5], y ∈ (−∞, 4]: x = 1.5, y = −3.5 → 5.
			m := NewModel("t3", Maximize)
			r := m.AddRow("band", Range(-2, 2))
			m.AddColumn("x", 1, Range(-5, 1.5), []int{r}, []float64{1})
			m.AddColumn("y", -1, LE(4), []int{r}, []float64{1})
			return m
		}, Optimal, 5, []float64{1.5, -3.5}},
		{"fixed column and empty column", func() *Model {
			// min x + 0·z − w s.t. x + k ≥ 3 with k fixed at 1; w ∈ [0, 2] in no row → x = 2, w = 2: 0.
			m := NewModel("t4", Minimize)
			r := m.AddRow("need", GE(3))
			m.AddColumn("x", 1, NonNeg(), []int{r}, []float64{1})
			m.AddColumn("k", 5, EQ(1), []int{r}, []float64{1})
			m.AddCol("w", -1, Range(0, 2))
			return m
		}, Optimal, 5 + 2 - 2, []float64{2, 1, 2}},
		{"duplicate entries are summed", func() *Model {
			m := NewModel("t5", Maximize)
			r := m.AddRow("cap", LE(6))
			x := m.AddCol("x", 1, NonNeg())
			m.Set(r, x, 1)
			m.Set(r, x, 2) // 3x ≤ 6
			return m
		}, Optimal, 2, []float64{2}},
		{"redundant equalities", func() *Model {
			// x + y = 2, 2x + 2y = 4, x − y = 0 → x = y = 1; min x.
			m := NewModel("t6", Minimize)
			a := m.AddRow("a", EQ(2))
			b := m.AddRow("b", EQ(4))
			c := m.AddRow("c", EQ(0))
			m.AddColumn("x", 1, NonNeg(), []int{a, b, c}, []float64{1, 2, 1})
			m.AddColumn("y", 0, NonNeg(), []int{a, b, c}, []float64{1, 2, -1})
			return m
		}, Optimal, 1, []float64{1, 1}},
		{"infeasible rows", func() *Model {
			m := NewModel("inf1", Minimize)
			a := m.AddRow("ge", GE(2))
			b := m.AddRow("le", LE(1))
			m.AddColumn("x", 1, NonNeg(), []int{a, b}, []float64{1, 1})
			return m
		}, Infeasible, 0, nil},
		{"infeasible equalities", func() *Model {
			m := NewModel("inf2", Minimize)
			a := m.AddRow("a", EQ(2))
			b := m.AddRow("b", EQ(5))
			m.AddColumn("x", 1, NonNeg(), []int{a, b}, []float64{1, 2})
			m.AddColumn("y", 1, NonNeg(), []int{a, b}, []float64{1, 2})
			return m
		}, Infeasible, 0, nil},
		{"infeasible bounds against row", func() *Model {
			m := NewModel("inf3", Maximize)
			a := m.AddRow("a", GE(10))
			m.AddColumn("x", 1, Range(0, 2), []int{a}, []float64{1})
			m.AddColumn("y", 1, Range(0, 3), []int{a}, []float64{1})
			return m
		}, Infeasible, 0, nil},
		{"unbounded", func() *Model {
			m := NewModel("unb1", Maximize)
			a := m.AddRow("a", LE(1))
			m.AddColumn("x", 1, NonNeg(), []int{a}, []float64{1})
			m.AddColumn("y", 0, NonNeg(), []int{a}, []float64{-1})
			return m
		}, Unbounded, 0, nil},
		{"unbounded free column", func() *Model {
			m := NewModel("unb2", Minimize)
			a := m.AddRow("a", GE(1))
			m.AddColumn("x", 1, Free(), []int{a}, []float64{1})
			m.AddColumn("y", 1, Free(), []int{a}, []float64{2})
			return m
		}, Unbounded, 0, nil},
		{"unbounded empty column", func() *Model {
			m := NewModel("unb3", Maximize)
			a := m.AddRow("a", LE(1))
			m.AddColumn("x", 1, NonNeg(), []int{a}, []float64{1})
			m.AddCol("z", 1, NonNeg())
			return m
		}, Unbounded, 0, nil},
	}
}

func TestSmallLPs(t *testing.T) {
	for _, s := range backends() {
		for _, tc := range smallCases() {
			t.Run(string(s)+"/"+tc.name, func(t *testing.T) {
				m := tc.build()
				sol, err := Solve(m, Options{Solver: s})
				if err != nil {
					t.Fatal(err)
				}
				if sol.Status != tc.status {
					t.Fatalf("status %v, want %v", sol.Status, tc.status)
				}
				if sol.Status != Optimal {
					return
				}
				if !near(sol.Objective, tc.obj, 1e-9) {
					t.Errorf("objective %g, want %g", sol.Objective, tc.obj)
				}
				if !sol.DualsAvailable {
					t.Errorf("no duals: %s", sol.Note)
				}
				for j, want := range tc.x {
					if !near(sol.X[j], want, 1e-9) {
						t.Errorf("x[%s] = %g, want %g", m.ColName(j), sol.X[j], want)
					}
				}
				checkKKT(t, m, sol, 1e-7)
			})
		}
	}
}

// The dual of the first small case: y(cap) = 0.5 (relaxing x + 2y ≤ 4 by
// one raises the optimum by 0.5); x sits at its upper bound with reduced
// cost 1 − 0.5 = 0.5.
func TestDualValues(t *testing.T) {
	for _, s := range backends() {
		m := smallCases()[0].build()
		sol, err := Solve(m, Options{Solver: s})
		if err != nil {
			t.Fatal(err)
		}
		want := []float64{0.5, 0}
		for i, w := range want {
			if !near(sol.Duals[i], w, 1e-9) {
				t.Errorf("%s: dual %d = %g, want %g", s, i, sol.Duals[i], w)
			}
		}
		if !near(sol.ReducedCosts[0], 0.5, 1e-9) || !near(sol.ReducedCosts[1], 0, 1e-9) {
			t.Errorf("%s: reduced costs %v, want [0.5 0]", s, sol.ReducedCosts)
		}
	}
}

func TestBadModels(t *testing.T) {
	cases := map[string]func() *Model{
		"NaN bound": func() *Model {
			m := NewModel("bad", Minimize)
			m.AddRow("r", LE(math.NaN()))
			return m
		},
		"crossed bounds": func() *Model {
			m := NewModel("bad", Minimize)
			m.AddCol("x", 1, Range(2, 1))
			return m
		},
		"infinite coefficient": func() *Model {
			m := NewModel("bad", Minimize)
			r := m.AddRow("r", LE(1))
			m.AddColumn("x", 1, NonNeg(), []int{r}, []float64{math.Inf(1)})
			return m
		},
		"entry outside": func() *Model {
			m := NewModel("bad", Minimize)
			m.AddRow("r", LE(1))
			m.AddCol("x", 1, NonNeg())
			m.Set(3, 0, 1)
			return m
		},
		"mismatched column": func() *Model {
			m := NewModel("bad", Minimize)
			r := m.AddRow("r", LE(1))
			m.AddColumn("x", 1, NonNeg(), []int{r}, []float64{1, 2})
			return m
		},
		"NaN objective": func() *Model {
			m := NewModel("bad", Minimize)
			m.AddCol("x", math.NaN(), NonNeg())
			return m
		},
		"lower bound +Inf": func() *Model {
			m := NewModel("bad", Minimize)
			m.AddCol("x", 1, GE(math.Inf(1)))
			return m
		},
		"unknown sense": func() *Model { return NewModel("bad", Sense(7)) },
	}
	for _, s := range backends() {
		for name, build := range cases {
			sol, err := Solve(build(), Options{Solver: s})
			if err == nil || sol == nil || sol.Status != Error {
				t.Errorf("%s/%s: got %v, %v; want an error", s, name, sol, err)
			}
		}
	}
	if _, err := ParseSolver("cplex"); err == nil {
		t.Error("ParseSolver accepted cplex")
	}
}

func TestEmptyModel(t *testing.T) {
	for _, s := range backends() {
		sol, err := Solve(NewModel("empty", Maximize), Options{Solver: s})
		if err != nil || sol.Status != Optimal || sol.Objective != 0 {
			t.Errorf("%s: empty model: %v %v", s, sol, err)
		}
	}
}

// randomLP returns a random LP that has the feasible point x0: a mix of
// column bound kinds and row kinds (≤, ≥, =, range, free).
func randomLP(r *rand.Rand, id int) *Model {
	m, _ := randomLPx(r, id)
	return m
}

func randomLPx(r *rand.Rand, id int) (*Model, []float64) {
	sense := Minimize
	if r.IntN(2) == 0 {
		sense = Maximize
	}
	m := NewModel(fmt.Sprintf("rand%d", id), sense)
	nc := 2 + r.IntN(12)
	nr := 1 + r.IntN(10)
	x0 := make([]float64, nc)
	for j := 0; j < nc; j++ {
		var b Bounds
		switch r.IntN(10) {
		case 0:
			b = Free()
			x0[j] = r.NormFloat64() * 3
		case 1:
			hi := r.Float64()*10 - 5
			b = LE(hi)
			x0[j] = hi - r.Float64()*3
		case 2:
			v := math.Round(r.Float64()*10 - 5)
			b = EQ(v)
			x0[j] = v
		case 3, 4, 5:
			lo := math.Round(r.Float64()*10 - 5)
			hi := lo + 1 + math.Round(r.Float64()*10)
			b = Range(lo, hi)
			x0[j] = lo + r.Float64()*(hi-lo)
		default:
			b = NonNeg()
			x0[j] = r.Float64() * 5
		}
		m.AddCol("", math.Round(r.NormFloat64()*50)/10, b)
	}
	for i := 0; i < nr; i++ {
		act := 0.0
		var cols []int
		var vals []float64
		for j := 0; j < nc; j++ {
			if r.Float64() < 0.6 {
				v := math.Round(r.NormFloat64()*40) / 10
				if v == 0 {
					continue
				}
				cols = append(cols, j)
				vals = append(vals, v)
				act += v * x0[j]
			}
		}
		var b Bounds
		switch r.IntN(8) {
		case 0:
			b = EQ(act)
		case 1:
			b = Range(act-r.Float64()*3, act+r.Float64()*3)
		case 2, 3, 4:
			b = LE(act + r.Float64()*2)
		case 5:
			b = Free()
		default:
			b = GE(act - r.Float64()*2)
		}
		row := m.AddRow("", b)
		for k, j := range cols {
			m.Set(row, j, vals[k])
		}
	}
	return m, x0
}

// TestRandomAgree solves random feasible LPs with every backend and checks
// that the statuses agree, the objectives agree to a relative 1e-7 and that
// every solution passes the optimality conditions. It keeps going until 200
// LPs with a finite optimum have been compared.
func TestRandomAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 2026))
	optimal, unbounded := 0, 0
	for id := 0; optimal < 200; id++ {
		if id > 2000 {
			t.Fatalf("only %d of %d random LPs had a finite optimum", optimal, id)
		}
		m := randomLP(r, id)
		var ref *Solution
		for _, s := range backends() {
			sol, err := Solve(m, Options{Solver: s})
			if err != nil {
				t.Fatalf("%s: model %s: %v", s, m.Name, err)
			}
			if sol.Status == Infeasible {
				t.Fatalf("%s: model %s has a feasible point but was reported infeasible", s, m.Name)
			}
			if sol.Status == Optimal {
				checkKKT(t, m, sol, 1e-6)
			}
			if ref == nil {
				ref = sol
				continue
			}
			if sol.Status != ref.Status {
				t.Fatalf("model %s: %s says %v, %s says %v", m.Name, ref.Solver, ref.Status, s, sol.Status)
			}
			if sol.Status == Optimal && !near(sol.Objective, ref.Objective, 1e-7) {
				t.Errorf("model %s: %s objective %.12g, %s %.12g", m.Name, ref.Solver, ref.Objective, s, sol.Objective)
			}
		}
		switch ref.Status {
		case Optimal:
			optimal++
		case Unbounded:
			unbounded++
		default:
			t.Fatalf("model %s: status %v", m.Name, ref.Status)
		}
	}
	t.Logf("%d optimal, %d unbounded random LPs agree across %v", optimal, unbounded, backends())
}

// TestRandomInfeasible makes random LPs infeasible by adding a row that
// contradicts another and checks every backend says so.
func TestRandomInfeasible(t *testing.T) {
	r := rand.New(rand.NewPCG(4, 2026))
	for id := 0; id < 50; id++ {
		m := randomLP(r, id)
		row := m.AddRow("contradiction", GE(1))
		cols := []int{}
		for j := 0; j < m.NumCols(); j++ {
			if b := m.ColBounds(j); b.Lo != b.Hi {
				cols = append(cols, j)
			}
		}
		if len(cols) == 0 {
			continue
		}
		// Σ x_j ≥ 1 and Σ x_j ≤ 0.
		row2 := m.AddRow("contradiction2", LE(0))
		for _, j := range cols {
			m.Set(row, j, 1)
			m.Set(row2, j, 1)
		}
		for _, s := range backends() {
			sol, err := Solve(m, Options{Solver: s})
			if err != nil {
				t.Fatalf("%s: %s: %v", s, m.Name, err)
			}
			if sol.Status != Infeasible {
				t.Errorf("%s: %s: status %v, want infeasible", s, m.Name, sol.Status)
			}
		}
	}
}

// WriteMPS writes every number so that it reads back as the same float64
// (Clp_writeMps format 0 kept 7–10 significant digits); CLP reads the file
// and finds the same optimum as the model solved in memory.
func TestWriteMPS(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "model.mps")
	m := smallCases()[0].build()
	if _, err := Solve(m, Options{Solver: Gonum, MPSFile: path}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for _, want := range []string{"ROWS", "COLUMNS", "cap", "lowish", "ENDATA"} {
		if !strings.Contains(s, want) {
			t.Errorf("MPS file lacks %q:\n%s", want, s)
		}
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Errorf("directory holds %d files, want only the MPS file", len(ents))
	}
	if err := WriteMPS(m, filepath.Join(dir, "no", "such", "dir.mps")); err == nil {
		t.Error("writing into a missing directory did not fail")
	}

	// Full precision, every row and bound kind, names with spaces.
	r := rand.New(rand.NewPCG(4, 4))
	for n := 0; n < 20; n++ {
		m, _ := randomLPx(r, n)
		third := m.AddCol("one third", 1.0/3, Range(-1.0/7, 2.0/3))
		m.Set(0, third, math.Pi)
		free := m.AddRow("free row", Free())
		m.Set(free, third, 1)
		m.Set(free, 0, 1)
		if err := WriteMPS(m, path); err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(path)
		for _, want := range []string{"0.3333333333333333", "3.141592653589793", "-0.14285714285714285", "one_third"} {
			if !strings.Contains(string(b), want) {
				t.Fatalf("MPS file lacks %q", want)
			}
		}
		if !CLPAvailable() {
			continue
		}
		direct, err := Solve(m, Options{Solver: CLP})
		if err != nil {
			t.Fatal(err)
		}
		read, err := solveMPSFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if read.Status != direct.Status {
			t.Fatalf("model %d: read back %v, solved %v", n, read.Status, direct.Status)
		}
		if direct.Status != Optimal {
			continue
		}
		obj := read.Objective
		if m.Sense == Maximize {
			obj = -obj
		}
		if math.Abs(obj-direct.Objective) > 1e-9*(1+math.Abs(obj)) {
			t.Errorf("model %d: MPS read back by CLP gives %.17g, the model %.17g", n, obj, direct.Objective)
		}
	}
}

func TestIterationLimit(t *testing.T) {
	if !CLPAvailable() {
		t.Skip("the iteration limit is a CLP option")
	}
	r := rand.New(rand.NewPCG(9, 9))
	m := NewModel("big", Maximize)
	const n = 60
	for i := 0; i < n; i++ {
		m.AddRow("", LE(1+r.Float64()))
	}
	for j := 0; j < n; j++ {
		c := m.AddCol("", 1+r.Float64(), NonNeg())
		for i := 0; i < n; i++ {
			m.Set(i, c, r.Float64())
		}
	}
	sol, err := Solve(m, Options{Solver: CLP, MaxIterations: 1})
	if err != nil {
		t.Fatal(err)
	}
	if sol.Status != IterationLimit {
		t.Errorf("status %v, want iteration limit", sol.Status)
	}
}

// MPS output does not need CLP: the writer is the package's own.
func TestMPSWithoutCLP(t *testing.T) {
	m := smallCases()[0].build()
	path := filepath.Join(t.TempDir(), "x.mps")
	if _, err := Solve(m, Options{Solver: Gonum, MPSFile: path}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err != nil {
		t.Error(err)
	}
}
