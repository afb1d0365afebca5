//go:build !cgo

package lp

const clpAvailable = false

func solveCLP(m *Model, opt Options) (*Solution, error) {
	return &Solution{Status: Error}, errNoCLP
}

func clpVersion() string { return "" }

func newCLPMaster(m *Model) master { panic("lp: CLP is not available") }
