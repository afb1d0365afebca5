package tasklevel

import (
	"fmt"
	"math"

	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/estimate"
	"github.com/schedplan/schedplan/pipeline/experiment"
)

// RunCapacity returns the capacity simulations run at: the given one, or,
// when it is 0, SimCapacity of the cluster spec, and says where it came
// from.
func RunCapacity(given float64, src estimate.Source, opt estimate.SizeOptions, spec *cluster.Spec) (float64, string, error) {
	if given > 0 {
		return given, "given", nil
	}
	c, from := SimCapacity(src, opt, spec)
	if !(c > 0) || math.IsInf(c, 0) {
		return 0, "", experiment.ParamErr("capacity", given, "the cluster spec's capacity is %v: give one", c)
	}
	return c, from, nil
}

// OverloadWarning says, when load > 1, that the cluster cannot keep up
// with the log at that capacity ("" otherwise).
func OverloadWarning(load, capacity float64, from string) string {
	if !(load > 1) {
		return ""
	}
	return fmt.Sprintf("OVERLOADED: the offered load is %.3g at capacity %g (%s): the cluster cannot keep up with the log, queues grow without end and mean responses measure the log's length, not the scheduler; check the capacity and the size units", load, capacity, from)
}

// SimCapacity is the capacity fluid simulations run at, in the units of the
// sizes: 1 when the sizes are normalised to a load (they are then seconds
// of the whole cluster, seed 001's unit: the reference simulator runs at
// capacity 1), else the cluster spec's capacity in reference containers
// (sizes from a size column or task-seconds are container-seconds). It is
// the inverse of estimate.ContainerSeconds.
func SimCapacity(src estimate.Source, opt estimate.SizeOptions, spec *cluster.Spec) (float64, string) {
	if src == estimate.FromBytes || opt.NormaliseAll {
		return 1, "sizes normalised to a load: seconds of the whole cluster"
	}
	return spec.Capacity(), fmt.Sprintf("cluster spec %s: %g reference containers (sizes in container-seconds)", spec.Name, spec.Capacity())
}
