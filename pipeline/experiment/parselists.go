package experiment

import (
	"math"
	"strconv"
	"strings"

	"github.com/schedplan/schedplan/cluster/sim"
)

// ParseFloats parses a comma-separated list of finite numbers given for
// param.
func ParseFloats(param, s string) ([]float64, error) {
	var out []float64
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, ParamErr(param, strconv.Quote(s), "%q is not a finite number", f)
		}
		out = append(out, v)
	}
	return out, nil
}

// ParsePolicies splits a comma-separated list of fluid policy
// specifications given for param (sim.SplitPolicies) and checks each.
func ParsePolicies(param, list string) ([]string, error) {
	specs := sim.SplitPolicies(list)
	if len(specs) == 0 {
		return nil, ParamErr(param, strconv.Quote(list), "no policy given")
	}
	for _, s := range specs {
		if _, err := Fluid.Policy(s); err != nil {
			return nil, ParamErr(param, s, "%v", err)
		}
	}
	return specs, nil
}
