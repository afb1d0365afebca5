package pipeline

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/inputs"
)

// writeUserLog writes a CSV log whose jobs cycle through users and returns
// its path.
func writeUserLog(t *testing.T, users ...string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("job_id,submit_time,user,size\n")
	for i := range 200 {
		fmt.Fprintf(&b, "j%d,%d,%s,%d\n", i, 10*i, users[i%len(users)], 1+i%7)
	}
	p := filepath.Join(t.TempDir(), "log.csv")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// User names the emitted fair-scheduler.xml cannot carry are refused by
// Prepare, before the first stage, naming the log, a job and the names
// (issue 26: they passed ingest and describe and failed at the emit
// stage, 120 s into one log).
func TestPrepareRefusesUnusableUserNames(t *testing.T) {
	for _, tc := range []struct {
		name  string
		users []string
		want  []string
	}{
		{"collide after cleaning", []string{"alice", "a.b", "a_dot_b"}, []string{"column \"user\"", `"a.b" (job j1)`, `"a_dot_b" (job j2)`, "root.a_dot_b"}},
		{"whitespace only", []string{"alice", `" "`}, []string{"column \"user\"", `user " "`, "job j1", "no usable queue name"}},
		{"control character", []string{"alice", "x\x01y"}, []string{`"x\x01y"`, "job j1"}},
		{"collide by trimming", []string{"bob", `" bob"`}, []string{`"bob" (job j0)`, `" bob" (job j1)`, "root.bob"}},
	} {
		cfg := inputs.DefaultRunConfig()
		cfg.Trace = writeUserLog(t, tc.users...)
		_, err := Prepare(cfg)
		if err == nil {
			t.Errorf("%s: accepted", tc.name)
			continue
		}
		for _, w := range append(tc.want, cfg.Trace) {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q lacks %q", tc.name, err, w)
			}
		}
	}
	// Distinct names that stay distinct pass.
	cfg := inputs.DefaultRunConfig()
	cfg.Trace = writeUserLog(t, "alice", "a.b", "a_b")
	cfg.NoLimits = true
	if _, err := Prepare(cfg); err != nil {
		t.Errorf("alice, a.b, a_b: %v", err)
	}
}

// A cluster spec user whose name collides with a user of the log is an
// error of --cluster.
func TestPrepareRefusesSpecUserCollision(t *testing.T) {
	dir := t.TempDir()
	spec := filepath.Join(dir, "cluster.yaml")
	if err := os.WriteFile(spec, []byte("version: 1\nresources:\n  - {name: a, count: 4, slots: 4, exec_rate: 1}\nusers:\n  - {name: a_dot_b, min_share: 2}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := inputs.DefaultRunConfig()
	cfg.Trace = writeUserLog(t, "alice", "a.b")
	cfg.Cluster = spec
	_, err := Prepare(cfg)
	var pe *experiment.ParamError
	if !errors.As(err, &pe) || pe.Param != "cluster" || !strings.Contains(err.Error(), "users[0]") || !strings.Contains(err.Error(), "root.a_dot_b") {
		t.Errorf("spec user a_dot_b beside log user a.b: %v, want a --cluster error naming users[0] and the queue", err)
	}
}

// A --current-config that refuses the log's users (no default queue) is an
// error of --current-config from Prepare, not of --policy capacity:file=…
// from the validate stage (issue 26).
func TestPrepareCurrentConfigWithoutDefaultQueue(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ name, body string }{
		{"capacity-scheduler.xml", `<configuration>
<property><name>yarn.scheduler.capacity.root.queues</name><value>a,b</value></property>
<property><name>yarn.scheduler.capacity.root.a.capacity</name><value>50</value></property>
<property><name>yarn.scheduler.capacity.root.b.capacity</name><value>50</value></property>
</configuration>`},
		{"fair-scheduler.xml", `<allocations>
<queue name="a"/>
<queuePlacementPolicy><rule name="specified"/><rule name="reject"/></queuePlacementPolicy>
</allocations>`},
	} {
		p := filepath.Join(dir, tc.name)
		if err := os.WriteFile(p, []byte(tc.body), 0o644); err != nil {
			t.Fatal(err)
		}
		cfg := inputs.DefaultRunConfig()
		cfg.CurrentConfig = p
		_, err := Prepare(cfg)
		var pe *experiment.ParamError
		if !errors.As(err, &pe) || pe.Param != "current-config" || !strings.Contains(err.Error(), "user default") {
			t.Errorf("%s: %v, want a --current-config error naming the user", tc.name, err)
		}
	}
}

// A fair-scheduler.xml with <weight>NaN</weight> as --current-config is
// refused by Prepare, not by the validate stage (issue 26).
func TestPrepareCurrentConfigNaNWeight(t *testing.T) {
	p := filepath.Join(t.TempDir(), "fair-scheduler.xml")
	body := `<allocations><queue name="default"><weight>NaN</weight></queue><queue name="b"/></allocations>`
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := inputs.DefaultRunConfig()
	cfg.CurrentConfig = p
	_, err := Prepare(cfg)
	var pe *experiment.ParamError
	if !errors.As(err, &pe) || pe.Param != "current-config" || !strings.Contains(err.Error(), "root.default") || !strings.Contains(err.Error(), "NaN") {
		t.Errorf("NaN weight: %v, want a --current-config error naming the queue and the value", err)
	}
}

// describe says when the log's user names would stop run (issue 26: they
// passed describe and failed at the emit stage).
func TestDescribeFlagsUserNames(t *testing.T) {
	opt := inputs.DefaultRunConfig().Sizes
	w, err := inputs.DescribeLog(inputs.InputOptions{Trace: writeUserLog(t, "alice", "a.b", "a_dot_b")}, opt)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(w.UserNames, "root.a_dot_b") || !strings.Contains(w.UserNames, "run refuses") {
		t.Errorf("colliding names: %q", w.UserNames)
	}
	var b strings.Builder
	w.WriteText(&b, 10)
	if !strings.Contains(b.String(), "user names") {
		t.Errorf("describe's text lacks the user names line:\n%s", b.String())
	}
	if w, err := inputs.DescribeLog(inputs.InputOptions{Trace: writeUserLog(t, "alice", "a.b", "a_b")}, opt); err != nil || w.UserNames != "" {
		t.Errorf("distinct names: %q, %v", w.UserNames, err)
	}
}
