package experiment

import "github.com/schedplan/schedplan/cluster/sim"

// CanonicalSpec is a fluid policy specification as the registry writes it
// (the spec itself when it does not parse).
func CanonicalSpec(spec string) string {
	p, err := sim.ParsePolicy(spec)
	if err != nil {
		return spec
	}
	return sim.SpecOf(p)
}
