package yarn

import (
	"strings"
	"testing"
)

// The parsers and checkers never panic, whatever the file; a parsed
// allocation file marshals to a file that parses again.

func FuzzParseCapacityScheduler(f *testing.F) {
	props, order := goodCS()
	f.Add(csFile(props, order...))
	f.Add([]byte("<configuration><property><name>yarn.scheduler.capacity.root.queues</name><value>a</value></property>" +
		"<property><name>yarn.scheduler.capacity.root.a.accessible-node-labels.</name><value>1</value></property></configuration>"))
	f.Add([]byte(`<configuration><property name="yarn.scheduler.capacity.root.queues" value="a,a.b, ,"/></configuration>`))
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
