package pipeline

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedplan/schedplan/classify"
	"github.com/schedplan/schedplan/cluster/yarn"
	"github.com/schedplan/schedplan/estimate"
	"github.com/schedplan/schedplan/pipeline/bundle"
	"github.com/schedplan/schedplan/pipeline/capacity"
	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/inputs"
	"github.com/schedplan/schedplan/pipeline/runreport"
	"github.com/schedplan/schedplan/pipeline/tuner"
)

// emitFor builds the bundle run would emit for k classes (the tuned LAS_MQ
// replaced by tuned, since only its shape matters here) and renders it.
func emitFor(t *testing.T, in *inputs.Inputs, k int, tuned tuner.LASMQParams) (*bundle.Bundle, map[string][]byte) {
	t.Helper()
	sizes := estimate.ContainerSeconds(in.Sizes, in.Source, in.Config.Sizes, in.Spec.Capacity())
	pr, s, err := classify.COSHH(in.Jobs, sizes, in.Spec, classify.Options{K: k, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	cs := classState{Primary: inputs.ClassOut{Result: pr, Rows: pr.Rows, Assign: pr.Assign}, Secondary: inputs.ClassOut{Result: s, Rows: s.Rows, Assign: s.Assign}}
	a, err := capacity.PlanCapacity(s, in.Spec, capacity.CapacityOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p := &pipelineRun{in: in, cs: cs, capSt: runreport.CapacityState{Secondary: a.Plan()}, tr: tuner.TuneReport{Best: tuned}, bs: boundsState{Bounds: &experiment.Bounds{}}}
	b := p.bundle()
	if p.bdErr != nil {
		t.Fatal(p.bdErr)
	}
	files, err := bundle.RenderYARN(b, bundle.FairSchedulerOptions{ContainerMB: 1024})
	if err != nil {
		t.Fatalf("k = %d: %v", k, err)
	}
	return b, files
}

// checkEmitted applies Hadoop's rules to both files (cluster/yarn: the
// Capacity Scheduler's AbstractParentQueue.setChildQueues sums per label,
// CapacitySchedulerConfiguration's ranges, QueueNodeLabelsSettings'
// label rules, unique leaf names, SchedulerUtils' default label checks,
// the queue mappings; the Fair Scheduler's AllocationFileQueueParser,
// QueuePlacementPolicy and UserPlacementRule with cleanName), and checks
// that every class has a leaf whose default label it may use and that every
// user lands where the files say.
func checkEmitted(t *testing.T, b *bundle.Bundle, files map[string][]byte) {
	t.Helper()
	cs, err := yarn.ParseCapacityScheduler(files["capacity-scheduler.xml"])
	if err != nil {
		t.Fatal(err)
	}
	if ps := cs.Check(bundle.CapacityCheckOptions(b, cs)); len(ps) != 0 {
		t.Fatalf("capacity-scheduler.xml: %v", ps)
	}
	for _, c := range b.Classes {
		if len(b.Queues) > 0 {
			break // the log's queues are the top level
		}
		q := cs.Queue("root." + c.Name)
		if q == nil {
			t.Fatalf("no queue for class %s", c.Name)
		}
		for _, leaf := range append([]*yarn.CSQueue{q}, q.Children...) {
			if leaf.IsLeaf() && !leaf.CanAccess(leaf.DefaultNodeLabelExpression) {
				t.Errorf("%s cannot use its default label %q", leaf.Path, leaf.DefaultNodeLabelExpression)
			}
		}
	}
	fs, err := yarn.ParseFairScheduler(files["fair-scheduler.xml"])
	if err != nil {
		t.Fatal(err)
	}
	var users []string
	for _, u := range b.Users {
		users = append(users, u.Name)
	}
	if ps := fs.Check(yarn.FSCheckOptions{Users: users}); len(ps) != 0 {
		t.Fatalf("fair-scheduler.xml: %v", ps)
	}
	for _, u := range b.Users {
		q, err := fs.Place(u.Name, nil, "")
		if err != nil || q != "root."+yarn.CleanName(u.Name) {
			t.Errorf("Fair Scheduler: user %s placed in %q (%v)", u.Name, q, err)
		}
		leaf, err := cs.Place(u.Name, nil, "")
		want := "root.default"
		if u.Class != "" && len(b.Queues) == 0 {
			want = "root." + u.Class
		}
		if err != nil || !strings.HasPrefix(leaf.Path, want) {
			t.Errorf("Capacity Scheduler: user %s (class %q) placed in %v (%v)", u.Name, u.Class, leaf, err)
		}
	}
}

// Issue 10: the files emitted for the embedded trace with --k 2 … 12 load
// in YARN (with --k 8 a class queue had capacity 0 and levels at 100).
func TestEmitEmbeddedTraceK2to12(t *testing.T) {
	in, err := Prepare(inputs.DefaultRunConfig())
	if err != nil {
		t.Fatal(err)
	}
	for k := 2; k <= 12; k++ {
		b, files := emitFor(t, in, k, tuner.LASMQParams{K: 10, Alpha0: 1, P: 10, Decay: 1})
		checkEmitted(t, b, files)
		if len(b.Classes) != k {
			t.Errorf("k = %d: %d classes", k, len(b.Classes))
		}
	}
}

// A synthetic multi-user log on a 3-type cluster: alice.smith submits only
// small jobs and bob only huge ones (each maps to one class), carol both
// (her jobs span classes); the users' names need cleanName.
func TestEmitMultiUserThreeTypes(t *testing.T) {
	dir := t.TempDir()
	spec := `version: 1
name: three-types
resources:
  - {name: small.box, count: 4, slots: 4, exec_rate: 0.5}
  - {name: big, count: 2, slots: 16, exec_rate: 1}
  - {name: gpu, count: 1, slots: 8, exec_rate: 4}
users:
  - {name: alice.smith, min_share: 4, weight: 2}
  - {name: bob, weight: 1}
  - {name: carol, min_share: 2}
`
	specPath := filepath.Join(dir, "cluster.yaml")
	if err := os.WriteFile(specPath, []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(3, 10))
	var rows strings.Builder
	rows.WriteString("job_id,submit_time,user,size\n")
	ts := 0.0
	for i := 0; i < 600; i++ {
		ts += r.ExpFloat64() * 20
		user, size := "carol", 0.0
		switch i % 3 {
		case 0:
			user, size = "alice.smith", 5+r.Float64()*5
		case 1:
			user, size = "bob", 5000+r.Float64()*5000
		default:
			size = []float64{7, 7000}[r.IntN(2)] * (1 + r.Float64())
		}
		fmt.Fprintf(&rows, "j%d,%.3f,%s,%.3f\n", i, ts, user, size)
	}
	logPath := filepath.Join(dir, "jobs.csv")
	if err := os.WriteFile(logPath, []byte(rows.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := inputs.DefaultRunConfig()
	cfg.Trace, cfg.Cluster = logPath, specPath
	in, err := Prepare(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []int{2, 3, 5} {
		b, files := emitFor(t, in, k, tuner.LASMQParams{K: 3, Alpha0: 10, P: 10, Decay: 0.5})
		checkEmitted(t, b, files)
		cs := string(files["capacity-scheduler.xml"])
		for _, u := range b.Users {
			mapped := strings.Contains(cs, "u:"+u.Name+":")
			if mapped != (u.Class != "") {
				t.Errorf("k = %d: user %s in class %q, mapped: %v", k, u.Name, u.Class, mapped)
			}
		}
		if k == 2 {
			// Two classes: small and huge jobs; carol has both.
			classOf := map[string]string{}
			for _, u := range b.Users {
				classOf[u.Name] = u.Class
			}
			if classOf["alice.smith"] == "" || classOf["bob"] == "" || classOf["carol"] != "" || classOf["alice.smith"] == classOf["bob"] {
				t.Errorf("k = %d: user classes %v", k, classOf)
			}
			for _, want := range []string{"u:alice.smith:" + classOf["alice.smith"], "u:bob:" + classOf["bob"], "user carol span several classes", "small_box"} {
				if !strings.Contains(cs, want) {
					t.Errorf("k = %d: capacity-scheduler.xml lacks %q", k, want)
				}
			}
		}
		if fsx := string(files["fair-scheduler.xml"]); !strings.Contains(fsx, `<queue name="alice_dot_smith">`) || !strings.Contains(fsx, "<minResources>4096 mb, 4 vcores</minResources>") {
			t.Errorf("fair-scheduler.xml:\n%s", fsx)
		}
	}
}
