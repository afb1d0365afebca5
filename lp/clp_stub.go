//go:build !cgo

package lp

const clpAvailable = false

func solveCLP(m *Model, opt Options) (*Solution, error) {
	return &Solution{Status: Error}, errNoCLP
}

// newCLPMaster is unreachable without cgo (Solver.Resolve refuses CLP); it
// falls back to the gonum master rather than panic.
func newCLPMaster(m *Model) master { return &gonumMaster{m: m, warm: &gonumWarm{}} }

func solveMPSFile(path string) (*Solution, error) { return nil, errNoCLP }

// solveCOSHHFolded is unreachable without cgo (Solver.Resolve refuses CLP).
func solveCOSHHFolded(p *COSHHProblem, active []int, opt COSHHOptions, sol *COSHHSolution) error {
	return errNoCLP
}
