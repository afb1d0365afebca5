package task

import (
	"math/rand/v2"
	"testing"

	"github.com/schedplan/schedplan/cluster/sim"
)

// The policy of CONTRIBUTING.md's walk-through "A task-level policy",
// compiled and run here so that the walk-through stays true
// (internal/archtest checks that the guide shows this code).

// contributing:begin task-lcfs

// LCFS gives every free container to the latest-submitted job that has a
// ready task; running tasks are never preempted. O(log n) per decision:
// jobOrder keeps the jobs with ready tasks in a heap by key.
type LCFS struct{ jobOrder }

func (*LCFS) Name() string { return "lcfs" }

func (l *LCFS) Start(s *State) error {
	jobs := s.Jobs()
	// The smallest key first: the latest arrival, then the later index.
	l.start(s, func(j int) key { return key{-jobs[j].Arrival, -float64(j)} }, false)
	return nil
}

// contributing:end

// The walk-through's registry entry, added for the test's duration, and
// its hand-computed case on one container: A (3 tasks of 1 s) at 0, B (1
// task of 1 s) at 0.5. A's first task runs 0–1; at 1 B, the latest job,
// runs 1–2; A's other two run 2–4.
func TestContributingTaskPolicy(t *testing.T) {
	// contributing:begin task-lcfs-registry
	registry["lcfs"] = own("latest-submitted job first, no preemption", sim.Uses{}, sim.NoParamsMaker(func() Policy { return &LCFS{} }))
	// contributing:end
	defer delete(registry, "lcfs")

	jobs := []Job{mr(0, 3, 1, 0, 0, 0), mr(0.5, 1, 1, 0, 0, 0)}
	r := runSpec(t, jobs, Uniform(1, 1), "lcfs", Options{}) // with the invariant checker
	checkResponses(t, "lcfs", responses(jobs, r), []float64{4, 1.5})
	// Random workloads: every job completes, the checker's invariants hold
	// (work conservation included: jobOrder declares it).
	rng := rand.New(rand.NewPCG(3, 4))
	cl := Uniform(4, 3)
	runSpec(t, randomWorkload(rng, 300, cl, 0.8), cl, "lcfs", Options{})
}
