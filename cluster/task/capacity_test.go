package task

import (
	"strings"
	"testing"
)

// Hand-computed Capacity Scheduler runs (YARN CapacityScheduler:
// AbstractCSQueue.canAssignToThisQueue for maximum capacity,
// CSQueueUtils for absolute capacities, UsersManager.computeUserLimit and
// AbstractLeafQueue.canAssignToUser for user limits,
// PriorityUtilizationQueueOrderingPolicy for the order of queues). Tasks
// are 1 s on 1 container unless said, so the cluster runs in rounds.
func TestCapacityHand(t *testing.T) {
	two := Uniform(2, 2)
	twoContainerTask := Job{Arrival: 1, Stages: []Stage{{Tasks: []TaskSpec{{Duration: 1, Containers: 2}}}}}
	twoContainerTask.Estimate = twoContainerTask.Work()
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
		// Hadoop rules the replay got wrong before; each want differs
		// from the old result (in the comment).
		// z1 and z2 have no capacity (a has it all, idle). z1 takes the
		// 4 containers at 0; z2 arrives at 0.5. At 1 both hold 0: they
		// alternate by used (2 + 2), again at 2: z1 done at 3, z2's last
		// 4 run 3–4. Old: z1 kept configuration order, took all 4 at 1
		// and was done at 2 ([2, 3.5]).
		{"zero-capacity siblings by used", CapacityQueue{Children: []CapacityQueue{
			{Name: "a", Capacity: 100}, {Name: "z1", Capacity: 0, UserLimitFactor: -1}, {Name: "z2", Capacity: 0, UserLimitFactor: -1}}},
			Uniform(1, 4), []Job{inQueue("z1", mr(0, 8, 1, 0, 0, 0)), inQueue("z2", mr(0.5, 8, 1, 0, 0, 0))}, []float64{3, 3.5}},
		// minimum-user-limit-percent 33 on 3 containers: current × 33% =
		// 0.99. u holds 2 (job 0, to 10); at 1 u's job 1 and v's job 2
		// arrive, one container free. Limit: max((2 + 1) / 2 active
		// users, 0.99) = 1.5, rounded up 2: u (2 ≤ 2) comes first by its
		// job and gets it. Old: max(2 / 2, 0.99) = 1, u skipped, v first
		// ([10, 2, 1]).
		{"user limit counts the container being assigned", CapacityQueue{Children: []CapacityQueue{
			{Name: "a", Capacity: 100, MinUserLimitPercent: 33}}},
			Uniform(1, 3), []Job{user("u", inQueue("a", mr(0, 2, 10, 0, 0, 0))), user("u", inQueue("a", mr(1, 1, 1, 0, 0, 0))),
				user("v", inQueue("a", mr(1, 1, 1, 0, 0, 0)))}, []float64{10, 1, 2}},
		// a's maximum is 2 of 4 containers; u holds 1 to 10. At 1 u's
		// 2-container task exceeds the headroom of 1: the leaf's turn
		// ends (QUEUE_LIMIT), v's 1-container job waits behind it: u's
		// runs 10–11, v's 11–12. Old: v's ran at 1 ([10, 10, 1]).
		{"queue limit ends the leaf's turn", CapacityQueue{Children: []CapacityQueue{
			{Name: "a", Capacity: 50, MaxCapacity: 50}, {Name: "b", Capacity: 50}}},
			Uniform(1, 4), []Job{user("u", inQueue("a", mr(0, 1, 10, 0, 0, 0))), user("u", inQueue("a", twoContainerTask)),
				user("v", inQueue("a", mr(1, 1, 1, 0, 0, 0)))}, []float64{10, 10, 11}},
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

// PriorityUtilizationQueueOrderingPolicy's order of siblings, hand-computed
// (see childKey): used / max(guaranteed, 1 container) least first, zero-
// capacity children after the others and among themselves by used, ties
// to the larger absolute capacity, then configuration order. The old
// order put zero-capacity children in configuration order, divided by a
// guaranteed resource below 1 container, and broke real-number ties by
// float64 rounding.
func TestCapacityChildOrder(t *testing.T) {
	type child struct {
		name      string
		cap       float64
		used, rdy int
	}
	for _, tc := range []struct {
		name       string
		containers float64
		children   []child
		want       string
	}{
		// 6/10 = 0.6 against 4/10 = 0.4.
		{"less used capacity first", 20, []child{{"a", 50, 6, 1}, {"b", 50, 4, 1}}, "b a"},
		// 1/5 = 3/15 = 0.2: b's absolute capacity 0.75 > 0.25.
		{"tie: larger absolute capacity", 20, []child{{"a", 25, 1, 1}, {"b", 75, 3, 1}}, "b a"},
		{"tie: configuration order", 20, []child{{"a", 50, 2, 1}, {"b", 50, 2, 1}}, "a b"},
		// a is at 20/20 = 1, z has no capacity: a first all the same.
		{"zero capacity last", 20, []child{{"z", 0, 0, 1}, {"a", 100, 20, 1}}, "a z"},
		// Both without capacity: by used over the partition, 1/20 <
		// 3/20 (the old order kept z1 first).
		{"zero capacity by used", 20, []child{{"a", 100, 0, 0}, {"z1", 0, 3, 1}, {"z2", 0, 1, 1}}, "z2 z1"},
		{"zero capacity tie: configuration order", 20, []child{{"a", 100, 0, 0}, {"z1", 0, 2, 1}, {"z2", 0, 2, 1}}, "z1 z2"},
		// a's guaranteed 2.5% of 20 = 0.5 containers counts as 1: 1/1 = 1
		// < b's 14/9.5 = 1.47 (the old 1/0.5 = 2 put b first).
		{"guaranteed floored at 1 container", 20, []child{{"a", 2.5, 1, 1}, {"b", 47.5, 14, 1}, {"c", 50, 0, 0}}, "a b"},
		// 1/1.3 = 5/6.5 in real numbers (float64: 0.7692307692307692
		// against 0.7692307692307693): a tie, so b (65%) goes first.
		{"tie in real numbers", 10, []child{{"a", 13, 1, 1}, {"b", 65, 5, 1}, {"c", 22, 0, 0}}, "b a"},
		{"no ready tasks: not tried", 20, []child{{"a", 50, 0, 0}, {"b", 50, 9, 1}}, "b"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := &Capacity{np: 1, pIdx: map[string]int32{"": 0}, pRes: []float64{tc.containers}}
			root := CapacityQueue{}
			for _, ch := range tc.children {
				root.Children = append(root.Children, CapacityQueue{Name: ch.name, Capacity: ch.cap})
			}
			if err := c.add(root, -1, "root", ""); err != nil {
				t.Fatal(err)
			}
			for i, ch := range tc.children {
				c.qs[i+1].used[0], c.qs[i+1].readyN[0] = int64(ch.used), ch.rdy
			}
			c.orderChildren(&c.qs[0], 0)
			var got []string
			for _, q := range c.cand {
				got = append(got, c.qs[q].short)
			}
			if s := strings.Join(got, " "); s != tc.want {
				t.Errorf("order %q, want %q", s, tc.want)
			}
		})
	}
}
