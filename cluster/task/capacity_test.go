package task

import "testing"

// Hand-computed Capacity Scheduler runs (YARN CapacityScheduler:
// AbstractCSQueue.canAssignToThisQueue for maximum capacity,
// CSQueueUtils for absolute capacities, UsersManager.computeUserLimit and
// AbstractLeafQueue.canAssignToUser for user limits). Tasks are 1 s on 1
// container, so the cluster runs in rounds.
func TestCapacityHand(t *testing.T) {
	two := Uniform(2, 2)
	labelled := &Cluster{Types: []MachineType{
		{Name: "plain", Count: 1, Containers: 2, ExecRate: 1},
		{Name: "big", Count: 1, Containers: 2, ExecRate: 1, Label: "x"}}}
	for _, tc := range []struct {
		name string
		root CapacityQueue
		cl   *Cluster
		jobs []Job
		want []float64
	}{
		// Elasticity: a (50%, max 100%) alone takes all 4 containers at
		// t=0. At t=1 b (50%, max 50%) arrives; both are at 0 used, tie
		// broken by order: a, b, a, b: 2 + 2. b's 2 tasks end at 2; a's
		// last 2 run 2–3.
		{"elasticity", CapacityQueue{Children: []CapacityQueue{
			{Name: "a", Capacity: 50, UserLimitFactor: -1}, {Name: "b", Capacity: 50, MaxCapacity: 50, UserLimitFactor: -1}}},
			two, []Job{inQueue("a", mr(0, 8, 1, 0, 0, 0)), inQueue("b", mr(1, 2, 1, 0, 0, 0))}, []float64{3, 1}},
		// Maximum capacity 75%: a gets at most 3 of 4 even when the
		// cluster is idle: rounds of 3, 3, 2.
		{"maximum capacity", CapacityQueue{Children: []CapacityQueue{
			{Name: "a", Capacity: 50, MaxCapacity: 75, UserLimitFactor: -1}, {Name: "b", Capacity: 50}}},
			two, []Job{inQueue("a", mr(0, 8, 1, 0, 0, 0))}, []float64{3}},
		// A parent's maximum capacity bounds its children: p (max 50%)
		// holds x (max 100% of p = 50% of the cluster): 2 at a time.
		{"nested maximum", CapacityQueue{Children: []CapacityQueue{
			{Name: "p", Capacity: 50, MaxCapacity: 50, Children: []CapacityQueue{{Name: "x", Capacity: 100, UserLimitFactor: -1}}},
			{Name: "q", Capacity: 50}}},
			two, []Job{inQueue("x", mr(0, 4, 1, 0, 0, 0))}, []float64{2}},
		// user-limit-factor 1 on a 50% queue (2 containers): one user's
		// limit is min(max(used/1, current), 2 × 1) = 2, and a user gets
		// a container while its usage is ≤ 2, so 3 at a time: rounds of
		// 3, 3, 2.
		{"user-limit-factor 1", CapacityQueue{Children: []CapacityQueue{
			{Name: "a", Capacity: 50}, {Name: "b", Capacity: 50}}},
			two, []Job{inQueue("a", mr(0, 8, 1, 0, 0, 0))}, []float64{3}},
		// user-limit-factor 2: the limit is 4, the whole cluster.
		{"user-limit-factor 2", CapacityQueue{Children: []CapacityQueue{
			{Name: "a", Capacity: 50, UserLimitFactor: 2}, {Name: "b", Capacity: 50}}},
			two, []Job{inQueue("a", mr(0, 8, 1, 0, 0, 0))}, []float64{2}},
		// Labels: a runs on label x (capacity and maximum 50% of its 2
		// containers: 1 at a time, ends at 4) and leaves the other x
		// container idle; b runs on the default partition (2 containers,
		// ends at 2) and cannot use x.
		{"label capacity", CapacityQueue{Children: []CapacityQueue{
			{Name: "a", Capacity: 50, Labels: map[string]LabelCapacity{"x": {50, 50}}, DefaultLabel: "x", UserLimitFactor: -1},
			{Name: "b", Capacity: 50, Labels: map[string]LabelCapacity{"x": {50, 100}}, UserLimitFactor: -1}}},
			labelled, []Job{inQueue("a", mr(0, 4, 1, 0, 0, 0)), inQueue("b", mr(0, 4, 1, 0, 0, 0))}, []float64{4, 2}},
		// With a's maximum on x at 100%, a uses both x containers.
		{"label elasticity", CapacityQueue{Children: []CapacityQueue{
			{Name: "a", Capacity: 50, Labels: map[string]LabelCapacity{"x": {50, 100}}, DefaultLabel: "x", UserLimitFactor: -1},
			{Name: "b", Capacity: 50, Labels: map[string]LabelCapacity{"x": {50, 100}}, UserLimitFactor: -1}}},
			labelled, []Job{inQueue("a", mr(0, 4, 1, 0, 0, 0)), inQueue("b", mr(0, 4, 1, 0, 0, 0))}, []float64{2, 2}},
		// Three machines of 2, three jobs. a (50% = 3 containers, max
		// 100%, user-limit-factor 1): u's job (6 tasks) and v's (2) at 0;
		// b (50%, max 50%): w's job (4 tasks) at 1. Round 1: the limit is
		// min(max(used by active users / 2, current), 3) = 3, so u gets 4
		// (the "> limit" check lets it reach 3 + 1) and v 2. Round 2: a
		// and b tie at 0 used (order: a), then alternate by used /
		// guaranteed: a 2 (u's last), b 3 (its maximum): one container
		// idles and w's fourth task runs at 2.
		{"user limit and maximum, 3 machines", CapacityQueue{Children: []CapacityQueue{
			{Name: "a", Capacity: 50}, {Name: "b", Capacity: 50, MaxCapacity: 50}}},
			Uniform(3, 2), []Job{user("u", inQueue("a", mr(0, 6, 1, 0, 0, 0))), user("v", inQueue("a", mr(0, 2, 1, 0, 0, 0))),
				user("w", inQueue("b", mr(1, 4, 1, 0, 0, 0)))}, []float64{2, 1, 2}},
		// Without the user limit (factor 2) u's job takes all 6 first and
		// v's waits; without b's maximum w's fourth task takes the idle
		// container.
		{"no user limit, no maximum, 3 machines", CapacityQueue{Children: []CapacityQueue{
			{Name: "a", Capacity: 50, UserLimitFactor: 2}, {Name: "b", Capacity: 50}}},
			Uniform(3, 2), []Job{user("u", inQueue("a", mr(0, 6, 1, 0, 0, 0))), user("v", inQueue("a", mr(0, 2, 1, 0, 0, 0))),
				user("w", inQueue("b", mr(1, 4, 1, 0, 0, 0)))}, []float64{1, 2, 1}},
		// ordering-policy fair (FairOrderingPolicy): the job holding
		// fewer containers goes first, so j (8 tasks) and k (4) alternate
		// on 4 containers: 2 + 2 a round, k done at 2, j's last 4 run
		// 2–3. FIFO would run j's 8 first (j at 2, k at 3).
		{"fair ordering", CapacityQueue{Children: []CapacityQueue{{Name: "a", Capacity: 100, UserLimitFactor: -1, FairOrder: true}}},
			two, []Job{inQueue("a", mr(0, 8, 1, 0, 0, 0)), inQueue("a", mr(0, 4, 1, 0, 0, 0))}, []float64{3, 2}},
		{"fifo ordering", CapacityQueue{Children: []CapacityQueue{{Name: "a", Capacity: 100, UserLimitFactor: -1}}},
			two, []Job{inQueue("a", mr(0, 8, 1, 0, 0, 0)), inQueue("a", mr(0, 4, 1, 0, 0, 0))}, []float64{2, 3}},
		// The LAS_MQ controller: l0 (100%) demotes after 2
		// container-seconds to l1 (0%: idle capacity only). On 2
		// containers A (6 tasks) runs 2 at 0–1 and reaches 2 at t=1, when
		// B (2 tasks) arrives: A moves to l1, B takes both containers
		// 1–2 (response 1), A runs 2–4 (response 4). Without demotion A
		// would finish at 3 and B at 4.
		{"demotion", CapacityQueue{Children: []CapacityQueue{{Name: "p", Capacity: 100, Children: []CapacityQueue{
			{Name: "l0", Capacity: 100, UserLimitFactor: -1, DemoteAfter: 2, DemoteTo: "l1"}, {Name: "l1", Capacity: 0, UserLimitFactor: -1}}}}},
			Uniform(1, 2), []Job{inQueue("l0", mr(0, 6, 1, 0, 0, 0)), inQueue("l0", mr(1, 2, 1, 0, 0, 0))}, []float64{4, 1}},
		{"no demotion", CapacityQueue{Children: []CapacityQueue{{Name: "p", Capacity: 100, Children: []CapacityQueue{
			{Name: "l0", Capacity: 100, UserLimitFactor: -1}, {Name: "l1", Capacity: 0, UserLimitFactor: -1}}}}},
			Uniform(1, 2), []Job{inQueue("l0", mr(0, 6, 1, 0, 0, 0)), inQueue("l0", mr(1, 2, 1, 0, 0, 0))}, []float64{3, 3}},
	} {
		r := run(t, tc.jobs, tc.cl, &Capacity{Root: tc.root}, Options{})
		checkResponses(t, tc.name, responses(tc.jobs, r), tc.want)
	}
}

func user(u string, j Job) Job { j.User = u; return j }

// Configurations YARN would refuse, and jobs for queues that do not exist,
// are errors.
func TestCapacityErrors(t *testing.T) {
	job := []Job{inQueue("a", mr(0, 1, 1, 0, 0, 0))}
	labelled := &Cluster{Types: []MachineType{{Name: "plain", Count: 1, Containers: 2, ExecRate: 1}}}
	for _, tc := range []struct {
		name string
		root CapacityQueue
	}{
		{"sum not 100", CapacityQueue{Children: []CapacityQueue{{Name: "a", Capacity: 50}, {Name: "b", Capacity: 40}}}},
		{"max below capacity", CapacityQueue{Children: []CapacityQueue{{Name: "a", Capacity: 60, MaxCapacity: 50}, {Name: "b", Capacity: 40}}}},
		{"over 100", CapacityQueue{Children: []CapacityQueue{{Name: "a", Capacity: 160}}}},
		{"unknown queue", CapacityQueue{Children: []CapacityQueue{{Name: "b", Capacity: 100}}}},
		{"label without machines", CapacityQueue{Children: []CapacityQueue{{Name: "a", Capacity: 100, DefaultLabel: "gpu", Labels: map[string]LabelCapacity{"gpu": {100, 100}}}}}},
		{"duplicate child", CapacityQueue{Children: []CapacityQueue{{Name: "a", Capacity: 50}, {Name: "a", Capacity: 50}}}},
		{"bad ulf", CapacityQueue{Children: []CapacityQueue{{Name: "a", Capacity: 100, UserLimitFactor: -2}}}},
		{"demotion to nowhere", CapacityQueue{Children: []CapacityQueue{{Name: "a", Capacity: 100, DemoteAfter: 1, DemoteTo: "z"}}}},
		{"demotion cycle", CapacityQueue{Children: []CapacityQueue{{Name: "a", Capacity: 50, DemoteAfter: 1, DemoteTo: "b"}, {Name: "b", Capacity: 50, DemoteAfter: 1, DemoteTo: "a"}}}},
		{"negative threshold", CapacityQueue{Children: []CapacityQueue{{Name: "a", Capacity: 100, DemoteAfter: -1, DemoteTo: "a"}}}},
	} {
		if _, err := Simulate(job, labelled, &Capacity{Root: tc.root}, Options{}); err == nil {
			t.Errorf("%s: no error", tc.name)
		} else {
			t.Logf("%s: %v", tc.name, err)
		}
	}
}
