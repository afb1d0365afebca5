package pipeline

import "github.com/schedplan/schedplan/cluster/sim"

// canonicalSpec is a fluid policy specification as the registry writes it
// (the spec itself when it does not parse).
func canonicalSpec(spec string) string {
	p, err := sim.ParsePolicy(spec)
	if err != nil {
		return spec
	}
	return sim.SpecOf(p)
}
