package pipeline

import (
	"encoding/xml"
	"strings"
	"testing"
)

func sampleBundle() *Bundle {
	return &Bundle{
		Version: BundleVersion,
		Cluster: ClusterInfo{Resources: []ResourceInfo{
			{Name: "R1", Count: 1, Slots: 2, ExecRate: 0.01},
			{Name: "gpu.fast", Count: 2, Slots: 16, ExecRate: 1},
			{Name: "idle", Count: 1, Slots: 4, ExecRate: 1},
		}},
		Users: []UserConfig{{Name: "alice", MinShare: 5, Weight: 1}, {Name: "bob.smith", Weight: 2}},
		Classes: []ClassConfig{
			{Name: "c0", Label: "small", Alpha: 1, MeanSize: 1},
			{Name: "c1", Label: "large", Alpha: 0.1, MeanSize: 30},
			{Name: "c2", Label: "medium", Alpha: 0.3, MeanSize: 3},
		},
		Capacity: &CapacityPlan{
			Lambda: 1.02,
			// type × class, in machines
			Allocation: [][]float64{{0, 0.5, 0}, {1, 0.3, 0.2}, {0, 0, 0}},
		},
		LASMQ: &LASMQConfig{K: 3, Alpha0: 10, P: 10, Thresholds: []float64{10, 100}, Weights: []float64{3, 2, 1}},
	}
}

func TestPercentagesSumTo100(t *testing.T) {
	for _, w := range [][]float64{{1, 1, 1}, {1, 2}, {0, 0}, {0.3333, 0.3333, 0.3334}, {1e-9, 1, 1e9}, {7}, {0, 5, 0}} {
		p := percentages(w)
		sum := 0
		for _, v := range p {
			sum += v
			if v < 0 {
				t.Errorf("%v: negative part %v", w, p)
			}
		}
		if sum != 10000 {
			t.Errorf("%v: parts %v sum to %d hundredths", w, p, sum)
		}
	}
	if p := percentages([]float64{1, 2, 1}); p[0] != 2500 || p[1] != 5000 || p[2] != 2500 {
		t.Errorf("1:2:1 gave %v", p)
	}
}

func TestCapacitySchedulerXML(t *testing.T) {
	b := sampleBundle()
	out, err := CapacitySchedulerXML(b)
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckCapacitySchedulerXML(out); err != nil {
		t.Fatalf("emitted file breaks YARN's rules: %v\n%s", err, out)
	}
	var conf struct {
		Props []struct {
			Name  string `xml:"name"`
			Value string `xml:"value"`
		} `xml:"property"`
	}
	if err := xml.Unmarshal(out, &conf); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, p := range conf.Props {
		got[p.Name] = p.Value
	}
	for k, want := range map[string]string{
		"yarn.scheduler.capacity.root.queues":                                         "c0,c1,c2",
		"yarn.scheduler.capacity.root.accessible-node-labels":                         "R1,gpu_fast,idle",
		"yarn.scheduler.capacity.root.c1.accessible-node-labels.R1.capacity":          "100", // only c1 uses R1
		"yarn.scheduler.capacity.root.c0.accessible-node-labels.gpu_fast.capacity":    "66.67",
		"yarn.scheduler.capacity.root.c1.accessible-node-labels.gpu_fast.capacity":    "20",
		"yarn.scheduler.capacity.root.c2.accessible-node-labels.gpu_fast.capacity":    "13.33",
		"yarn.scheduler.capacity.root.c0.capacity":                                    "20.41", // work 1 : 3 : 0.9
		"yarn.scheduler.capacity.root.c1.capacity":                                    "61.22",
		"yarn.scheduler.capacity.root.c2.capacity":                                    "18.37",
		"yarn.scheduler.capacity.root.c2.accessible-node-labels.idle.capacity":        "18.37", // unused type: by work
		"yarn.scheduler.capacity.root.c0.queues":                                      "l0,l1,l2",
		"yarn.scheduler.capacity.root.c0.l0.capacity":                                 "50",
		"yarn.scheduler.capacity.root.c0.l1.accessible-node-labels.gpu_fast.capacity": "33.33",
		"schedplan.las-mq.root.c0.l1.demote-after":                                    "100",
	} {
		if got[k] != want {
			t.Errorf("%s = %q, want %q", k, got[k], want)
		}
	}
	if strings.Contains(got["yarn.scheduler.capacity.root.c0.accessible-node-labels"], "R1") {
		t.Error("c0 may access R1, which the LP gives it none of")
	}
}

func TestCheckCapacitySchedulerXMLRejects(t *testing.T) {
	good := `<configuration>
<property><name>yarn.scheduler.capacity.root.queues</name><value>a,b</value></property>
<property><name>yarn.scheduler.capacity.root.accessible-node-labels</name><value>x</value></property>
<property><name>yarn.scheduler.capacity.root.a.capacity</name><value>60</value></property>
<property><name>yarn.scheduler.capacity.root.b.capacity</name><value>40</value></property>
<property><name>yarn.scheduler.capacity.root.a.accessible-node-labels</name><value>x</value></property>
<property><name>yarn.scheduler.capacity.root.a.accessible-node-labels.x.capacity</name><value>100</value></property>
<property><name>yarn.scheduler.capacity.root.b.accessible-node-labels</name><value> </value></property>
</configuration>`
	if err := CheckCapacitySchedulerXML([]byte(good)); err != nil {
		t.Fatalf("valid file rejected: %v", err)
	}
	for _, tc := range []struct{ from, to, want string }{
		{"<value>40</value>", "<value>41</value>", "sum to 101"},
		{"x.capacity</name><value>100", "x.capacity</name><value>90", "label x"},
		{"<value>a,b</value>", "<value>a,b.c</value>", "invalid name"},
		{"root.a.accessible-node-labels</name><value>x<", "root.a.accessible-node-labels</name><value>y<", "cannot"},
		{"<value>60</value>", "<value>sixty</value>", "not a percentage"},
	} {
		bad := strings.Replace(good, tc.from, tc.to, 1)
		err := CheckCapacitySchedulerXML([]byte(bad))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s→%s: error %v, want %q", tc.from, tc.to, err, tc.want)
		}
	}
}

func TestFairSchedulerXML(t *testing.T) {
	out, err := FairSchedulerXML(sampleBundle(), FairSchedulerOptions{ContainerMB: 2048})
	if err != nil {
		t.Fatal(err)
	}
	if err := CheckFairSchedulerXML(out); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var a fairAllocations
	if err := xml.Unmarshal(out, &a); err != nil {
		t.Fatal(err)
	}
	root := a.Queues[0]
	if root.Name != "root" || len(root.Queues) != 3 {
		t.Fatalf("root %+v", root)
	}
	alice, bob := root.Queues[0], root.Queues[1]
	if alice.Name != "alice" || alice.MinResources != "10240 mb, 5 vcores" || alice.Weight != "1" {
		t.Errorf("alice %+v", alice)
	}
	if bob.Name != "bob_smith" || bob.MinResources != "" || bob.Weight != "2" {
		t.Errorf("bob %+v", bob)
	}
	if root.Queues[2].Name != "default" {
		t.Errorf("no default queue: %+v", root.Queues)
	}
	if n := len(a.Placement.Rules); n != 3 || a.Placement.Rules[n-1].Name != "default" {
		t.Errorf("placement %+v", a.Placement.Rules)
	}
}

func TestBundleRoundTrip(t *testing.T) {
	b := sampleBundle()
	out, err := MarshalBundle(b)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(out), "# schedplan.yaml") {
		t.Error("no documentation header")
	}
	back, err := ParseBundle(out, "schedplan.yaml")
	if err != nil {
		t.Fatal(err)
	}
	again, _ := MarshalBundle(back)
	if string(again) != string(out) {
		t.Errorf("bundle does not round-trip:\n%s\n---\n%s", out, again)
	}
	bad := strings.Replace(string(out), "version: 1", "version: 9", 1)
	if _, err := ParseBundle([]byte(bad), "x.yaml"); err == nil || !strings.Contains(err.Error(), "version 9") {
		t.Errorf("version 9 accepted: %v", err)
	}
	bad = strings.Replace(string(out), "k: 3", "k: 4", 1)
	if _, err := ParseBundle([]byte(bad), "x.yaml"); err == nil {
		t.Error("inconsistent las_mq accepted")
	}
	if _, err := ParseBundle([]byte("version: 1\nbogus: 2\n"), "x.yaml"); err == nil {
		t.Error("unknown field accepted")
	}
}
