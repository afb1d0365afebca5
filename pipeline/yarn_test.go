package pipeline

import (
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/schedplan/schedplan/cluster/yarn"
	"github.com/schedplan/schedplan/pipeline/bundle"
	"github.com/schedplan/schedplan/pipeline/internal/bundletest"
)

func TestPercentages(t *testing.T) {
	for _, w := range [][]float64{
		{1, 1, 1}, {1, 2}, {0, 0}, {0.3333, 0.3333, 0.3334}, {1e-9, 1, 1e9}, {7}, {0, 5, 0},
		// Issue 10: 10000·v/total overflowed and the rounding loop never ended.
		{1e308, 1e308, 1}, {1e307, 1e-300}, {math.MaxFloat64, math.MaxFloat64},
		{math.NaN(), 1, math.Inf(1)}, {-1, 2},
	} {
		done := make(chan []int, 1)
		go func() { done <- bundle.Percentages(w, 9900) }()
		var p []int
		select {
		case p = <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("%v: percentages does not terminate", w)
		}
		sum := 0
		for i, v := range p {
			sum += v
			if v < 0 || (w[i] > 0 && !math.IsInf(w[i], 0) && v < 1) {
				t.Errorf("%v: part %d is %d hundredths (a positive weight gets at least 1)", w, i, v)
			}
		}
		if sum != 9900 {
			t.Errorf("%v: parts %v sum to %d hundredths, want 9900", w, p, sum)
		}
	}
	if p := bundle.Percentages([]float64{1, 2, 1}, 10000); p[0] != 2500 || p[1] != 5000 || p[2] != 2500 {
		t.Errorf("1:2:1 gave %v", p)
	}
	if p := bundle.Percentages([]float64{1, 0, 0}, 10000); p[0] != 10000 || p[1] != 0 {
		t.Errorf("strict weights gave %v", p)
	}
	if p := bundle.Percentages(make([]float64, 3), 10000); p[0]+p[1]+p[2] != 10000 || p[0] < 3333 {
		t.Errorf("zero weights gave %v", p)
	}
	// More positive weights than hundredths: no floor, still exact.
	many := make([]float64, 20000)
	for i := range many {
		many[i] = 1
	}
	p := bundle.Percentages(many, 10000)
	sum := 0
	for _, v := range p {
		sum += v
	}
	if sum != 10000 {
		t.Errorf("20000 equal weights sum to %d", sum)
	}
}

// props returns the name → value map of a Hadoop configuration file.
func props(t *testing.T, data []byte) map[string]string {
	t.Helper()
	conf, err := yarn.ParseConfiguration(data)
	if err != nil {
		t.Fatal(err)
	}
	vals, ps := conf.Values()
	if len(ps) != 0 {
		t.Errorf("configuration problems: %v", ps)
	}
	return vals
}

func percentOf(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return v
}

// labelledBundle is bundletest.Sample where node labels are safe: every user
// is mapped to a class, and every class's default type carries its load
// with room (μ = 10 jobs/s per machine).
func labelledBundle() *bundle.Bundle {
	b := bundletest.Sample()
	b.Users[1].Class = "c1"
	for i := range b.Classes {
		b.Classes[i].Mu = []float64{10, 10, 10}
	}
	return b
}

// emitCS renders a bundle's capacity-scheduler.xml and parses it back.
func emitCS(t *testing.T, b *bundle.Bundle) ([]byte, *yarn.CapacityScheduler) {
	t.Helper()
	out, err := bundle.CapacitySchedulerXML(b)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := yarn.ParseCapacityScheduler(out)
	if err != nil {
		t.Fatal(err)
	}
	return out, cs
}

func TestCapacitySchedulerXML(t *testing.T) {
	b := labelledBundle()
	out, cs := emitCS(t, b)
	labels := []string{"R1", "gpu_fast", "idle"}
	if ps := cs.Check(yarn.CSCheckOptions{ClusterLabels: labels, NoUnlabelledNodes: true}); len(ps) != 0 {
		t.Fatalf("emitted file breaks Hadoop's rules: %v\n%s", ps, out)
	}
	got := props(t, out)
	const p = "yarn.scheduler.capacity."
	for k, want := range map[string]string{
		// Each queue is its level 0, its lower levels beside it.
		p + "root.queues":                                           "c0,c0_l1,c0_l2,c1,c1_l1,c1_l2,c2,c2_l1,c2_l2,default,default_l1,default_l2",
		p + "root.c1.accessible-node-labels":                        "R1,gpu_fast,idle",
		p + "root.c0.accessible-node-labels":                        "gpu_fast,idle", // no R1: the LP gives c0 none of it
		p + "root.c1.accessible-node-labels.R1.capacity":            "49.5",          // c1 alone on R1 (default keeps 1), × weights 3/6
		p + "root.default.capacity":                                 "0.5",           // the floor, × 3/6: no work is routed to default
		p + "root.default.accessible-node-labels.gpu_fast.capacity": "0.5",
		p + "root.c0_l1.accessible-node-labels.gpu_fast.capacity":   "22", // 66 × 2/6
		p + "root.c0.default-node-label-expression":                 "gpu_fast",
		p + "root.c1.default-node-label-expression":                 "R1", // allocation 0.5 on R1 > 0.3 on gpu_fast
		p + "root.c1_l2.default-node-label-expression":              "R1",
		p + "root.default.default-node-label-expression":            "gpu_fast", // the largest type
		p + "queue-mappings":                                        "u:alice:c0,u:bob.smith:c1",
		"schedplan.node-labels":                                     "true",
	} {
		if got[k] != want {
			t.Errorf("%s = %q, want %q", k, got[k], want)
		}
	}
	// A queue and its levels hold the share of the work routed to it (this
	// bundle records no work: the users' shares of the jobs, alice's 3 to
	// c0 and bob's 2 to c1, none to c2 or default) of the 96% left after
	// the 1% floor of each of the 4 queues; on labels, the allocation of
	// gpu_fast (1 : 0.3 : 0.2) of the 99% the default queue leaves, within
	// the 0.01-point rounding of each level.
	group := func(q, label string) float64 {
		key := ".capacity"
		if label != "" {
			key = ".accessible-node-labels." + label + ".capacity"
		}
		sum := 0.0
		for _, leaf := range []string{q, q + "_l1", q + "_l2"} {
			if v, ok := got[p+"root."+leaf+key]; ok {
				sum += percentOf(t, v)
			}
		}
		return sum
	}
	for _, c := range []struct {
		q, label string
		want     float64
	}{
		{"c0", "", 1 + 96*0.6}, {"c1", "", 1 + 96*0.4}, {"c2", "", 1},
		{"c0", "gpu_fast", 99 * 1 / 1.5}, {"c1", "gpu_fast", 99 * 0.3 / 1.5},
		{"c2", "idle", 99 * 0.9 / 4.9}, // a type the LP leaves unused: by work
	} {
		if v := group(c.q, c.label); math.Abs(v-c.want) > 0.031 {
			t.Errorf("%s on %q: %v, want %.4f", c.q, c.label, v, c.want)
		}
	}
	// Hadoop ignores root's label settings: none are written.
	for k := range got {
		if strings.HasPrefix(k, p+"root.accessible-node-labels") {
			t.Errorf("%s written (Hadoop ignores it)", k)
		}
	}
	// One threshold by hand: α0 = 10 cluster-seconds (sizes from bytes) is
	// the whole cluster — 2 + 2·16 + 4 = 38 containers — held for 10 s:
	// 380 held container-seconds, whatever the exec_rates.
	if v := got["schedplan.las-mq.root.c0.demote-after-held-container-seconds"]; v != "380" {
		t.Errorf("l0's threshold = %q held container-seconds, want 380 (10 cluster-seconds × 38 containers)", v)
	}
	if v := got["schedplan.las-mq.root.c2_l1.demote-after-held-container-seconds"]; v != "3800" {
		t.Errorf("l1's threshold = %q, want 3800", v)
	}
	if _, ok := got["schedplan.las-mq.root.c0_l2.demote-after-held-container-seconds"]; ok {
		t.Error("the last level has a threshold")
	}
	// Every leaf's user-limit-factor lets one user reach 100%: f·a ≥ 1 >
	// (f−1)·a for its smallest positive absolute capacity a, as Hadoop
	// computes it (CSQueueUtils.updateAbsoluteCapacitiesByNodeLabels).
	for _, q := range cs.Queues {
		if !q.IsLeaf() {
			continue
		}
		a := math.Inf(1)
		for _, l := range q.Labels {
			if v := q.Partition(l).AbsoluteCapacity; v > 0 {
				a = math.Min(a, v)
			}
		}
		f := q.UserLimitFactor
		if f*a < 1-1e-6 || (f-1)*a >= 1 {
			t.Errorf("%s: user-limit-factor %v for smallest absolute capacity %v", q.Path, f, a)
		}
	}
	// Placement: alice and bob are mapped, anyone else goes to default
	// (its first level).
	for user, want := range map[string]string{"alice": "root.c0", "bob.smith": "root.c1", "carol": "root.default"} {
		if q, err := cs.Place(user, nil, ""); err != nil || q.Path != want {
			t.Errorf("%s placed in %v (%v), want %s", user, q, err, want)
		}
	}
}

// Where confining classes to machine types is not safe (here bob's jobs
// span classes, and no μ says a class's type carries its load), the file
// names no node label: every queue runs in the default partition, COSHH's
// allocation is documented, applications that name no queue reach the
// default queue's LAS_MQ levels, and every leaf shares itself evenly among
// its users.
func TestCapacitySchedulerXMLNoLabels(t *testing.T) {
	b := bundletest.Sample()
	out, cs := emitCS(t, b)
	if bundle.NamesLabels(cs) {
		t.Fatalf("labels named:\n%s", out)
	}
	if ps := cs.Check(yarn.CSCheckOptions{ClusterLabels: []string{}}); len(ps) != 0 {
		t.Fatalf("emitted file breaks Hadoop's rules: %v\n%s", ps, out)
	}
	got := props(t, out)
	const p = "yarn.scheduler.capacity."
	for k, want := range map[string]string{
		"schedplan.node-labels":                     "false",
		"schedplan.coshh.root.c1.allocation":        "R1=0.5,gpu_fast=0.3",
		p + "queue-mappings":                        "u:alice:c0",
		p + "root.c2.minimum-user-limit-percent":    "1",
		p + "root.c0.default-node-label-expression": "",
	} {
		if got[k] != want {
			t.Errorf("%s = %q, want %q", k, got[k], want)
		}
	}
	if !strings.Contains(got["schedplan.node-labels"], "") || !strings.Contains(string(out), "the jobs of user bob.smith span classes") {
		t.Errorf("no reason given for the missing labels:\n%s", out)
	}
	// bob.smith's applications land in default, which holds his share of
	// the work (this bundle records none: his 2 of the 5 jobs) of the 96%
	// the four 1% floors leave.
	def := 0.0
	for _, q := range []string{"default", "default_l1", "default_l2"} {
		def += percentOf(t, got[p+"root."+q+".capacity"])
	}
	if math.Abs(def-(1+96*0.4)) > 0.03 {
		t.Errorf("default and its levels hold %v%%, want %v", def, 1+96*0.4)
	}
	for user, want := range map[string]string{"alice": "root.c0", "bob.smith": "root.default"} {
		if q, err := cs.Place(user, nil, ""); err != nil || q.Path != want {
			t.Errorf("%s placed in %v (%v), want %s", user, q, err, want)
		}
	}
	// Without LAS_MQ levels the default queue is a leaf that shares
	// itself among its applications.
	b.LASMQ = nil
	out, _ = emitCS(t, b)
	if v := props(t, out)[p+"root.default.ordering-policy"]; v != "fair" {
		t.Errorf("default queue ordering-policy %q, want fair", v)
	}
}

// Issue 10: with --k 8 a class's work share rounded to capacity 0 while its
// levels had 100, which Hadoop refuses (AbstractParentQueue.setChildQueues:
// "queue=C1 has zero capacity, but child queues have positive capacities").
func TestCapacitySchedulerXMLTinyClass(t *testing.T) {
	b := bundletest.Sample()
	b.Users[0].Class = ""     // nobody is mapped to c0
	b.Classes[0].Alpha = 1e-9 // work share far below 0.005%
	b.Capacity.Allocation = [][]float64{{1e-12, 0.5, 0}, {1, 0.3, 0.2}, {0, 0, 0}}
	out, err := bundle.CapacitySchedulerXML(b)
	if err != nil {
		t.Fatal(err)
	}
	if err := bundle.CheckCS(out, yarn.CSCheckOptions{ClusterLabels: []string{}}); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	// The tiny class keeps the floor (1%, split among its levels): no
	// leaf has capacity 0.
	got := props(t, out)
	if v := got["yarn.scheduler.capacity.root.c0.capacity"]; v != "0.5" {
		t.Errorf("tiny class capacity %q, want 0.5 (the 1%% floor × level weight 3/6)", v)
	}
	_, cs := emitCS(t, b)
	for _, q := range cs.Queues {
		if q.IsLeaf() && !(q.Partition(yarn.NoLabel).AbsoluteCapacity > 0) {
			t.Errorf("%s has capacity 0", q.Path)
		}
	}
	// A class with no arrivals and no allocation gets idle capacity only:
	// capacity 0 with levels at 0, on the largest type.
	b = bundletest.Sample()
	b.Classes[2].Alpha = 0
	b.Capacity.Allocation = [][]float64{{0, 0.5, 0}, {1, 0.3, 0}, {0, 0, 0}}
	b.Cluster.Resources[2].Count = 0
	b.Classes = append(b.Classes[:2], b.Classes[2])
	out, err = bundle.CapacitySchedulerXML(b)
	if err != nil {
		t.Fatal(err)
	}
	if err := bundle.CheckCS(out, yarn.CSCheckOptions{ClusterLabels: []string{}}); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
}

func TestFairSchedulerXML(t *testing.T) {
	out, err := bundle.FairSchedulerXML(bundletest.Sample(), bundle.FairSchedulerOptions{ContainerMB: 2048})
	if err != nil {
		t.Fatal(err)
	}
	fs, err := yarn.ParseFairScheduler(out)
	if err != nil {
		t.Fatal(err)
	}
	if ps := fs.Check(yarn.FSCheckOptions{Users: []string{"alice", "bob.smith"}}); len(ps) != 0 {
		t.Fatalf("%v\n%s", ps, out)
	}
	alice, bob := fs.Queue("root.alice"), fs.Queue("root.bob_dot_smith")
	if alice == nil || alice.MinResources == nil || alice.MinResources.MemoryMB != 10240 || alice.MinResources.VCores != 5 || alice.Weight != 1 {
		t.Errorf("alice %+v", alice)
	}
	if bob == nil || bob.MinResources != nil || bob.Weight != 2 {
		t.Errorf("bob %+v", bob)
	}
	if fs.Queue("root.default") == nil || len(fs.Root.Children) != 3 {
		t.Errorf("queues %v", fs.Queues)
	}
	// UserPlacementRule with create="false" finds bob.smith's queue
	// (FairQueuePlacementUtils.cleanName: '.' → "_dot_").
	for user, want := range map[string]string{"alice": "root.alice", "bob.smith": "root.bob_dot_smith", "carol": "root.default"} {
		if q, err := fs.Place(user, nil, ""); err != nil || q != want {
			t.Errorf("%s placed in %q (%v), want %s", user, q, err, want)
		}
	}
	// A min share YARN cannot express is refused, naming the user (on a
	// cluster of known size it is scaled to fit: TestFairSchedulerMinResourcesFit).
	b := bundletest.Sample()
	b.Users[0].MinShare = 1e300
	b.Cluster.Resources = nil
	if _, err := bundle.FairSchedulerXML(b, bundle.FairSchedulerOptions{}); err == nil || !strings.Contains(err.Error(), `"alice"`) {
		t.Errorf("min_share 1e300: %v", err)
	}
	b = bundletest.Sample()
	b.Users = append(b.Users, bundle.UserConfig{Name: "bob_dot_smith"})
	if _, err := bundle.FairSchedulerXML(b, bundle.FairSchedulerOptions{}); err == nil {
		t.Error("two users with one queue name accepted")
	}
}

func TestBundleRoundTrip(t *testing.T) {
	b := bundletest.Sample()
	out, err := bundle.MarshalBundle(b)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(out), "# schedplan.yaml") {
		t.Error("no documentation header")
	}
	// The thresholds carry their unit.
	if !strings.Contains(string(out), "threshold_unit: cluster-seconds") || !strings.Contains(string(out), "container_seconds_per_unit: 48.06") {
		t.Errorf("threshold unit missing:\n%s", out)
	}
	back, err := bundle.ParseBundle(out, "schedplan.yaml")
	if err != nil {
		t.Fatal(err)
	}
	again, _ := bundle.MarshalBundle(back)
	if string(again) != string(out) {
		t.Errorf("bundle does not round-trip:\n%s\n---\n%s", out, again)
	}
	bad := strings.Replace(string(out), "version: 1", "version: 9", 1)
	if _, err := bundle.ParseBundle([]byte(bad), "x.yaml"); err == nil || !strings.Contains(err.Error(), "version 9") {
		t.Errorf("version 9 accepted: %v", err)
	}
	bad = strings.Replace(string(out), "k: 3", "k: 4", 1)
	if _, err := bundle.ParseBundle([]byte(bad), "x.yaml"); err == nil {
		t.Error("inconsistent las_mq accepted")
	}
	if _, err := bundle.ParseBundle([]byte("version: 1\nbogus: 2\n"), "x.yaml"); err == nil {
		t.Error("unknown field accepted")
	}
}

// Issue 10: a bundle whose LAS_MQ weights or class mean size is 1e308 made
// emit --config spin forever. Values that cannot be represented are refused
// when the bundle is loaded, naming the file and the field.
func TestParseBundleRejectsNonRepresentable(t *testing.T) {
	out, err := bundle.MarshalBundle(bundletest.Sample())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ from, to, field string }{
		{"    - 3\n    - 2\n", "    - 1e308\n    - 1e308\n", "las_mq.weights[1]"},
		{"mean_size: 30\n    alpha: 0.1", "mean_size: 1e308\n    alpha: 10", "classes[1]"},
		{"mean_size: 30", "mean_size: .nan", "classes[1].mean_size"},
		{"alpha: 0.3", "alpha: .inf", "classes[2].alpha"},
		{"min_share: 5", "min_share: -5", "users[0].min_share"},
		{"weight: 2", "weight: .inf", "users[1].weight"},
		{"lambda: 1.02", "lambda: -1", "capacity.lambda"},
		{"    - 10\n    - 100\n", "    - 10\n    - 1e308\n", "las_mq.thresholds[1]"},
		{"threshold_unit: cluster-seconds", "threshold_unit: minutes", "las_mq.threshold_unit"},
		{"class: c0", "class: c9", "users[0].class"},
		{"capacity: 48.06", "capacity: 1e999", "1e999"},
	} {
		if !strings.Contains(string(out), c.from) {
			t.Fatalf("%q not in the bundle:\n%s", c.from, out)
		}
		bad := strings.Replace(string(out), c.from, c.to, 1)
		_, err := bundle.ParseBundle([]byte(bad), "x.yaml")
		if err == nil || !strings.Contains(err.Error(), "x.yaml") || !strings.Contains(err.Error(), c.field) {
			t.Errorf("%s → %s: %v, want an error naming x.yaml and %s", c.from, c.to, err, c.field)
		}
	}
	// Rendering a bundle with extreme but finite weights terminates.
	b := bundletest.Sample()
	b.LASMQ.Weights = []float64{1e307, 1e307, 1}
	b.Classes[1].MeanSize = 1e300
	done := make(chan error, 1)
	go func() { _, err := bundle.RenderYARN(b, bundle.FairSchedulerOptions{}); done <- err }()
	select {
	case err := <-done:
		if err != nil {
			t.Error(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("RenderYARN does not terminate on weights of 1e307")
	}
}

func TestThresholdUnit(t *testing.T) {
	b := bundletest.Sample()
	for src, want := range map[string][2]any{"bytes": {bundle.UnitClusterSeconds, 48.06}, "size": {bundle.UnitContainerSeconds, 1.0}, "task_seconds": {bundle.UnitContainerSeconds, 1.0}} {
		b.Trace.SizeSource = src
		u, per, err := b.ThresholdUnit()
		if err != nil || u != want[0] || per != want[1] {
			t.Errorf("%s: %s %v %v, want %v", src, u, per, err, want)
		}
	}
	b.Trace.SizeSource = ""
	if _, _, err := b.ThresholdUnit(); err == nil {
		t.Error("unknown unit accepted")
	}
	if _, err := bundle.CapacitySchedulerXML(b); err == nil {
		t.Error("thresholds of unknown unit rendered")
	}
	// Container-seconds of work served at 48.06 reference containers by
	// 38 containers: 10 × 38 / 48.06 held container-seconds.
	b.LASMQ.ThresholdUnit, b.LASMQ.ContainerSecondsPerUnit = bundle.UnitContainerSeconds, 1
	out, err := bundle.CapacitySchedulerXML(b)
	if v := props(t, out)["schedplan.las-mq.root.c0.demote-after-held-container-seconds"]; err != nil || v != "7.906783188" {
		t.Errorf("explicit unit: %q, %v; want 7.906783188 (10 × 38 / 48.06)", v, err)
	}
	// An explicit conversion is taken as it is (run writes the one of the
	// capacity it tuned at).
	b.LASMQ.HeldPerUnit = 2
	out, err = bundle.CapacitySchedulerXML(b)
	if v := props(t, out)["schedplan.las-mq.root.c0.demote-after-held-container-seconds"]; err != nil || v != "20" {
		t.Errorf("explicit held_container_seconds_per_unit 2: %q, %v; want 20", v, err)
	}
	b.LASMQ.HeldPerUnit = -1
	if _, err := bundle.CapacitySchedulerXML(b); err == nil || !strings.Contains(err.Error(), "held_container_seconds_per_unit") {
		t.Errorf("negative held_container_seconds_per_unit: %v", err)
	}
}

func TestAssignUserClasses(t *testing.T) {
	b := bundletest.Sample()
	users := []string{"alice", "bob.smith"}
	userOfRow := []int32{0, 1, 0, 1, 0}
	// Rows 1..4 classified (row 0 not): alice in c2 twice, bob in c0 and c1.
	if err := bundle.AssignUserClasses(b, users, userOfRow, []int{1, 2, 3, 4}, []int32{0, 2, 1, 2}); err != nil {
		t.Fatal(err)
	}
	if b.Users[0].Class != "c2" || b.Users[1].Class != "" {
		t.Errorf("classes %q %q", b.Users[0].Class, b.Users[1].Class)
	}
	if err := bundle.AssignUserClasses(b, users, userOfRow, nil, []int32{0, 0, 0, 0, 7}); err == nil {
		t.Error("class 7 of 3 accepted")
	}
}

// Issue 25: the default cluster's spec users U1–U10, without jobs in the
// log, got minResources totalling 74 containers on a 54-container
// cluster. Users without jobs get none, and the rest are scaled to fit.
func TestFairSchedulerMinResourcesFit(t *testing.T) {
	b := bundletest.Sample() // 2 + 2·16 + 4 = 38 containers
	b.Users = []bundle.UserConfig{
		{Name: "alice", Jobs: 5, MinShare: 30, Weight: 1},
		{Name: "bob", Jobs: 1, MinShare: 20, Weight: 1},
		{Name: "U6", MinShare: 15, Weight: 1}, // a spec user with no jobs
	}
	out, err := bundle.FairSchedulerXML(b, bundle.FairSchedulerOptions{ContainerMB: 1024})
	if err != nil {
		t.Fatal(err)
	}
	fs, err := yarn.ParseFairScheduler(out)
	if err != nil {
		t.Fatal(err)
	}
	sum := int64(0)
	for _, q := range fs.Root.Children {
		if q.MinResources != nil {
			sum += q.MinResources.MemoryMB / 1024
		}
	}
	if u6 := fs.Queue("root.U6"); u6 == nil || u6.MinResources != nil {
		t.Errorf("U6 (no jobs): %+v, want a queue without minResources", u6)
	}
	if a := fs.Queue("root.alice"); a == nil || a.MinResources == nil || a.MinResources.MemoryMB != 22*1024 {
		t.Errorf("alice: %+v, want 30 × 38/50 → 22 containers", a)
	}
	if sum > 38 {
		t.Errorf("Σ minResources = %d containers on a 38-container cluster", sum)
	}
}

// A user mapped to a class that holds only most of their jobs (≥
// UserClassShare, < 1) would have the rest confined to that class's
// machine type: no node labels then.
func TestCapacitySchedulerXMLPartlyMappedUserNoLabels(t *testing.T) {
	b := labelledBundle()
	if _, cs := emitCS(t, b); !bundle.NamesLabels(cs) {
		t.Fatal("labelledBundle names no label")
	}
	b.Users[1].ClassShare = 0.9
	out, cs := emitCS(t, b)
	if bundle.NamesLabels(cs) || !strings.Contains(string(out), "the jobs of user bob.smith span classes") {
		t.Errorf("labels named for a user 90%% of whose jobs are of their class:\n%s", out)
	}
}
