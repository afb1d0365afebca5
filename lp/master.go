package lp

// A restricted master problem for column generation: a model whose rows are
// fixed and to which columns are added between solves. The CLP master keeps
// one CLP model alive and re-solves with primal simplex from the previous
// basis (new columns enter at zero, so the old basis stays primal feasible);
// the gonum master re-solves the grown model starting from the previous
// optimal basis (recovered from the solution; gonum's Simplex accepts an
// initial basis), with duals from that basis.

// newColumn is a column to add: objective, bounds and entries.
type newColumn struct {
	obj    float64
	lo, hi float64
	rows   []int32
	vals   []float64
}

type master interface {
	add(cols []newColumn)
	// setObjective replaces the objective (sense and every column's
	// coefficient) and the columns' lower bounds, keeping the basis: the
	// next solve starts from the previous optimal basis, which stays primal
	// feasible when no lower bound rises above the column's value.
	setObjective(sense Sense, obj, lo []float64)
	solve() (*Solution, error)
	close()
}

// newMaster returns a master for the model's rows (and initial columns) on
// solver s.
func newMaster(m *Model, s Solver) (master, error) {
	s, err := s.Resolve()
	if err != nil {
		return nil, err
	}
	if err := m.Check(); err != nil {
		return nil, err
	}
	if s == CLP {
		return newCLPMaster(m), nil
	}
	return &gonumMaster{m: m, warm: &gonumWarm{}}, nil
}

type gonumMaster struct {
	m    *Model
	warm *gonumWarm
}

func (g *gonumMaster) add(cols []newColumn) {
	for _, c := range cols {
		j := g.m.AddCol("", c.obj, Bounds{c.lo, c.hi})
		for k, r := range c.rows {
			g.m.Set(int(r), j, c.vals[k])
		}
	}
}

func (g *gonumMaster) setObjective(sense Sense, obj, lo []float64) {
	g.m.Sense = sense
	for j := range obj {
		g.m.SetObj(j, obj[j])
		g.m.SetColBounds(j, Bounds{lo[j], g.m.colHi[j]})
	}
}

func (g *gonumMaster) solve() (*Solution, error) {
	return Solve(g.m, Options{Solver: Gonum, warm: g.warm})
}

func (g *gonumMaster) close() {}
