package yarn

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
)

const goodFS = `<?xml version="1.0"?>
<allocations>
  <user name="alice.smith"><maxRunningApps>5</maxRunningApps></user>
  <queueMaxAppsDefault>20</queueMaxAppsDefault>
  <queue name="root">
    <schedulingPolicy>drf</schedulingPolicy>
    <queue name=" alice_dot_smith ">
      <weight>2</weight>
      <minResources>10240 mb, 5 vcores</minResources>
      <maxResources>vcores=50%, memory-mb=40%</maxResources>
      <maxRunningApps>7</maxRunningApps>
      <schedulingPolicy>fair</schedulingPolicy>
    </queue>
    <queue name="team" type="parent">
      <maxChildResources>memory-mb=4096, vcores=4</maxChildResources>
    </queue>
    <queue name="default"><schedulingPolicy>fifo</schedulingPolicy><maxAMShare>0.3</maxAMShare></queue>
  </queue>
  <defaultQueueSchedulingPolicy>fair</defaultQueueSchedulingPolicy>
  <queuePlacementPolicy>
    <rule name="specified" create="false"/>
    <rule name="nestedUserQueue" create="true"><rule name="specified" create="false"/></rule>
    <rule name="user" create="false"/>
    <rule name="default" queue="default"/>
  </queuePlacementPolicy>
</allocations>`

func TestFairSchedulerParse(t *testing.T) {
	fs, err := ParseFairScheduler([]byte(goodFS))
	if err != nil {
		t.Fatal(err)
	}
	if ps := fs.Check(FSCheckOptions{Users: []string{"alice.smith", "bob"}}); len(ps) != 0 {
		t.Fatalf("valid file: %v", ps)
	}
	a := fs.Queue("root.alice_dot_smith")
	if a == nil || a.Weight != 2 || a.MaxRunningApps != 7 || a.SchedulingPolicy != "fair" || !a.IsLeaf() {
		t.Fatalf("alice's queue: %+v", a)
	}
	if a.MinResources.MemoryMB != 10240 || a.MinResources.VCores != 5 || !a.MaxResources.Percent ||
		math.Abs(a.MaxResources.VCoresPercent-0.5) > 1e-12 || math.Abs(a.MaxResources.MemoryPercent-0.4) > 1e-12 {
		t.Errorf("resources %+v %+v", a.MinResources, a.MaxResources)
	}
	team := fs.Queue("root.team")
	if team == nil || team.IsLeaf() || team.MaxChildResources.VCores != 4 {
		t.Errorf("team %+v", team)
	}
	if d := fs.Queue("root.default"); d.MaxAMShare != float64(float32(0.3)) || d.SchedulingPolicy != "fifo" {
		t.Errorf("default %+v", d)
	}
	if fs.QueueMaxAppsDefault != 20 || fs.UserMaxApps["alice.smith"] != 5 || fs.Root.SchedulingPolicy != "drf" || len(fs.Placement) != 4 {
		t.Errorf("allocations %+v", fs)
	}
}

// UserPlacementRule.getPlacementForApp with create="false" looks for
// root.<cleanName(user)>: FairQueuePlacementUtils.cleanName turns
// alice.smith into alice_dot_smith.
func TestFairSchedulerUserPlacement(t *testing.T) {
	if got := CleanName(" alice.smith\u2003"); got != "alice_dot_smith" {
		t.Errorf("CleanName = %q", got)
	}
	fs, err := ParseFairScheduler([]byte(goodFS))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ user, requested, want, err string }{
		{"alice.smith", "", "root.alice_dot_smith", ""},
		{"bob", "", "root.default", ""},                        // no queue: the default rule
		{"bob", "alice_dot_smith", "root.alice_dot_smith", ""}, // specified, configured
		{"bob", "nope", "root.default", ""},                    // specified, create=false, not configured
		{"bob", "team", "", "root.team is not a leaf queue"},   // specified picks a parent queue: refused
		{"bob", ".bad", "", "illegal queue name"},              // SpecifiedPlacementRule: invalid name
	} {
		got, err := fs.Place(c.user, nil, c.requested)
		if c.err != "" {
			if !errors.Is(err, ErrRejected) || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s→%q: %v, want %q", c.user, c.requested, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%s→%q: %q %v, want %s", c.user, c.requested, got, err, c.want)
		}
	}
	// nestedUserQueue: the user's queue under the parent the nested rule picks.
	nested := strings.Replace(goodFS, `<rule name="specified" create="false"/>
    <rule name="nested`, `<rule name="nested`, 1)
	if fs, err := ParseFairScheduler([]byte(nested)); err != nil {
		t.Fatal(err)
	} else if got, err := fs.Place("bob", nil, "team"); got != "root.team.bob" || err != nil {
		t.Errorf("nested user queue: %q %v", got, err)
	}
	// The bug of issue 10: a queue named alice_smith is never found.
	bad := strings.Replace(goodFS, "alice_dot_smith", "alice_smith", 1)
	fs, err = ParseFairScheduler([]byte(bad))
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := fs.Place("alice.smith", nil, ""); got != "root.default" {
		t.Errorf("alice.smith placed in %s", got)
	}
	if ps := fs.Check(FSCheckOptions{Users: []string{"alice.smith"}}); !ps.Has("fs-user-queue") {
		t.Errorf("misnamed user queue not reported: %v", ps)
	}
}

// Each case breaks one rule of AllocationFileLoaderService,
// AllocationFileParser, AllocationFileQueueParser, QueuePlacementPolicy,
// SchedulingPolicy, FairSchedulerConfiguration or QueueManager.
func TestFairSchedulerRejects(t *testing.T) {
	for _, c := range []struct {
		name, from, to, rule, msg string
		sev                       Severity
	}{
		// AllocationFileQueueParser.parse.
		{"root alongside", `<defaultQueueSchedulingPolicy>`, `<queue name="x"/><defaultQueueSchedulingPolicy>`, "fs-root-alone", "no other queues can be placed alongside it", Error},
		// AllocationFileQueueParser.loadQueue: names.
		{"period", `name="team"`, `name="te.am"`, "fs-queue-name", "shouldn't contain period", Error},
		{"empty name", `name="team"`, `name=" "`, "fs-queue-name", "shouldn't be empty", Error},
		// FairSchedulerConfiguration.parseResourceConfigValue.
		{"min resources", `10240 mb, 5 vcores`, `10240 mb`, "fs-resource", "Cannot parse resource values", Error},
		{"negative memory", `10240 mb, 5 vcores`, `-1 mb, 5 vcores`, "fs-resource", "should not be negative", Error},
		{"unknown resource", `memory-mb=4096, vcores=4`, `gpu=1`, "fs-resource", "was not recognized", Error},
		{"mixed percent", `vcores=50%, memory-mb=40%`, `vcores=50%, memory-mb=40`, "fs-resource", "must all be percentages", Error},
		// Integer.parseInt / Double.parseDouble in loadQueue.
		{"max apps", `<maxRunningApps>7<`, `<maxRunningApps>7.5<`, "fs-number", "not an integer", Error},
		{"weight", `<weight>2<`, `<weight>two<`, "fs-number", "not a number", Error},
		// getTrimmedTextData on an empty element.
		{"empty weight", `<weight>2</weight>`, `<weight/>`, "fs-empty-element", "has no text", Error},
		// SchedulingPolicy.parse.
		{"policy", `<schedulingPolicy>drf<`, `<schedulingPolicy>lottery<`, "fs-policy", "SchedulingPolicy class not found", Error},
		// AllocationFileParser.extractSchedulingPolicy.
		{"default fifo", `<defaultQueueSchedulingPolicy>fair<`, `<defaultQueueSchedulingPolicy>FIFO<`, "fs-policy", "can't be FIFO", Error},
		// QueueManager.createNewQueues: fifo only for leaves.
		{"fifo parent", `<queue name="team" type="parent">`, `<queue name="team" type="parent"><schedulingPolicy>fifo</schedulingPolicy>`, "fs-fifo-parent", "fifo is only for leaf queues", Error},
		// AllocationFileQueueParser.loadQueue: parent settings.
		{"parent maxAMShare", `<queue name="team" type="parent">`, `<queue name="team" type="parent"><maxAMShare>0.5</maxAMShare>`, "fs-parent-setting", "cannot also include a maxAMShare element", Error},
		{"parent reservation", `<queue name="team" type="parent">`, `<queue name="team" type="parent"><reservation/>`, "fs-parent-setting", "cannot also include a reservation element", Error},
		// QueuePlacementPolicy.updateRuleSet.
		{"unreachable", `<rule name="user" create="false"/>`, `<rule name="user"/>`, "fs-placement-unreachable", "Rules after rule 3", Error},
		{"not terminal", `<rule name="default" queue="default"/>`, ``, "fs-placement-terminal", "Could get past last queue placement rule", Error},
		// QueuePlacementPolicy.fromXml and getParentRuleElement.
		{"nested without parent", `<rule name="user" create="false"/>`, `<rule name="nestedUserQueue"/>`, "fs-placement", "must have a parent rule set", Error},
		{"reject parent", `<rule name="specified" create="false"/></rule>`, `<rule name="reject"/></rule>`, "fs-placement", "is not allowed as a parent rule", Error},
		// QueuePlacementPolicy.createRule.
		{"unknown rule", `<rule name="user" create="false"/>`, `<rule name="usr" create="false"/>`, "fs-placement", "No rule class found for usr", Error},
		{"nameless rule", `<rule name="user" create="false"/>`, `<rule create="false"/>`, "fs-placement", "No name provided", Error},
		// SpecifiedPlacementRule.initialize.
		{"specified with parent", `<rule name="specified" create="false"/>
    <rule name="nested`, `<rule name="specified" create="false"><rule name="user"/></rule>
    <rule name="nested`, "fs-placement", "Parent rule should not be configured for Specified rule", Error},
		// AllocationFileQueueParser.checkMinAndMaxResource (a warning).
		{"min above max", `vcores=50%, memory-mb=40%`, `20000 mb, 1 vcores`, "fs-min-above-max", "less than min resources", Warning},
		// AllocationFileParser.parse: unknown elements are ignored.
		{"bad element", `<queueMaxAppsDefault>`, `<queueMaxAppDefault>3</queueMaxAppDefault><queueMaxAppsDefault>`, "fs-unknown-element", "Bad element", Warning},
		// DefaultPlacementRule.setConfig: illegal queue falls back.
		{"default queue", `queue="default"`, `queue="default."`, "fs-default-queue", "illegal queue name", Warning},
	} {
		t.Run(c.name, func(t *testing.T) {
			if !strings.Contains(goodFS, c.from) {
				t.Fatalf("%q not in the good file", c.from)
			}
			fs, err := ParseFairScheduler([]byte(strings.Replace(goodFS, c.from, c.to, 1)))
			if err != nil {
				t.Fatal(err)
			}
			ps := fs.Check(FSCheckOptions{})
			found := false
			for _, p := range ps {
				if p.Rule == c.rule && p.Severity == c.sev && strings.Contains(p.Message, c.msg) {
					found = true
				}
			}
			if !found {
				t.Errorf("want %v %s containing %q, got %v", c.sev, c.rule, c.msg, ps)
			}
		})
	}
	// AllocationFileLoaderService.reloadAllocations.
	for _, bad := range []string{"<configuration/>", "<allocations>", ""} {
		if _, err := ParseFairScheduler([]byte(bad)); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
	// The unreachable-rule check is off with no-terminal-rule.check.
	fs, _ := ParseFairScheduler([]byte(strings.Replace(goodFS, `<rule name="user" create="false"/>`, `<rule name="user"/>`, 1)))
	if ps := fs.Check(FSCheckOptions{NoTerminalRuleCheck: true}); len(ps.Errors()) != 0 {
		t.Errorf("no-terminal-rule.check: %v", ps)
	}
}

func TestParseResource(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Resource
	}{
		{"1024 mb, 2 vcores", Resource{MemoryMB: 1024, VCores: 2}},
		{"2 vcores, 1024 mb", Resource{MemoryMB: 1024, VCores: 2}},
		{"2 vcores 1024mb", Resource{MemoryMB: 1024, VCores: 2}},
		{"1024.7 MB, 2 vcores", Resource{MemoryMB: 1024, VCores: 2}},
		{"50%", Resource{Percent: true, MemoryPercent: 0.5, VCoresPercent: 0.5}},
		{"40% memory, 60% cpu", Resource{Percent: true, MemoryPercent: 0.4, VCoresPercent: 0.6}},
		{"memory-mb=1024, vcores=2", Resource{MemoryMB: 1024, VCores: 2}},
		{"vcores=2", Resource{MemoryMB: 7, VCores: 2}}, // missing memory: the "missing" amount
		{"memory-mb=40%, vcores=60%", Resource{Percent: true, MemoryPercent: 0.4, VCoresPercent: 0.6}},
	} {
		got, err := ParseResource(c.in, 7)
		c.want.Raw = c.in
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("%q: %+v %v, want %+v", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{"", " ", "1024 mb", "1 mb, 2 vcores, 3 gb", "-5%", "x%", "memory-mb=-1", "memory-mb=1=2", "3000000000 mb, 1 vcores", "memory-mb=1.5"} {
		if r, err := ParseResource(bad, 0); err == nil {
			t.Errorf("%q parsed as %+v", bad, r)
		}
	}
}

func TestFairSchedulerRoundTrip(t *testing.T) {
	fs, err := ParseFairScheduler([]byte(goodFS))
	if err != nil {
		t.Fatal(err)
	}
	out, err := fs.Marshal("round -- trip")
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseFairScheduler(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Queues) != len(fs.Queues) || len(back.Check(FSCheckOptions{})) != 0 {
		t.Fatalf("round trip lost queues or broke rules:\n%s", out)
	}
	for i, q := range fs.Queues {
		b := back.Queues[i]
		if q.Path != b.Path || q.Weight != b.Weight || q.MaxRunningApps != b.MaxRunningApps || q.SchedulingPolicy != b.SchedulingPolicy ||
			!reflect.DeepEqual(stripRaw(q.MinResources), stripRaw(b.MinResources)) || !reflect.DeepEqual(stripRaw(q.MaxResources), stripRaw(b.MaxResources)) {
			t.Errorf("queue %s: %+v → %+v", q.Path, q, b)
		}
	}
	if !reflect.DeepEqual(fs.Placement, back.Placement) || back.QueueMaxAppsDefault != 20 || back.UserMaxApps["alice.smith"] != 5 {
		t.Errorf("placement or defaults differ:\n%s", out)
	}
	// Built in code: NewFSQueue and Add.
	root := NewFSQueue("root")
	root.Add(NewFSQueue("a.b")) // not a legal name: the checker says so
	built := NewFairScheduler(root)
	built.Placement, built.PlacementConfigured = []PlacementRule{{Name: "default", Create: true, Queue: "root.default"}}, true
	out, _ = built.Marshal("")
	back, err = ParseFairScheduler(out)
	if err != nil || !back.Check(FSCheckOptions{}).Has("fs-queue-name") {
		t.Errorf("illegal name not caught: %v\n%s", err, out)
	}
}

func stripRaw(r *Resource) *Resource {
	if r == nil {
		return nil
	}
	c := *r
	c.Raw = ""
	if c.Percent {
		c.MemoryPercent = math.Round(c.MemoryPercent*1e9) / 1e9
		c.VCoresPercent = math.Round(c.VCoresPercent*1e9) / 1e9
	}
	return &c
}

// queueMaxAppsDefault and userMaxAppsDefault of 0 let no application run
// in Hadoop (MaxRunningAppsEnforcer.canAppBeRunnable); Marshal dropped a
// 0, so that a parsed file written back ran everything. It now keeps it,
// and a file built with NewFairScheduler writes neither (Hadoop's
// default, no limit).
func TestFairSchedulerMaxAppsZeroKept(t *testing.T) {
	fs, err := ParseFairScheduler([]byte(`<allocations><queue name="a"><maxRunningApps>0</maxRunningApps></queue>
<queueMaxAppsDefault>0</queueMaxAppsDefault><userMaxAppsDefault>0</userMaxAppsDefault></allocations>`))
	if err != nil {
		t.Fatal(err)
	}
	out, err := fs.Marshal("")
	if err != nil {
		t.Fatal(err)
	}
	back, err := ParseFairScheduler(out)
	if err != nil {
		t.Fatal(err)
	}
	if back.QueueMaxAppsDefault != 0 || back.UserMaxAppsDefault != 0 || back.Queue("root.a").MaxRunningApps != 0 {
		t.Errorf("limits of 0 lost on the way back: queueMaxAppsDefault %d, userMaxAppsDefault %d, root.a %d\n%s",
			back.QueueMaxAppsDefault, back.UserMaxAppsDefault, back.Queue("root.a").MaxRunningApps, out)
	}
	built := NewFairScheduler(NewFSQueue("root"))
	built.Root.Add(NewFSQueue("a"))
	out, err = built.Marshal("")
	if err != nil {
		t.Fatal(err)
	}
	if s := string(out); strings.Contains(s, "MaxAppsDefault") || strings.Contains(s, "maxRunningApps") {
		t.Errorf("a file built with Hadoop's defaults writes a limit:\n%s", s)
	}
}

// An explicit maxRunningApps 0 on a queue or a user is loaded by Hadoop,
// but MaxRunningAppsEnforcer.canAppBeRunnable then never makes an
// application of that queue (or of a queue under it), or of that user,
// runnable: a warning. Other values, and the defaults, are not flagged.
func TestFairSchedulerMaxAppsZeroWarns(t *testing.T) {
	for _, tc := range []struct {
		name, file string
		want       []string // where of each fs-max-apps-zero warning
	}{
		{"leaf 0", `<allocations><queue name="a"><maxRunningApps>0</maxRunningApps></queue><queue name="b"/></allocations>`,
			[]string{"root.a"}},
		{"parent 0", `<allocations><queue name="p"><maxRunningApps>0</maxRunningApps><queue name="x"/></queue></allocations>`,
			[]string{"root.p"}},
		{"user 0", `<allocations><user name="bob"><maxRunningApps>0</maxRunningApps></user><user name="al"><maxRunningApps>2</maxRunningApps></user></allocations>`,
			[]string{"user bob"}},
		{"1 is a limit, not a warning", `<allocations><queue name="a"><maxRunningApps>1</maxRunningApps></queue></allocations>`, nil},
		{"unset", `<allocations><queue name="a"/></allocations>`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs, err := ParseFairScheduler([]byte(tc.file))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, p := range fs.Check(FSCheckOptions{}) {
				if p.Rule != "fs-max-apps-zero" {
					t.Errorf("unexpected problem %v", p)
					continue
				}
				if p.Severity != Warning || p.Hadoop != "MaxRunningAppsEnforcer.canAppBeRunnable" {
					t.Errorf("%v: want a warning citing MaxRunningAppsEnforcer.canAppBeRunnable", p)
				}
				got = append(got, p.Where)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("warnings at %q, want %q", got, tc.want)
			}
		})
	}
}
