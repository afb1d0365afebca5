package pipeline

import (
	"context"
	"encoding/xml"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/schedplan/schedplan/classify"
	"github.com/schedplan/schedplan/cluster/task"
	"github.com/schedplan/schedplan/cluster/yarn"
	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/pipeline/bundle"
	"github.com/schedplan/schedplan/pipeline/inputs"
	"github.com/schedplan/schedplan/pipeline/internal/bundletest"
	"github.com/schedplan/schedplan/pipeline/tasklevel"
	"github.com/schedplan/schedplan/pipeline/tunedeploy"
	"github.com/schedplan/schedplan/pipeline/tuner"
)

// sixUserLog writes a log of 6 users submitting to 3 queues (prod, dev,
// default; each user mostly to one), sizes spread over three orders of
// magnitude, and returns its path.
func sixUserLog(t *testing.T, withQueue bool) string {
	t.Helper()
	if !withQueue {
		return queueLog(t, nil)
	}
	return queueLog(t, []string{"root.prod", "root.dev", "default"})
}

// queueLog writes sixUserLog's log with queues (nil: no queue column):
// user u submits mostly to queues[u % len(queues)].
func queueLog(t *testing.T, queues []string) string {
	t.Helper()
	withQueue := queues != nil
	r := rand.New(rand.NewPCG(6, 3))
	var b strings.Builder
	b.WriteString("job_id,submit_time,user")
	if withQueue {
		b.WriteString(",queue")
	}
	b.WriteString(",size\n")
	ts := 0.0
	for i := 0; i < 1200; i++ {
		ts += r.ExpFloat64() * 30
		u := r.IntN(6)
		q, n := "", len(queues)
		if n == 0 {
			n = 3 // the draws of the log with 3 queues
		}
		if withQueue {
			q = queues[u%n]
		}
		if r.IntN(10) == 0 { // drawn with or without queues: one size sequence
			if k := r.IntN(n); withQueue {
				q = queues[k]
			}
		}
		size := math.Pow(10, float64(u%3)) * (1 + 9*r.Float64())
		fmt.Fprintf(&b, "j%d,%.3f,u%d", i, ts, u+1)
		if withQueue {
			fmt.Fprintf(&b, ",%s", q)
		}
		fmt.Fprintf(&b, ",%.3f\n", size)
	}
	path := filepath.Join(t.TempDir(), "jobs.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// nestedLogQueues are queues at several depths, one named by its short
// name ("adhoc", the leaf of root.dev.adhoc).
var nestedLogQueues = []string{"root.dev.adhoc", "root.prod", "root.dev.etl", "default", "adhoc"}

// routedShares places every application of the validation window as
// Hadoop's placement code would (yarn.CapacityScheduler.Place: the queue it
// names — the log's — then the mappings) and returns the share of them in
// each leaf.
func routedShares(t *testing.T, in *inputs.Inputs, cs *yarn.CapacityScheduler) map[*yarn.CSQueue]float64 {
	t.Helper()
	lo := in.Split.TuneJobs
	n := in.Jobs.Len() - lo
	named := bundle.LogQueuesOf(in.Jobs, lo, n)
	out := map[*yarn.CSQueue]float64{}
	for k := range n {
		req := ""
		if named != nil {
			req = named[k]
		}
		q, err := cs.Place(in.Jobs.UserAt(lo+k), nil, req)
		if err != nil {
			t.Fatalf("row %d: %v", lo+k+1, err)
		}
		if strings.Contains(req, ".") && q.Path != bundle.LogQueuePath(req) {
			t.Fatalf("row %d names %s and lands in %s", lo+k+1, req, q.Path)
		}
		out[q] += 1 / float64(n)
	}
	return out
}

// Issue 25: on the embedded trace (one user, no queue column), a log of 6
// users and 3 queues, and the same users without a queue column classified
// with --k users, every application of the validation window lands in a
// queue with guaranteed capacity > 0, and the queues that receive work
// (with the levels their applications are demoted to) hold ≥ 90% of the
// cluster; every leaf's per-user application limit
// (AbstractLeafQueue.setupQueueConfigs) admits the log's peak concurrent
// applications of one user. The old files sent everything to
// root.default (1%) and demoted levels admitted 100 applications per user.
func TestEmitRoutesWorkToCapacity(t *testing.T) {
	embedded, err := Prepare(inputs.DefaultRunConfig())
	if err != nil {
		t.Fatal(err)
	}
	withQueue, noQueue := inputs.DefaultRunConfig(), inputs.DefaultRunConfig()
	withQueue.Trace, noQueue.Trace = sixUserLog(t, true), sixUserLog(t, false)
	six, err := Prepare(withQueue)
	if err != nil {
		t.Fatal(err)
	}
	nestedCfg := inputs.DefaultRunConfig()
	nestedCfg.Trace = queueLog(t, nestedLogQueues)
	nested, err := Prepare(nestedCfg)
	if err != nil {
		t.Fatal(err)
	}
	users, err := Prepare(noQueue)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		in   *inputs.Inputs
		k    int
	}{
		{"embedded trace, k 1", embedded, 1},
		{"embedded trace, k 5", embedded, 5},
		{"embedded trace, k 12", embedded, 12},
		{"6 users, 3 queues", six, 3},
		{"6 users, nested queues", nested, 3},
		{"6 users, --k users", users, classify.KUsers},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, files := emitFor(t, tc.in, tc.k, tuner.LASMQParams{K: 5, Alpha0: 10, P: 2, Decay: 0})
			checkEmitted(t, b, files)
			cs, err := yarn.ParseCapacityScheduler(files["capacity-scheduler.xml"])
			if err != nil {
				t.Fatal(err)
			}
			if tc.k == 1 && strings.Contains(string(files["capacity-scheduler.xml"]), "span several classes") {
				t.Error("with one class, a user is said to span several classes")
			}
			shares := routedShares(t, tc.in, cs)
			demote := map[*yarn.CSQueue]*yarn.CSQueue{}
			ds, err := cs.Demotions()
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range ds {
				demote[d.From] = d.To
			}
			held := 0.0
			var lines []string
			for q, s := range shares {
				c := q.Partition(yarn.NoLabel).AbsoluteCapacity
				if !(c > 0) {
					t.Errorf("%.1f%% of the applications land in %s, guaranteed %v", 100*s, q.Path, c)
				}
				// The queue and the levels the controller demotes to.
				for l := q; l != nil; l = demote[l] {
					held += l.Partition(yarn.NoLabel).AbsoluteCapacity
				}
				lines = append(lines, fmt.Sprintf("%s: %.1f%% of the applications, guaranteed %.2f%%", q.Path, 100*s, 100*c))
			}
			sort.Strings(lines)
			t.Logf("validation window: %s; with their levels %.2f%%", strings.Join(lines, "; "), 100*held)
			if held < 0.9-1e-9 {
				t.Errorf("the queues that receive work hold %.2f%% of the cluster, want ≥ 90%%", 100*held)
			}
			peak := 0
			for _, u := range b.Users {
				peak = max(peak, u.PeakApps)
			}
			if peak < 1 {
				t.Fatalf("no user has a peak: %+v", b.Users)
			}
			for _, q := range cs.Queues {
				if q.IsLeaf() && q.Parent != nil {
					if got := maxAppsPerUser(t, cs, q); got < peak {
						t.Errorf("%s admits %d applications of one user, the log's peak is %d", q.Path, got, peak)
					}
				}
			}
		})
	}
}

// maxAppsPerUser is Hadoop's per-user application limit of a leaf:
// min(maximum-applications, (int)(maximum-applications ×
// minimum-user-limit-percent/100 × user-limit-factor)) in float32
// (AbstractLeafQueue.setupQueueConfigs); maximum-applications defaults to
// maximum-system-applications × the absolute capacity.
func maxAppsPerUser(t *testing.T, cs *yarn.CapacityScheduler, q *yarn.CSQueue) int {
	t.Helper()
	system := 10000
	if v, ok := cs.Values[yarn.CSPrefix+"maximum-applications"]; ok {
		fmt.Sscan(v, &system)
	}
	apps := int(float32(system) * float32(q.Partition(yarn.NoLabel).AbsoluteCapacity))
	if v, ok := cs.Values[yarn.CSPrefix+q.Path+".maximum-applications"]; ok {
		if _, err := fmt.Sscan(v, &apps); err != nil {
			t.Fatalf("%s.maximum-applications = %q", q.Path, v)
		}
	}
	return min(apps, int(float32(apps)*(float32(q.MinimumUserLimitPercent)/100)*float32(q.UserLimitFactor)))
}

func TestPeakApplications(t *testing.T) {
	for _, tc := range []struct {
		name            string
		arrival, finish []float64
		user            []int32
		want            []int
	}{
		{"none", nil, nil, nil, []int{0, 0}},
		{"overlap", []float64{0, 1, 2}, []float64{5, 3, 4}, []int32{0, 0, 0}, []int{3, 0}},
		{"back to back", []float64{0, 1, 2}, []float64{1, 2, 3}, []int32{0, 0, 0}, []int{1, 0}}, // a finish at an arrival has left
		{"two users", []float64{0, 0, 1, 1}, []float64{2, 2, 2, 2}, []int32{0, 1, 1, 1}, []int{1, 3}},
		{"finish before arrival counts as instant", []float64{3, 3}, []float64{1, 4}, []int32{1, 1}, []int{0, 1}},
		{"bad user ignored", []float64{0}, []float64{1}, []int32{7}, []int{0, 0}},
	} {
		got := bundle.PeakApplications(tc.arrival, tc.finish, tc.user, 2)
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestLogQueueName(t *testing.T) {
	for in, want := range map[string]string{"root.prod": "prod", "prod": "prod", "": "default", " root.a.b ": "b", "my queue": "my_queue", "root.": "default"} {
		if got := bundle.LogQueueName(in); got != want {
			t.Errorf("LogQueueName(%q) = %q, want %q", in, got, want)
		}
	}
}

// Issue 25: demoted levels (zero decay: weights 1, 0, 0) had capacity 0,
// no user-limit-factor and minimum-user-limit-percent 1, so Hadoop
// admitted 100 applications of one user there and refused the 101st move.
// Every leaf now admits twice the peak of one user, and maximum-system-
// applications twice the sum of the peaks.
func TestLevelsAdmitPeakApplications(t *testing.T) {
	b := bundletest.Sample()
	b.LASMQ.Weights = []float64{1, 0, 0}
	b.Users[0].PeakApps, b.Users[1].PeakApps = 3000, 4000
	out, cs := emitCS(t, b)
	if err := bundle.CheckCapacitySchedulerXML(out); err != nil {
		t.Fatal(err)
	}
	if v := cs.Values[yarn.CSPrefix+"maximum-applications"]; v != "14000" {
		t.Errorf("maximum-system-applications %q, want 14000", v)
	}
	for _, q := range cs.Queues {
		if !q.IsLeaf() || q.Parent == nil {
			continue
		}
		if !(q.Partition(yarn.NoLabel).AbsoluteCapacity > 0) {
			t.Errorf("%s has capacity 0", q.Path)
		}
		if got := maxAppsPerUser(t, cs, q); got < 8000 {
			t.Errorf("%s admits %d applications of one user, want ≥ 8000 (twice the peak)", q.Path, got)
		}
	}
}

// The deploy tuner and the verdict replay a log with a queue column as the
// emitted file routes it: every application names its log queue, as in the
// validation stage (before, they named none and all ran in root.default of
// a file that keeps the log's queues and maps no user).
func TestDeployPairsNameLogQueues(t *testing.T) {
	cfg := inputs.DefaultRunConfig()
	cfg.Trace = sixUserLog(t, true)
	in, pairs := deployPairsOf(t, cfg, tunedeploy.DeployChunk{FirstRow: 11, Jobs: 20})
	want := bundle.LogQueuesOf(in.Jobs, 10, 20)
	if got := pairs[0].Res.Named; !slices.Equal(got, want) {
		t.Fatalf("replayed applications name %q, want the log's queues %q", got, want)
	}
}

// A leaf's maximum-applications description states the per-user limit
// Hadoop derives from the file (it said "admits 40" where Hadoop admits
// min(maximum-applications, maximum-applications × minimum-user-limit-
// percent/100 × user-limit-factor), e.g. 10,000).
func TestLeafApplicationsDescription(t *testing.T) {
	b := bundletest.Sample()
	b.Users[0].PeakApps, b.Users[1].PeakApps = 20, 3
	out, cs := emitCS(t, b)
	var conf struct {
		Props []struct {
			Name string `xml:"name"`
			Desc string `xml:"description"`
		} `xml:"property"`
	}
	if err := xml.Unmarshal(out, &conf); err != nil {
		t.Fatal(err)
	}
	admits := regexp.MustCompile(`^admits (\d+) applications of one user`)
	checked := 0
	for _, p := range conf.Props {
		path, ok := strings.CutSuffix(strings.TrimPrefix(p.Name, yarn.CSPrefix), ".maximum-applications")
		if !ok || path == "" || !strings.HasPrefix(path, "root.") {
			continue
		}
		m := admits.FindStringSubmatch(p.Desc)
		if m == nil {
			t.Errorf("%s: description %q states no limit", p.Name, p.Desc)
			continue
		}
		want := maxAppsPerUser(t, cs, cs.Queue(path))
		if m[1] != fmt.Sprint(want) {
			t.Errorf("%s: description says %s applications of one user, Hadoop admits %d", p.Name, m[1], want)
		}
		if want < 40 {
			t.Errorf("%s admits %d, want ≥ 40 (twice the peak)", path, want)
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("no leaf's maximum-applications")
	}
}

// A --current-config that refuses some of the log's applications (a queue
// it lacks) is an error of Prepare, before the first stage, naming the row,
// user and queue (it used to surface in tune-deploy or validate, as a
// --policy error); one that places them all passes.
func TestCurrentConfigPlacesTheLog(t *testing.T) {
	queues, users := sixUserLog(t, true), sixUserLog(t, false)
	for _, c := range []struct {
		log, file, want string
	}{
		{queues, "testdata/hadoop/capacity-scheduler.xml", `row 1 of`},
		{queues, "testdata/hadoop/fair-scheduler.xml", `queue "root.dev"): application rejected: root.dev is not a leaf queue`},
		{users, "testdata/hadoop/capacity-scheduler.xml", ""},
		{users, "testdata/hadoop/fair-scheduler.xml", ""},
	} {
		cfg := inputs.DefaultRunConfig()
		cfg.Trace, cfg.CurrentConfig = c.log, c.file
		_, err := Prepare(cfg)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.file, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "current-config")):
			t.Errorf("%s: error %v, want one naming --current-config and %q", c.file, err, c.want)
		}
	}
}

// The deploy tuner's and the verdict's deadlines are the --current-config
// file's completions, as the docs and the validation stage say (they were
// Fair with one pool per user's, so the current scheduler itself "missed"
// 54% of them on the embedded trace with Hadoop's stock
// capacity-scheduler.xml).
func TestDeployPairsReferenceIsCurrentConfig(t *testing.T) {
	cfg := inputs.DefaultRunConfig()
	cfg.Trace, cfg.CurrentConfig = sixUserLog(t, false), "testdata/hadoop/capacity-scheduler.xml"
	_, pairs := deployPairsOf(t, cfg, tunedeploy.DeployChunk{FirstRow: 1, Jobs: 200})
	want := "capacity:file=" + cfg.CurrentConfig
	if got := pairs[0].Res.Reference; got != want {
		t.Fatalf("deadlines from %q, want the current scheduler %q", got, want)
	}
	scores, err := tunedeploy.Replay(context.Background(), pairs, []string{want})
	if err != nil {
		t.Fatal(err)
	}
	if m := scores[0][0].Missed; m != 0 {
		t.Errorf("the current scheduler misses %v of its own deadlines, want 0", m)
	}
}

// The task level places a log's queue as the log wrote it first (what the
// cluster's own file knows it by: "root.a.x"), then by its name in
// schedplan's files ("x"): the current scheduler's replay put an
// application of root.a.x wherever the file's fallback rules put "x".
func TestLogQueuePlacedAsWritten(t *testing.T) {
	dir := t.TempDir()
	fair := filepath.Join(dir, "fair-scheduler.xml")
	const xmlText = `<?xml version="1.0"?>
<allocations>
  <queue name="a"><queue name="x"/></queue>
  <queue name="b"/>
  <queuePlacementPolicy>
    <rule name="specified" create="false"/>
    <rule name="default" queue="b"/>
  </queuePlacementPolicy>
</allocations>
`
	if err := os.WriteFile(fair, []byte(xmlText), 0o644); err != nil {
		t.Fatal(err)
	}
	r := &tasklevel.TaskLevel{Jobs: []task.Job{{ID: 0, User: "u"}, {ID: 1, User: "u"}, {ID: 2, User: "u"}}, Named: []string{"root.a.x", "x", "my queue"}}
	_, queue, _, err := r.LoadFair(fair)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"root.a.x", "root.b", "root.b"}; !slices.Equal(queue, want) {
		t.Errorf("placed in %q, want %q", queue, want)
	}
	if got := bundle.LogQueuesOf(mustJobs(t, "job_id,submit_time,size,queue\nj,1,1, root.a.x \n"), 0, 1); !slices.Equal(got, []string{"root.a.x"}) {
		t.Errorf("LogQueuesOf = %q, want the queue as written", got)
	}
}

// mustJobs reads a CSV log.
func mustJobs(t *testing.T, csv string) *data.Jobs {
	t.Helper()
	path := filepath.Join(t.TempDir(), "jobs.csv")
	if err := os.WriteFile(path, []byte(csv), 0o644); err != nil {
		t.Fatal(err)
	}
	j, err := data.ReadFile(path, data.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return j
}

// deployPairsOf prepares cfg's log and returns the deploy tuner's pair of
// chunk with one task seed.
func deployPairsOf(t *testing.T, cfg inputs.RunConfig, chunk tunedeploy.DeployChunk) (*inputs.Inputs, []tunedeploy.DeployPair) {
	t.Helper()
	in, err := Prepare(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cl, err := tasklevel.TaskCluster(in.Spec)
	if err != nil {
		t.Fatal(err)
	}
	pairs, err := tunedeploy.TaskPairs(in, cl, []tunedeploy.DeployChunk{chunk}, []uint64{1}, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	return in, pairs
}
