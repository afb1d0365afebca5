package pipeline

import (
	"strings"
	"testing"

	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/cluster/yarn"
	"github.com/schedplan/schedplan/pipeline/inputs"
	"github.com/schedplan/schedplan/pipeline/tuner"
)

// Every LAS_MQ level leaf carries the ordering-policy of the tuned in-level
// order (CapacitySchedulerConfiguration.getAppOrderingPolicy reads "fifo" or
// "fair"; FairOrderingPolicy shares a queue among its applications, PS's
// counterpart), and the remaining-work order, which YARN lacks, a property
// for the controller; the files still obey Hadoop's rules.
func TestEmitLevelOrderingPolicy(t *testing.T) {
	in, err := Prepare(inputs.DefaultRunConfig())
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		order      sim.LevelOrder
		policy     string
		controller bool
	}{{sim.OrderFIFO, "fifo", false}, {sim.OrderPS, "fair", false}, {sim.OrderRemaining, "fifo", true}} {
		b, files := emitFor(t, in, 3, tuner.LASMQParams{K: 3, Alpha0: 1, P: 10, Decay: 0, Order: tc.order})
		checkEmitted(t, b, files)
		conf, err := yarn.ParseConfiguration(files["capacity-scheduler.xml"])
		if err != nil {
			t.Fatal(err)
		}
		vals, _ := conf.Values()
		leaves, orders := 0, 0
		for name, v := range vals {
			if strings.HasSuffix(name, ".ordering-policy") {
				leaves++
				if v != tc.policy {
					t.Errorf("%s: %s = %q, want %q", tc.order, name, v, tc.policy)
				}
			}
			if strings.HasPrefix(name, "schedplan.las-mq.") && strings.HasSuffix(name, ".order") {
				orders++
				if v != string(sim.OrderRemaining) {
					t.Errorf("%s: %s = %q", tc.order, name, v)
				}
			}
		}
		// Three levels for every class queue and for default (each queue
		// its level 0, two siblings after it).
		if want := 3 * (len(b.Classes) + 1); leaves != want || (orders == want) != tc.controller || (!tc.controller && orders != 0) {
			t.Errorf("%s: %d level ordering policies (want %d), %d controller orders", tc.order, leaves, want, orders)
		}
	}
}
