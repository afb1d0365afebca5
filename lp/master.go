package lp

// A restricted master problem for column generation: a model whose rows are
// fixed and to which columns are added between solves. The CLP master keeps
// one CLP model alive and re-solves with primal simplex from the previous
// basis (new columns enter at zero, so the old basis stays primal feasible);
// the gonum master re-solves the grown model starting from the previous
// optimal basis (recovered from the solution; gonum's Simplex accepts an
// initial basis), with duals from that basis.

// newColumns are columns to add, column-major: column k has objective
// obj[k], bounds [lo[k], hi[k]] and entries index/value[start[k]:start[k+1]]
// (the arrays CLP's Clp_addColumns takes, so a full COSHH LP of 10⁶
// columns is handed over without a per-column allocation).
type newColumns struct {
	obj, lo, hi []float64
	start       []int32 // len(obj)+1
	index       []int32
	value       []float64
}

// append adds one column.
func (nc *newColumns) append(obj, lo, hi float64, rows []int32, vals []float64) {
	if len(nc.start) == 0 {
		nc.start = append(nc.start, 0)
	}
	nc.obj, nc.lo, nc.hi = append(nc.obj, obj), append(nc.lo, lo), append(nc.hi, hi)
	nc.index, nc.value = append(nc.index, rows...), append(nc.value, vals...)
	nc.start = append(nc.start, int32(len(nc.index)))
}

type master interface {
	add(cols *newColumns)
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

func (g *gonumMaster) add(cols *newColumns) {
	for k := range cols.obj {
		j := g.m.AddCol("", cols.obj[k], Bounds{cols.lo[k], cols.hi[k]})
		for p := cols.start[k]; p < cols.start[k+1]; p++ {
			g.m.Set(int(cols.index[p]), j, cols.value[p])
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
