package tasklevel

import (
	"testing"

	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/cluster/task"
)

// The tuned LAS_MQ runs at task level as it was tuned and as it is emitted:
// thresholds in held container-seconds, and no admission limit (seed 000's
// 30-job default made the tuned row 64× worse on a 20-user log).
func TestTaskLASMQHasNoAdmissionLimit(t *testing.T) {
	m := TaskLASMQ(&sim.LASMQ{K: 3, Alpha0: 2, P: 4, Order: sim.OrderPS}, 48)
	p, err := task.ParsePolicy(m.Spec())
	if err != nil {
		t.Fatal(err)
	}
	tm, ok := p.(*task.LASMQ)
	if !ok || tm.Limit != 0 || tm.Alpha0 != 96 || tm.K != 3 || tm.InQueueFIFO {
		t.Errorf("%s runs as %+v: want no limit, alpha0 96 held container-seconds, k 3, order by remaining containers", m.Spec(), p)
	}
}
