package yarn

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
)

// lasmqFile is a capacity-scheduler.xml with one class queue c of three
// LAS_MQ levels and the given demotion properties (path → value).
func lasmqFile(demote map[string]string) []byte {
	var b strings.Builder
	b.WriteString("<configuration>\n")
	prop := func(k, v string) {
		fmt.Fprintf(&b, "<property><name>%s</name><value>%s</value></property>\n", k, v)
	}
	prop(CSPrefix+"root.queues", "c,default")
	prop(CSPrefix+"root.c.capacity", "90")
	prop(CSPrefix+"root.default.capacity", "10")
	prop(CSPrefix+"root.c.queues", "c_l0,c_l1,c_l2")
	prop(CSPrefix+"root.c.c_l0.capacity", "50")
	prop(CSPrefix+"root.c.c_l1.capacity", "30")
	prop(CSPrefix+"root.c.c_l2.capacity", "20")
	for _, k := range slices.Sorted(func(yield func(string) bool) {
		for k := range demote {
			if !yield(k) {
				return
			}
		}
	}) {
		prop(DemoteAfterKey(k), demote[k])
	}
	b.WriteString("</configuration>\n")
	return []byte(b.String())
}

// fakeRM serves the two ResourceManager REST calls the controller makes.
type fakeRM struct {
	mu   sync.Mutex
	apps []RMApp
	puts []string // "app→queue"
	user string   // user.name of the last request
}

func (f *fakeRM) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.user = r.URL.Query().Get("user.name")
	switch {
	case r.Method == http.MethodGet && r.URL.Path == "/ws/v1/cluster/apps":
		if r.URL.Query().Get("states") != "RUNNING,ACCEPTED" {
			http.Error(w, "want states=RUNNING,ACCEPTED", http.StatusBadRequest)
			return
		}
		var body any = map[string]any{"apps": nil}
		if len(f.apps) > 0 {
			body = map[string]any{"apps": map[string]any{"app": f.apps}}
		}
		_ = json.NewEncoder(w).Encode(body)
	case r.Method == http.MethodPut && strings.HasSuffix(r.URL.Path, "/queue"):
		id := strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/ws/v1/cluster/apps/"), "/queue")
		var req struct{ Queue string }
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		if id == "application_denied" {
			http.Error(w, `{"RemoteException":{"message":"User anonymous does not have permission"}}`, http.StatusForbidden)
			return
		}
		for i := range f.apps {
			if f.apps[i].ID == id {
				f.apps[i].Queue = req.Queue
			}
		}
		f.puts = append(f.puts, id+"→"+req.Queue)
		_ = json.NewEncoder(w).Encode(req)
	default:
		http.NotFound(w, r)
	}
}

func TestControllerDemotes(t *testing.T) {
	cs, err := ParseCapacityScheduler(lasmqFile(map[string]string{"root.c.c_l0": "100", "root.c.c_l1": "1000"}))
	if err != nil {
		t.Fatal(err)
	}
	const mb = 2048
	rm := &fakeRM{apps: []RMApp{
		{ID: "application_below", User: "u", Queue: "c_l0", MemorySeconds: 99 * mb},
		{ID: "application_once", User: "u", Queue: "c_l0", MemorySeconds: 150 * mb},
		{ID: "application_twice", User: "u", Queue: "root.c.c_l0", MemorySeconds: 5000 * mb}, // 3.x reports paths
		{ID: "application_last", User: "u", Queue: "c_l2", MemorySeconds: 1e6 * mb},
		{ID: "application_other", User: "u", Queue: "default", MemorySeconds: 1e6 * mb},
		{ID: "application_denied", User: "v", Queue: "c_l1", MemorySeconds: 1000 * mb},
	}}
	srv := httptest.NewServer(rm)
	defer srv.Close()

	dry, err := NewController(cs, ControllerOptions{RM: srv.URL, ContainerMB: mb, DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	moves, err := dry.Step(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(moves) != 3 || len(rm.puts) != 0 {
		t.Fatalf("dry run: %d moves %+v and %d PUTs, want 3 moves and no PUT", len(moves), moves, len(rm.puts))
	}

	c, err := NewController(cs, ControllerOptions{RM: srv.URL, ContainerMB: mb, User: "yarnadmin"})
	if err != nil {
		t.Fatal(err)
	}
	moves, err = c.Step(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Move{}
	for _, m := range moves {
		got[m.App] = m
	}
	want := map[string]string{"application_once": "root.c.c_l1", "application_twice": "root.c.c_l2", "application_denied": "root.c.c_l2"}
	for app, to := range want {
		if got[app].To != to {
			t.Errorf("%s moved to %q, want %q", app, got[app].To, to)
		}
	}
	if len(moves) != len(want) {
		t.Errorf("moves %+v, want exactly %v", moves, want)
	}
	if e := got["application_denied"].Err; !strings.Contains(e, "403") || !strings.Contains(e, "permission") {
		t.Errorf("a refused move reports %q, want the RM's status and message", e)
	}
	if !slices.Equal(rm.puts, []string{"application_once→c_l1", "application_twice→c_l2"}) {
		t.Errorf("PUTs %v: want moves by short leaf name", rm.puts)
	}
	if rm.user != "yarnadmin" {
		t.Errorf("user.name %q, want yarnadmin", rm.user)
	}
	// The moved applications are where they belong: a second poll only
	// retries the refused move.
	moves, err = c.Step(context.Background())
	if err != nil || len(moves) != 1 || moves[0].App != "application_denied" {
		t.Errorf("second poll: %+v, %v; want only the refused move again", moves, err)
	}
}

func TestControllerRejects(t *testing.T) {
	for _, tc := range []struct {
		name   string
		demote map[string]string
		rm     string
		want   string
	}{
		{"no rule", nil, "http://rm:8088", "nothing to control"},
		{"last level", map[string]string{"root.c.c_l2": "5"}, "http://rm:8088", "no next sibling"},
		{"parent", map[string]string{"root.c": "5"}, "http://rm:8088", "not a leaf"},
		{"not a number", map[string]string{"root.c.c_l0": "soon"}, "http://rm:8088", "positive number"},
		{"infinite", map[string]string{"root.c.c_l0": "+Inf"}, "http://rm:8088", "positive number"},
		{"address", map[string]string{"root.c.c_l0": "5"}, "rm:8088", "http://host:port"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cs, err := ParseCapacityScheduler(lasmqFile(tc.demote))
			if err != nil {
				t.Fatal(err)
			}
			_, err = NewController(cs, ControllerOptions{RM: tc.rm})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one saying %q", err, tc.want)
			}
		})
	}
}

func TestControllerPollErrors(t *testing.T) {
	cs, err := ParseCapacityScheduler(lasmqFile(map[string]string{"root.c.c_l0": "100"}))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		handler http.HandlerFunc
		want    string
	}{
		{"standby RM", func(w http.ResponseWriter, r *http.Request) {
			http.Error(w, "This is standby RM", http.StatusServiceUnavailable)
		}, "503"},
		{"not JSON", func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte("<html>")) }, "not the RM's JSON"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(tc.handler)
			defer srv.Close()
			c, err := NewController(cs, ControllerOptions{RM: srv.URL})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := c.Step(context.Background()); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one saying %q", err, tc.want)
			}
		})
	}
}

// memorySeconds is a number: one written as a float, or beyond int64 (a
// proxy's rewrite, a counter gone wild), does not make the whole poll fail
// and so block every other application's demotion.
func TestControllerNumbersAnyForm(t *testing.T) {
	cs, err := ParseCapacityScheduler(lasmqFile(map[string]string{"root.c.c_l0": "100"}))
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`{"apps":{"app":[
			{"id":"application_float","queue":"c_l0","memorySeconds":204800.0,"vcoreSeconds":3.0},
			{"id":"application_huge","queue":"c_l0","memorySeconds":1e20},
			{"id":"application_negative","queue":"c_l0","memorySeconds":-5}]}}`))
	}))
	defer srv.Close()
	c, err := NewController(cs, ControllerOptions{RM: srv.URL, DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	moves, err := c.Step(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range moves {
		got = append(got, m.App+"→"+m.To)
	}
	if want := []string{"application_float→root.c.c_l1", "application_huge→root.c.c_l1"}; !slices.Equal(got, want) {
		t.Errorf("moves %v, want %v", got, want)
	}
}

// A dry run's moves say so (the --json lines would otherwise read as made).
func TestControllerDryRunMovesSaySo(t *testing.T) {
	cs, err := ParseCapacityScheduler(lasmqFile(map[string]string{"root.c.c_l0": "100"}))
	if err != nil {
		t.Fatal(err)
	}
	rm := &fakeRM{apps: []RMApp{{ID: "application_1", Queue: "c_l0", MemorySeconds: 1e9}}}
	srv := httptest.NewServer(rm)
	defer srv.Close()
	for _, dry := range []bool{true, false} {
		c, err := NewController(cs, ControllerOptions{RM: srv.URL, DryRun: dry})
		if err != nil {
			t.Fatal(err)
		}
		moves, err := c.Step(context.Background())
		if err != nil || len(moves) != 1 {
			t.Fatalf("dry %v: %+v, %v", dry, moves, err)
		}
		b, _ := json.Marshal(moves[0])
		if got := strings.Contains(string(b), `"dry_run":true`); got != dry {
			t.Errorf("dry run %v: JSON %s", dry, b)
		}
	}
}

// A file with the threshold property schedplan wrote before the thresholds
// were converted to held time (reference-container-seconds of work, which
// the controller cannot convert) is refused with the way out, not applied
// in the wrong unit; the property's name says its unit.
func TestControllerRefusesWorkUnitThresholds(t *testing.T) {
	if k := DemoteAfterKey("root.c.c_l0"); k != "schedplan.las-mq.root.c.c_l0.demote-after-held-container-seconds" {
		t.Errorf("DemoteAfterKey = %s", k)
	}
	b := strings.Replace(string(lasmqFile(map[string]string{"root.c.c_l1": "500"})), "</configuration>",
		"<property><name>schedplan.las-mq.root.c.c_l0.demote-after-container-seconds</name><value>100</value></property>\n</configuration>", 1)
	cs, err := ParseCapacityScheduler([]byte(b))
	if err != nil {
		t.Fatal(err)
	}
	_, err = NewController(cs, ControllerOptions{RM: "http://rm:8088"})
	if err == nil || !strings.Contains(err.Error(), "demote-after-container-seconds") || !strings.Contains(err.Error(), "emit the file again") {
		t.Errorf("error %v, want the old property refused with the way out", err)
	}
}

// The container size a file's thresholds assume (ContainerMBKey) is the
// controller's default, and a different one asked for is refused: it
// would scale every threshold silently.
func TestControllerContainerMBFromFile(t *testing.T) {
	withMB := func(v string) *CapacityScheduler {
		b := strings.Replace(string(lasmqFile(map[string]string{"root.c.c_l0": "100"})), "</configuration>",
			"<property><name>"+ContainerMBKey+"</name><value>"+v+"</value></property>\n</configuration>", 1)
		cs, err := ParseCapacityScheduler([]byte(b))
		if err != nil {
			t.Fatal(err)
		}
		return cs
	}
	for _, tc := range []struct {
		cs   *CapacityScheduler
		ask  float64
		want float64 // 0: refused
	}{
		{withMB("2048"), 0, 2048},
		{withMB("2048"), 2048, 2048},
		{withMB("2048"), 1024, 0},
		{withMB("-1"), 0, 0},
	} {
		c, err := NewController(tc.cs, ControllerOptions{RM: "http://rm:8088", ContainerMB: tc.ask})
		switch {
		case tc.want == 0 && err == nil:
			t.Errorf("file %v, asked %v MB: accepted, want refused", tc.cs.Values[ContainerMBKey], tc.ask)
		case tc.want > 0 && (err != nil || c.opt.ContainerMB != tc.want):
			t.Errorf("file %v, asked %v MB: %v, %v; want %v MB", tc.cs.Values[ContainerMBKey], tc.ask, c, err, tc.want)
		}
	}
	cs, err := ParseCapacityScheduler(lasmqFile(map[string]string{"root.c.c_l0": "100"}))
	if err != nil {
		t.Fatal(err)
	}
	if c, err := NewController(cs, ControllerOptions{RM: "http://rm:8088"}); err != nil || c.opt.ContainerMB != 1024 {
		t.Errorf("no size in the file: %v MB, %v; want the default 1024", c.opt.ContainerMB, err)
	}
}

// Attained service without the ApplicationMaster, by hand: 10 s elapsed,
// the AM launched 2 s after the start (Hadoop 3 reports launchTime), a
// 2,048 MB AM: 8 s × 2,048 MB of the memorySeconds are the AM's. Without
// launchTime the whole elapsed time counts (an upper bound); the result
// never goes below 0.
func TestRMAppAttainedWithoutAM(t *testing.T) {
	a := RMApp{MemorySeconds: 100*1024 + 8*2048, StartedTime: 1e12, LaunchTime: 1e12 + 2000, ElapsedTime: 10000}
	for _, tc := range []struct {
		app        RMApp
		amMB, want float64
	}{
		{a, 0, (100*1024 + 8*2048) / 1024.0},
		{a, 2048, 100},
		{RMApp{MemorySeconds: 100*1024 + 10*2048, StartedTime: 1e12, ElapsedTime: 10000}, 2048, 100},
		{RMApp{MemorySeconds: 1024, ElapsedTime: 10000}, 2048, 0},
	} {
		if got := tc.app.Attained(1024, tc.amMB); math.Abs(got-tc.want) > 1e-9 {
			t.Errorf("%+v, AM %v MB: attained %v held container-s, want %v", tc.app, tc.amMB, got, tc.want)
		}
	}
	cs, err := ParseCapacityScheduler(lasmqFile(map[string]string{"root.c.c_l0": "100"}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewController(cs, ControllerOptions{RM: "http://rm:8088", AMMB: -1}); !errors.Is(err, ErrAMMB) {
		t.Errorf("AM memory −1 MB: %v, want ErrAMMB", err)
	}
}
