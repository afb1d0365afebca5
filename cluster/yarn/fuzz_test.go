package yarn

import (
	"strings"
	"testing"
)

// The parsers and checkers never panic, whatever the file; a parsed
// allocation file marshals to a file that parses again.

// maxFuzzSeed bounds a seed's length in bytes. When the fuzzer finds an
// input with new coverage it minimizes it (up to -fuzzminimizetime, 60 s by
// default), and Go's byte minimizer tries O(n²) candidates for an n-byte
// input: a 1.7 KB seed kept the worker minimizing for the whole minute
// after the baseline (4 execs in 30 s). Seeds of a few hundred bytes
// minimize in well under a second; the full configuration is exercised by
// the unit tests.
const maxFuzzSeed = 640

// capacityFuzzSeeds are small configurations covering the parser's
// branches: hierarchy, capacities, node labels, mappings, attribute form.
func capacityFuzzSeeds() [][]byte {
	return [][]byte{
		csFile(map[string]string{"root.queues": "a,b", "root.a.capacity": "60", "root.b.capacity": "40",
			"root.a.maximum-capacity": "100", "root.a.user-limit-factor": "2.5"},
			"root.queues", "root.a.capacity", "root.b.capacity", "root.a.maximum-capacity", "root.a.user-limit-factor"),
		csFile(map[string]string{"root.queues": "a", "root.a.capacity": "100", "root.a.accessible-node-labels": "x",
			"root.a.accessible-node-labels.x.capacity": "100", "root.a.default-node-label-expression": "x"},
			"root.queues", "root.a.capacity", "root.a.accessible-node-labels", "root.a.accessible-node-labels.x.capacity",
			"root.a.default-node-label-expression"),
		csFile(map[string]string{"root.queues": "a", "root.a.queues": "a1", "root.a.capacity": "100",
			"root.a.a1.capacity": "100", "queue-mappings": "u:alice:a1,g:eng:root.a.a1,u:%user:a1"},
			"root.queues", "root.a.queues", "root.a.capacity", "root.a.a1.capacity", "queue-mappings"),
		[]byte("<configuration><property><name>yarn.scheduler.capacity.root.queues</name><value>a</value></property>" +
			"<property><name>yarn.scheduler.capacity.root.a.accessible-node-labels.</name><value>1</value></property></configuration>"),
		[]byte(`<configuration><property name="yarn.scheduler.capacity.root.queues" value="a,a.b, ,"/></configuration>`),
	}
}

func TestFuzzSeedsSmall(t *testing.T) {
	for i, s := range capacityFuzzSeeds() {
		if len(s) > maxFuzzSeed {
			t.Errorf("seed %d is %d bytes, over %d: the fuzzer's minimizer stalls on it", i, len(s), maxFuzzSeed)
		}
	}
}

func FuzzParseCapacityScheduler(f *testing.F) {
	for _, s := range capacityFuzzSeeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cs, err := ParseCapacityScheduler(data)
		if err != nil {
			return
		}
		cs.Check(CSCheckOptions{ClusterLabels: []string{"x"}, NoUnlabelledNodes: true})
		cs.Place("alice", []string{"eng"}, "")
		for _, q := range cs.Queues {
			q.Partition("x")
			q.CanAccess("x")
		}
	})
}

func FuzzParseFairScheduler(f *testing.F) {
	f.Add([]byte(goodFS))
	f.Add([]byte(`<allocations><queue name="a"><e name="b"/><weight/></queue><queuePlacementPolicy> </queuePlacementPolicy></allocations>`))
	f.Add([]byte(`<allocations><queuePlacementPolicy><rule name="nestedUserQueue"><rule name="primaryGroup"/></rule><rule name="reject"/></queuePlacementPolicy></allocations>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		fs, err := ParseFairScheduler(data)
		if err != nil {
			return
		}
		fs.Check(FSCheckOptions{Users: []string{"alice.smith", " "}})
		fs.Place("alice.smith", []string{"eng", "ops"}, "x")
		out, err := fs.Marshal("fuzz")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ParseFairScheduler(out); err != nil {
			t.Fatalf("marshalled file does not parse: %v\n%s", err, out)
		}
	})
}

func FuzzParseResource(f *testing.F) {
	for _, s := range []string{"1024 mb, 2 vcores", "50%", "40% memory, 60% cpu", "memory-mb=1, vcores=2", "vcores=1%", "1e9 mb, 1 vcores", "-0 mb 0 vcores"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseResource(s, 0)
		if err == nil && !r.Percent && (r.MemoryMB < 0 || r.VCores < 0) {
			t.Errorf("%q: negative amounts %+v", s, r)
		}
		if strings.TrimSpace(s) == "" && err == nil {
			t.Errorf("empty value accepted")
		}
	})
}
