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
	"time"
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

// fakeRM serves the two ResourceManager REST calls the controller makes,
// on loopback. Its list is served as given (body, when set, verbatim):
// the controller must not trust it.
type fakeRM struct {
	mu     sync.Mutex
	apps   []RMApp
	body   string          // when set, the list's JSON as is
	denied map[string]bool // ids whose moves get 403
	// wantUser: requests without user.name get 401 (an RM with simple
	// authentication that refuses anonymous callers).
	wantUser bool
	puts     []string // "app→queue"
	paths    []string // the PUTs' escaped paths
	gets     int
	user     string // user.name of the last request
}

func (f *fakeRM) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.user = r.URL.Query().Get("user.name")
	if f.wantUser && f.user == "" {
		http.Error(w, `{"RemoteException":{"message":"Authentication required"}}`, http.StatusUnauthorized)
		return
	}
	switch {
	case r.Method == http.MethodGet && r.URL.Path == "/ws/v1/cluster/apps":
		f.gets++
		if r.URL.Query().Get("states") != "RUNNING" {
			http.Error(w, "want states=RUNNING", http.StatusBadRequest)
			return
		}
		if f.body != "" {
			_, _ = w.Write([]byte(f.body))
			return
		}
		var body any = map[string]any{"apps": nil}
		if len(f.apps) > 0 {
			body = map[string]any{"apps": map[string]any{"app": f.apps}}
		}
		_ = json.NewEncoder(w).Encode(body)
	case r.Method == http.MethodPut && strings.HasSuffix(r.URL.Path, "/queue"):
		f.paths = append(f.paths, r.URL.EscapedPath())
		id := strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/ws/v1/cluster/apps/"), "/queue")
		var req struct{ Queue string }
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		f.puts = append(f.puts, id+"→"+req.Queue)
		if f.denied[id] {
			http.Error(w, `{"RemoteException":{"message":"User anonymous does not have permission"}}`, http.StatusForbidden)
			return
		}
		for i := range f.apps {
			if f.apps[i].ID == id {
				f.apps[i].Queue = req.Queue
			}
		}
		_ = json.NewEncoder(w).Encode(req)
	default:
		http.NotFound(w, r)
	}
}

// fakeController serves h on loopback and returns a controller of cs on
// it (opt.RM is the server's address).
func fakeController(t *testing.T, cs *CapacityScheduler, h http.Handler, opt ControllerOptions) *Controller {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	opt.RM = srv.URL
	c, err := NewController(cs, opt)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// running is a RUNNING application of the fake RM.
func running(id, queue string, memorySeconds float64) RMApp {
	return RMApp{ID: id, User: "u", Queue: queue, State: "RUNNING", MemorySeconds: memorySeconds}
}

func TestControllerDemotes(t *testing.T) {
	cs, err := ParseCapacityScheduler(lasmqFile(map[string]string{"root.c.c_l0": "100", "root.c.c_l1": "1000"}))
	if err != nil {
		t.Fatal(err)
	}
	const mb = 2048
	rm := &fakeRM{apps: []RMApp{
		running("application_1_1", "c_l0", 99*mb),          // below
		running("application_1_2", "c_l0", 150*mb),         // once
		running("application_1_3", "root.c.c_l0", 5000*mb), // twice; 3.x reports paths
		running("application_1_4", "c_l2", 1e6*mb),         // last level
		running("application_1_5", "default", 1e6*mb),      // no rule
		running("application_1_6", "c_l1", 1000*mb),        // denied
	}, denied: map[string]bool{"application_1_6": true}}
	srv := httptest.NewServer(rm)
	defer srv.Close()

	dry, err := NewController(cs, ControllerOptions{RM: srv.URL, ContainerMB: mb, DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	p, err := dry.Step(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Moves) != 3 || len(rm.puts) != 0 {
		t.Fatalf("dry run: %d moves %+v and %d PUTs, want 3 moves and no PUT", len(p.Moves), p.Moves, len(rm.puts))
	}

	c, err := NewController(cs, ControllerOptions{RM: srv.URL, ContainerMB: mb, User: "yarnadmin"})
	if err != nil {
		t.Fatal(err)
	}
	p, err = c.Step(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Move{}
	for _, m := range p.Moves {
		got[m.App] = m
	}
	want := map[string]string{"application_1_2": "root.c.c_l1", "application_1_3": "root.c.c_l2", "application_1_6": "root.c.c_l2"}
	for app, to := range want {
		if got[app].To != to {
			t.Errorf("%s moved to %q, want %q", app, got[app].To, to)
		}
	}
	if len(p.Moves) != len(want) {
		t.Errorf("moves %+v, want exactly %v", p.Moves, want)
	}
	if m := got["application_1_6"]; m.Status != 403 || !strings.Contains(m.Err, "403") || !strings.Contains(m.Err, "permission") {
		t.Errorf("a refused move reports %q (status %d), want the RM's status and message", m.Err, m.Status)
	}
	// The target in the form the RM reported: a short name to a 2.x RM, the
	// full path to a 3.x one.
	if !slices.Equal(rm.puts, []string{"application_1_2→c_l1", "application_1_3→root.c.c_l2", "application_1_6→c_l2"}) {
		t.Errorf("PUTs %v", rm.puts)
	}
	if rm.user != "yarnadmin" {
		t.Errorf("user.name %q, want yarnadmin", rm.user)
	}
	// The moved applications are where they belong, and the refused move
	// waits one poll before its retry.
	p, err = c.Step(context.Background())
	if err != nil || len(p.Moves) != 0 || p.Deferred != 1 {
		t.Errorf("second poll: %+v, %v; want no move and the refused one deferred", p, err)
	}
	p, err = c.Step(context.Background())
	if err != nil || len(p.Moves) != 1 || p.Moves[0].App != "application_1_6" {
		t.Errorf("third poll: %+v, %v; want the refused move retried", p, err)
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

// The RM's list is not trusted: each record is checked on its own. A
// usage that is no finite number ≥ 0 (a bare NaN token, 1e400, a string), an
// empty or malformed id, a FINISHED or KILLED application and a second
// listing of an id cost that record only; the others are moved, each once,
// with its id escaped once.
func TestControllerUntrustedList(t *testing.T) {
	cs, err := ParseCapacityScheduler(lasmqFile(map[string]string{"root.c.c_l0": "100"}))
	if err != nil {
		t.Fatal(err)
	}
	rm := &fakeRM{body: `{"apps":{"app":[
		{"id":"application_1_1","queue":"c_l0","state":"RUNNING","memorySeconds":204800.0},
		{"id":"application_1_2","queue":"c_l0","state":"RUNNING","memorySeconds":1e20},
		{"id":"application_1_1","queue":"c_l0","state":"RUNNING","memorySeconds":204800},
		{"id":"application_1_1","queue":"c_l0","state":"RUNNING","memorySeconds":204800},
		{"id":"application_1_3","queue":"c_l0","state":"RUNNING","memorySeconds":NaN},
		{"id":"application_1_4","queue":"c_l0","state":"RUNNING","memorySeconds":1e400},
		{"id":"application_1_5","queue":"c_l0","state":"RUNNING","memorySeconds":"lots"},
		{"id":"application_1_6","queue":"c_l0","state":"RUNNING","memorySeconds":-5},
		{"id":"application_1_7","queue":"c_l0","state":"RUNNING"},
		{"id":"","queue":"c_l0","state":"RUNNING","memorySeconds":1e9},
		{"id":"application_1_8/../x y","queue":"c_l0","state":"RUNNING","memorySeconds":1e9},
		{"id":"application_1_9","queue":"c_l0","state":"FINISHED","memorySeconds":1e9},
		{"id":"application_1_10","queue":"c_l0","state":"KILLED","memorySeconds":1e9},
		{"id":12,"queue":"c_l0","state":"RUNNING","memorySeconds":1e9},
		{"id":"application_1_11","queue":"c_l0","state":"RUNNING","memorySeconds":1e9,"elapsedTime":-Infinity,"note":"NaN in a string"}]}}`}
	c := fakeController(t, cs, rm, ControllerOptions{})
	p, err := c.Step(context.Background())
	if err != nil {
		t.Fatalf("one bad record failed the poll: %v", err)
	}
	if want := []string{"application_1_1→c_l1", "application_1_2→c_l1"}; !slices.Equal(rm.puts, want) {
		t.Errorf("PUTs %v, want %v", rm.puts, want)
	}
	if want := []string{"/ws/v1/cluster/apps/application_1_1/queue", "/ws/v1/cluster/apps/application_1_2/queue"}; !slices.Equal(rm.paths, want) {
		t.Errorf("PUT paths %v, want %v", rm.paths, want)
	}
	why := map[string]string{}
	for _, s := range p.Skipped {
		why[s.App] += s.Reason + ";"
	}
	for app, want := range map[string]string{
		"application_1_1":  "listed again",
		"application_1_3":  "memorySeconds null",
		"application_1_4":  "memorySeconds 1e400",
		"application_1_5":  `memorySeconds "lots"`,
		"application_1_6":  "memorySeconds -5",
		"application_1_7":  "no memorySeconds",
		"":                 `id ""`,
		"application_1_9":  "state FINISHED",
		"application_1_10": "state KILLED",
		"application_1_11": "elapsedTime null",
	} {
		if !strings.Contains(why[app], want) {
			t.Errorf("%q skipped for %q, want a reason saying %q", app, why[app], want)
		}
	}
	if !strings.Contains(why[""], "record 14") || !strings.Contains(why["application_1_8/../x y"], "not a YARN application id") {
		t.Errorf("skips %+v: want the numeric id's record and the malformed id named", p.Skipped)
	}
	if strings.Count(why["application_1_1"], "listed again") != 2 {
		t.Errorf("application_1_1: %q, want its two extra listings skipped", why["application_1_1"])
	}
}

// Rules are keyed by full queue path: two leaves named l0 under a and b
// have their own thresholds, and an application an RM reports by the
// shared short name is skipped, not moved by the other leaf's rule.
func TestControllerShortNameCollision(t *testing.T) {
	var b strings.Builder
	b.WriteString("<configuration>\n")
	for k, v := range map[string]string{
		CSPrefix + "root.queues": "a,b", CSPrefix + "root.a.capacity": "50", CSPrefix + "root.b.capacity": "50",
		CSPrefix + "root.a.queues": "l0,l1", CSPrefix + "root.b.queues": "l0,l1",
		CSPrefix + "root.a.l0.capacity": "50", CSPrefix + "root.a.l1.capacity": "50",
		CSPrefix + "root.b.l0.capacity": "50", CSPrefix + "root.b.l1.capacity": "50",
		DemoteAfterKey("root.a.l0"): "100", DemoteAfterKey("root.b.l0"): "1000000",
	} {
		fmt.Fprintf(&b, "<property><name>%s</name><value>%s</value></property>\n", k, v)
	}
	b.WriteString("</configuration>\n")
	cs, err := ParseCapacityScheduler([]byte(b.String()))
	if err != nil {
		t.Fatal(err)
	}
	rm := &fakeRM{apps: []RMApp{
		running("application_1_1", "root.b.l0", 1000*1024), // below b.l0's threshold, above a.l0's
		running("application_1_2", "root.a.l0", 1000*1024),
		running("application_1_3", "l0", 1000*1024), // which l0?
	}}
	c := fakeController(t, cs, rm, ControllerOptions{})
	p, err := c.Step(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"application_1_2→root.a.l1"}; !slices.Equal(rm.puts, want) {
		t.Errorf("PUTs %v, want %v", rm.puts, want)
	}
	if len(p.Skipped) != 1 || p.Skipped[0].App != "application_1_3" || !strings.Contains(p.Skipped[0].Reason, "ambiguous") {
		t.Errorf("skipped %+v, want application_1_3's ambiguous short name", p.Skipped)
	}
}

// A storm of refusals (403 on every move) is backed off: each refused
// application is retried after 1, 3, 7, … polls, not at every poll, and
// Run's wait doubles up to MaxBackoff.
func TestController403Storm(t *testing.T) {
	cs, err := ParseCapacityScheduler(lasmqFile(map[string]string{"root.c.c_l0": "100"}))
	if err != nil {
		t.Fatal(err)
	}
	rm := &fakeRM{denied: map[string]bool{}}
	for i := range 5 {
		id := fmt.Sprintf("application_1_%d", i)
		rm.apps = append(rm.apps, running(id, "c_l0", 1e9))
		rm.denied[id] = true
	}
	c := fakeController(t, cs, rm, ControllerOptions{User: "u"})
	var tried []int // the polls that tried moves
	for poll := 1; poll <= 10; poll++ {
		p, err := c.Step(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if len(p.Moves) > 0 {
			if p.Refused() != 5 || len(p.Moves) != 5 {
				t.Fatalf("poll %d: %d moves, %d refused; want 5 refused", poll, len(p.Moves), p.Refused())
			}
			tried = append(tried, poll)
		} else if p.Deferred != 5 {
			t.Errorf("poll %d: %d deferred, want 5", poll, p.Deferred)
		}
	}
	if want := []int{1, 3, 7}; !slices.Equal(tried, want) || len(rm.puts) != 15 {
		t.Errorf("moves tried at polls %v (%d PUTs), want %v (15)", tried, len(rm.puts), want)
	}
	for _, tc := range []struct {
		interval time.Duration
		bad      int
		want     time.Duration
	}{
		{5 * time.Second, 0, 5 * time.Second},
		{5 * time.Second, 1, 10 * time.Second},
		{5 * time.Second, 3, 40 * time.Second},
		{5 * time.Second, 100, MaxBackoff},
		{time.Hour, 2, time.Hour},
	} {
		if got := Backoff(tc.interval, tc.bad); got != tc.want {
			t.Errorf("Backoff(%v, %d) = %v, want %v", tc.interval, tc.bad, got, tc.want)
		}
	}
}

// An RM that wants an authenticated caller (401) stops the controller with
// ErrUnauthenticated, whether it refuses the listing or the move: no later
// poll would do better.
func TestController401(t *testing.T) {
	cs, err := ParseCapacityScheduler(lasmqFile(map[string]string{"root.c.c_l0": "100"}))
	if err != nil {
		t.Fatal(err)
	}
	rm := &fakeRM{wantUser: true, apps: []RMApp{running("application_1_1", "c_l0", 1e9)}}
	c := fakeController(t, cs, rm, ControllerOptions{})
	if _, err := c.Step(context.Background()); !errors.Is(err, ErrUnauthenticated) {
		t.Errorf("listing refused with 401: %v, want ErrUnauthenticated", err)
	}
	polls := 0
	err = c.Run(context.Background(), MinInterval, func(Poll, error) { polls++ })
	if !errors.Is(err, ErrUnauthenticated) || polls != 1 {
		t.Errorf("Run: %v after %d polls, want ErrUnauthenticated after 1", err, polls)
	}

	// The listing is open, the move wants a user.
	moveRM := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPut {
			http.Error(w, "Authentication required", http.StatusUnauthorized)
			return
		}
		rm.ServeHTTP(w, r.WithContext(r.Context()))
	})
	rm.wantUser = false
	c = fakeController(t, cs, moveRM, ControllerOptions{})
	p, err := c.Step(context.Background())
	if !errors.Is(err, ErrUnauthenticated) || p.Refused() != 1 || p.Moves[0].Status != http.StatusUnauthorized {
		t.Errorf("move refused with 401: %+v, %v; want the refused move and ErrUnauthenticated", p, err)
	}
}

// Run refuses an interval below MinInterval before it polls.
func TestControllerRunInterval(t *testing.T) {
	cs, err := ParseCapacityScheduler(lasmqFile(map[string]string{"root.c.c_l0": "100"}))
	if err != nil {
		t.Fatal(err)
	}
	rm := &fakeRM{}
	c := fakeController(t, cs, rm, ControllerOptions{})
	for _, d := range []time.Duration{time.Nanosecond, 999 * time.Millisecond, 0, -time.Second} {
		if err := c.Run(context.Background(), d, func(Poll, error) {}); !errors.Is(err, ErrInterval) {
			t.Errorf("interval %v: %v, want ErrInterval", d, err)
		}
	}
	if rm.gets != 0 {
		t.Errorf("%d polls made with a refused interval", rm.gets)
	}
	if _, err := NewController(cs, ControllerOptions{RM: "http://rm:8088", AMMB: 999999999999}); !errors.Is(err, ErrAMMB) {
		t.Errorf("AM memory 999999999999 MB: %v, want ErrAMMB", err)
	}
}

// A dry run's moves say so (the --json lines would otherwise read as made).
func TestControllerDryRunMovesSaySo(t *testing.T) {
	cs, err := ParseCapacityScheduler(lasmqFile(map[string]string{"root.c.c_l0": "100"}))
	if err != nil {
		t.Fatal(err)
	}
	rm := &fakeRM{apps: []RMApp{running("application_1_1", "c_l0", 1e9)}}
	srv := httptest.NewServer(rm)
	defer srv.Close()
	for _, dry := range []bool{true, false} {
		c, err := NewController(cs, ControllerOptions{RM: srv.URL, DryRun: dry})
		if err != nil {
			t.Fatal(err)
		}
		p, err := c.Step(context.Background())
		if err != nil || len(p.Moves) != 1 {
			t.Fatalf("dry %v: %+v, %v", dry, p, err)
		}
		b, _ := json.Marshal(p.Moves[0])
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
