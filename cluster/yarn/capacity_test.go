package yarn

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
)

// csFile builds a capacity-scheduler.xml from name=value pairs.
func csFile(props map[string]string, order ...string) []byte {
	var b strings.Builder
	b.WriteString("<configuration>\n")
	for _, k := range order {
		fmt.Fprintf(&b, "<property><name>%s</name><value>%s</value></property>\n", CSPrefix+k, props[k])
	}
	b.WriteString("</configuration>\n")
	return []byte(b.String())
}

// goodCS is a valid two-level configuration with two node labels: a and b
// split root on the default partition and on label x; a has two leaves.
func goodCS() (map[string]string, []string) {
	props := map[string]string{}
	var order []string
	set := func(k, v string) {
		if _, ok := props[k]; !ok {
			order = append(order, k)
		}
		props[k] = v
	}
	set("root.queues", "a,b")
	set("root.a.capacity", "60")
	set("root.b.capacity", "40")
	set("root.a.maximum-capacity", "100")
	set("root.a.accessible-node-labels", "x,y")
	set("root.a.accessible-node-labels.x.capacity", "100")
	set("root.a.accessible-node-labels.y.capacity", "100")
	set("root.a.default-node-label-expression", "x")
	set("root.b.accessible-node-labels", " ")
	set("root.a.queues", "a1,a2")
	set("root.a.a1.capacity", "33.33")
	set("root.a.a2.capacity", "66.67")
	set("root.a.a1.accessible-node-labels", "x,y")
	set("root.a.a2.accessible-node-labels", "x")
	set("root.a.a1.accessible-node-labels.x.capacity", "50")
	set("root.a.a2.accessible-node-labels.x.capacity", "50")
	set("root.a.a1.accessible-node-labels.y.capacity", "100")
	set("root.a.a1.user-limit-factor", "2.5")
	set("queue-mappings", "u:alice:a1, g:eng:root.a.a2,u:%user:b")
	return props, order
}

func parseCS(t *testing.T, props map[string]string, order []string) *CapacityScheduler {
	t.Helper()
	cs, err := ParseCapacityScheduler(csFile(props, order...))
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

func TestCapacitySchedulerParse(t *testing.T) {
	props, order := goodCS()
	cs := parseCS(t, props, order)
	if ps := cs.Check(CSCheckOptions{ClusterLabels: []string{"x", "y"}}); len(ps) != 0 {
		t.Fatalf("valid file: %v", ps)
	}
	a1 := cs.Queue("root.a.a1")
	a2 := cs.Queue("root.a.a2")
	b := cs.Queue("root.b")
	if a1 == nil || a2 == nil || b == nil || !a1.IsLeaf() || cs.Queue("root.a").IsLeaf() {
		t.Fatalf("tree: %v", cs.Queues)
	}
	// Root's configured labels are every label configured anywhere
	// (ConfiguredNodeLabels.getAllConfiguredLabels); root's label
	// capacities are 100 whatever the file says.
	if fmt.Sprint(cs.Root.Labels) != "[ x y]" || cs.Root.Partition("x").Capacity.Percent != 100 {
		t.Errorf("root labels %q, capacity on x %v", cs.Root.Labels, cs.Root.Partition("x").Capacity)
	}
	// Absolute capacities multiply along the path
	// (CSQueueUtils.updateAbsoluteCapacitiesByNodeLabels).
	for _, c := range []struct {
		q     *CSQueue
		label string
		abs   float64
	}{{a1, NoLabel, 0.6 * 0.3333}, {a2, "x", 0.5}, {a1, "y", 1}, {b, "x", 0}} {
		if got := c.q.Partition(c.label).AbsoluteCapacity; math.Abs(got-c.abs) > 1e-6 {
			t.Errorf("%s on %q: absolute capacity %v, want %v", c.q.Path, c.label, got, c.abs)
		}
	}
	// A child that sets its labels inherits the default node label
	// expression only when its labels include all of the parent's
	// (QueueNodeLabelsSettings.initializeDefaultLabelExpression).
	if a1.DefaultNodeLabelExpression != "x" || a2.DefaultNodeLabelExpression != "" {
		t.Errorf("default labels: a1 %q, a2 %q", a1.DefaultNodeLabelExpression, a2.DefaultNodeLabelExpression)
	}
	if len(b.AccessibleNodeLabels) != 0 || !b.CanAccess(NoLabel) || b.CanAccess("x") || !cs.Root.CanAccess("x") {
		t.Errorf("b accesses %q", b.AccessibleNodeLabels)
	}
	if a1.UserLimitFactor != 2.5 || a2.UserLimitFactor != 1 || a1.State != Running {
		t.Errorf("user limit factors %v %v, state %v", a1.UserLimitFactor, a2.UserLimitFactor, a1.State)
	}
	if len(cs.Mappings) != 3 || cs.Mappings[1] != (QueueMapping{GroupMapping, "eng", "root.a.a2"}) {
		t.Errorf("mappings %v", cs.Mappings)
	}
}

// Each case breaks one rule Hadoop 3.4.1 (or 2.x where said) applies when
// it loads a capacity-scheduler.xml; the method is the one that refuses it.
func TestCapacitySchedulerRejects(t *testing.T) {
	for _, c := range []struct {
		name string
		set  map[string]string
		opt  CSCheckOptions
		rule string
		sev  Severity
		msg  string
	}{
		// AbstractParentQueue.setChildQueues: a parent with capacity 0 whose
		// children sum to 100 (schedplan's --k 8 bug: root.C1.capacity 0).
		{"zero parent", map[string]string{"root.a.capacity": "0", "root.b.capacity": "100"}, CSCheckOptions{}, "cs-zero-parent", Error,
			"queue=a has zero capacity, but child queues have positive capacities"},
		// AbstractParentQueue.setChildQueues: siblings sum to neither 0 nor 100.
		{"sum 101", map[string]string{"root.b.capacity": "41"}, CSCheckOptions{}, "cs-children-sum", Error, "for children of queue root for label=."},
		// The same on a label, in float arithmetic: 33.3 × 3 = 99.9 is out
		// of PRECISION (0.05 percentage points).
		{"label sum", map[string]string{"root.a.a1.accessible-node-labels.x.capacity": "33.3", "root.a.a2.accessible-node-labels.x.capacity": "66.6"}, CSCheckOptions{}, "cs-children-sum", Error, "label=x"},
		// AbstractParentQueue.setChildQueues: children at 0 under a parent
		// with a positive capacity (without allow-zero-capacity-sum).
		{"zero sum", map[string]string{"root.a.a1.capacity": "0", "root.a.a2.capacity": "0"}, CSCheckOptions{}, "cs-children-zero-sum", Error, "It is set to 0, but parent percent != 0"},
		// CapacityScheduler.addQueue (2.x) / CSQueueStore.isAmbiguous (3.x).
		{"leaf names", map[string]string{"root.b.queues": "a1", "root.b.a1.capacity": "100"}, CSCheckOptions{}, "cs-leaf-names", Error, "Leaf queue names must be distinct"},
		// QueueNodeLabelsSettings.validateNodeLabels: child labels ⊆ parent's.
		{"labels subset", map[string]string{"root.a.a2.accessible-node-labels": "x,z"}, CSCheckOptions{}, "cs-labels-subset", Error, "these labels=[z]"},
		{"labels any", map[string]string{"root.a.a2.accessible-node-labels": "*"}, CSCheckOptions{}, "cs-labels-subset", Error, "child's accessible queue is *"},
		// CapacitySchedulerConfiguration.getAccessibleNodeLabels ignores root's.
		{"root labels", map[string]string{"root.accessible-node-labels": "x,y"}, CSCheckOptions{}, "cs-root-labels", Warning, "ignores root's accessible-node-labels"},
		// internalGetLabeledQueueCapacity ignores root's label capacities.
		{"root label capacity", map[string]string{"root.accessible-node-labels.x.capacity": "50"}, CSCheckOptions{}, "cs-root-capacity", Warning, "root's capacity is always 100"},
		// getNonLabeledQueueCapacity: capacity in [0, 100].
		{"capacity range", map[string]string{"root.a.capacity": "120"}, CSCheckOptions{}, "cs-capacity-range", Error, "Illegal capacity of 120"},
		// internalGetLabeledQueueCapacity: label capacity in [0, 100].
		{"label capacity range", map[string]string{"root.a.a1.accessible-node-labels.y.capacity": "-1"}, CSCheckOptions{}, "cs-capacity-range", Error, "Illegal capacity of -1"},
		// Float.parseFloat throws NumberFormatException.
		{"not a number", map[string]string{"root.a.capacity": "sixty"}, CSCheckOptions{}, "cs-number", Error, `"sixty" is not a number`},
		{"ulf not a number", map[string]string{"root.a.a1.user-limit-factor": "2x"}, CSCheckOptions{}, "cs-number", Error, "not a number"},
		// CSQueueUtils.checkMaxCapacity (2.x at load).
		{"max range", map[string]string{"root.a.maximum-capacity": "150"}, CSCheckOptions{}, "cs-capacity-range", Error, "Illegal maximum-capacity of 150"},
		// CSQueueUtils.checkAbsoluteCapacity (2.x at load).
		{"max below capacity", map[string]string{"root.a.maximum-capacity": "10"}, CSCheckOptions{}, "cs-max-below-capacity", Error, "greater than its absolute maximumCapacity"},
		// AbstractParentQueue.getCapacityConfigurationTypeForQueues.
		{"mixed", map[string]string{"root.b.capacity": "2w"}, CSCheckOptions{}, "cs-mixed-mode", Error, "mixed of  weight mode"},
		// CapacitySchedulerConfiguration.throwExceptionForUnexpectedWeight.
		{"weight range", map[string]string{"root.a.capacity": "20000w", "root.b.capacity": "1w"}, CSCheckOptions{}, "cs-weight-range", Error, "Illegal weight=20000"},
		// SchedulerUtils.checkQueueLabelExpression at request time.
		{"default label not accessible", map[string]string{"root.a.a2.default-node-label-expression": "y"}, CSCheckOptions{}, "cs-default-label", Error, "not among the queue's accessible labels"},
		{"default label &&", map[string]string{"root.a.a1.default-node-label-expression": "x&amp;&amp;y"}, CSCheckOptions{}, "cs-default-label", Error, "more than one label"},
		// SchedulerUtils.checkQueueLabelInLabelManager.
		{"default label not in cluster", nil, CSCheckOptions{ClusterLabels: []string{"y"}}, "cs-default-label", Error, "is not a label of the cluster"},
		// SchedulerUtils.normalizeNodeLabelExpressionInRequest: no label on a
		// cluster without unlabelled nodes.
		{"no default label", nil, CSCheckOptions{NoUnlabelledNodes: true}, "cs-default-label", Error, "has no default node label expression"},
		// CapacitySchedulerConfiguration.getAppOrderingPolicy: neither fifo,
		// fair nor a class name.
		{"ordering policy", map[string]string{"root.a.a1.ordering-policy": "lifo"}, CSCheckOptions{}, "cs-ordering-policy", Error, "Unable to construct ordering policy for: lifo"},
		// CapacitySchedulerConfiguration.getQueueMappings.
		{"mapping format", map[string]string{"queue-mappings": "u:alice"}, CSCheckOptions{}, "cs-mapping", Error, "Illegal queue mapping"},
		{"mapping prefix", map[string]string{"queue-mappings": "x:alice:a1"}, CSCheckOptions{}, "cs-mapping", Error, "Illegal queue mapping"},
		// CapacityScheduler.addApplication: unknown and non-leaf queues.
		{"mapping unknown", map[string]string{"queue-mappings": "u:alice:nope"}, CSCheckOptions{}, "cs-mapping-target", Error, "unknown queue: nope"},
		{"mapping parent", map[string]string{"queue-mappings": "u:alice:a"}, CSCheckOptions{}, "cs-mapping-target", Error, "non-leaf queue: root.a"},
		// QueueState.valueOf.
		{"state", map[string]string{"root.b.state": "paused"}, CSCheckOptions{}, "cs-state", Error, `state "paused"`},
		// QueuePath: empty parts and '.' in a name.
		{"dotted name", map[string]string{"root.queues": "a,b,c.d"}, CSCheckOptions{}, "cs-queue-name", Error, `"c.d"`},
		{"blank name", map[string]string{"root.queues": "a, ,b"}, CSCheckOptions{}, "cs-queue-name", Error, `""`},
		// CSQueueStore.add: a queue listed twice.
		{"listed twice", map[string]string{"root.a.queues": "a1,a2,a1"}, CSCheckOptions{}, "cs-duplicate-queue", Error, "listed twice"},
		// getConfiguredNodeLabelsByQueue: a label key without a setting.
		{"label key", map[string]string{"root.a.accessible-node-labels.x": "1"}, CSCheckOptions{}, "cs-label-property", Error, "StringIndexOutOfBoundsException"},
	} {
		t.Run(c.name, func(t *testing.T) {
			props, order := goodCS()
			for k, v := range c.set {
				if _, ok := props[k]; !ok {
					order = append(order, k)
				}
				props[k] = v
			}
			ps := parseCS(t, props, order).Check(c.opt)
			found := false
			for _, p := range ps {
				if p.Rule == c.rule && p.Severity == c.sev && strings.Contains(p.Message, c.msg) && p.Hadoop != "" {
					found = true
				}
			}
			if !found {
				t.Errorf("want %v %s containing %q, got %v", c.sev, c.rule, c.msg, ps)
			}
		})
	}
}

func TestCapacitySchedulerRulesHadoopAccepts(t *testing.T) {
	for _, c := range []struct {
		name string
		set  map[string]string
	}{
		// AbstractParentQueue.setChildQueues: children at 0 under a parent at 0.
		{"zero under zero", map[string]string{"root.a.capacity": "0", "root.b.capacity": "100", "root.a.a1.capacity": "0", "root.a.a2.capacity": "0"}},
		// allow-zero-capacity-sum lets children sum to 0 under a positive parent.
		{"allow zero sum", map[string]string{"root.a.allow-zero-capacity-sum": "true", "root.a.a1.capacity": "0", "root.a.a2.capacity": "0"}},
		// Sums within PRECISION (0.05 points) pass.
		{"within precision", map[string]string{"root.a.a1.capacity": "33.34", "root.a.a2.capacity": "66.7"}},
		// Without legacy queue mode the sum rules do not apply.
		{"non-legacy", map[string]string{"legacy-queue-mode.enabled": "false", "root.b.capacity": "50"}},
		// Weights only: no sum rule (child-weight: "No specific check").
		{"weights", map[string]string{"root.a.a1.capacity": "1w", "root.a.a2.capacity": "3w",
			"root.a.a1.accessible-node-labels.x.capacity": "1w", "root.a.a2.accessible-node-labels.x.capacity": "1w", "root.a.a1.accessible-node-labels.y.capacity": "2w"}},
		// A maximum capacity of -1 means 100.
		{"max -1", map[string]string{"root.a.maximum-capacity": "-1"}},
		// Application ordering policies: fifo, fair, or a class name.
		{"ordering policies", map[string]string{"root.a.a1.ordering-policy": "fair", "root.a.a2.ordering-policy": "org.example.MyOrderingPolicy", "root.b.ordering-policy": " fifo"}},
		// Java float syntax.
		{"java float", map[string]string{"root.a.capacity": "6e1f", "root.b.capacity": " 40 "}},
	} {
		t.Run(c.name, func(t *testing.T) {
			props, order := goodCS()
			for k, v := range c.set {
				if _, ok := props[k]; !ok {
					order = append(order, k)
				}
				props[k] = v
			}
			if ps := parseCS(t, props, order).Check(CSCheckOptions{}); len(ps.Errors()) != 0 {
				t.Errorf("rejected: %v", ps)
			}
		})
	}
}

func TestCapacitySchedulerUnloadable(t *testing.T) {
	for _, data := range []string{
		"not xml",
		"<foo/>",
		"<configuration></configuration>",
		"<configuration><property><name>yarn.scheduler.capacity.root.queues</name><value> </value></property></configuration>",
	} {
		if _, err := ParseCapacityScheduler([]byte(data)); err == nil {
			t.Errorf("%q parsed", data)
		}
	}
}

func TestCapacitySchedulerPlace(t *testing.T) {
	props, order := goodCS()
	props["root.b.state"] = "STOPPED"
	order = append(order, "root.b.state")
	cs := parseCS(t, props, order)
	for _, c := range []struct {
		user      string
		groups    []string
		requested string
		want      string
		err       string
	}{
		{"alice", nil, "", "root.a.a1", ""},
		{"bob", []string{"eng"}, "default", "root.a.a2", ""},
		{"alice", nil, "a2", "root.a.a2", ""},            // named queue, no override
		{"carol", nil, "", "", "STOPPED"},                // %user mapping to b, which is stopped
		{"alice", nil, "a", "", "non-leaf queue root.a"}, // CapacityScheduler.addApplication
		{"alice", nil, "zz", "", "unknown queue: zz"},
	} {
		q, err := cs.Place(c.user, c.groups, c.requested)
		switch {
		case c.err != "":
			if err == nil || !errors.Is(err, ErrRejected) || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s→%q: %v, want %q", c.user, c.requested, err, c.err)
			}
		case err != nil || q.Path != c.want:
			t.Errorf("%s→%q: %v %v, want %s", c.user, c.requested, q, err, c.want)
		}
	}
}

func TestConfigurationRoundTrip(t *testing.T) {
	c := &Configuration{}
	c.Add("a.b", "x & <y>", "say \"hi\" -- twice")
	c.Add("c", " ", "")
	out, err := c.Marshal("made -- by a test")
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseConfiguration(out)
	if err != nil {
		t.Fatal(err)
	}
	vals, ps := back.Values()
	if vals["a.b"] != "x & <y>" || vals["c"] != " " || len(ps) != 0 || back.Properties[0].Description != "say \"hi\" -- twice" {
		t.Errorf("round trip: %q %v\n%s", vals, ps, out)
	}
	dup := []byte(`<configuration><property><name>k</name><value>1</value><final>true</final></property><property name="k" value="2"/></configuration>`)
	conf, err := ParseConfiguration(dup)
	if err != nil {
		t.Fatal(err)
	}
	if vals, ps := conf.Values(); vals["k"] != "1" || !ps.Has("conf-duplicate") {
		t.Errorf("final property overridden: %v %v", vals, ps)
	}
}
