package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/schedplan/schedplan/cluster/yarn"
)

// controllerXML is a capacity-scheduler.xml with one LAS_MQ rule:
// root.c.l0 demotes to root.c.l1 after 100 held container-seconds.
const controllerXML = `<configuration>
<property><name>yarn.scheduler.capacity.root.queues</name><value>c</value></property>
<property><name>yarn.scheduler.capacity.root.c.capacity</name><value>100</value></property>
<property><name>yarn.scheduler.capacity.root.c.queues</name><value>l0,l1</value></property>
<property><name>yarn.scheduler.capacity.root.c.l0.capacity</name><value>50</value></property>
<property><name>yarn.scheduler.capacity.root.c.l1.capacity</name><value>50</value></property>
<property><name>schedplan.las-mq.root.c.l0.demote-after-held-container-seconds</name><value>100</value></property>
</configuration>
`

// yarn-controller's flags and --once's exit status: an interval below 1 s
// and an absurd --am-mb are refused naming the flag, with the library's
// error (yarn.CheckInterval, yarn.CheckAMMB: one check each, which the
// command line used to write again); a refused move, and
// an RM that wants a user when none is given, make --once fail (the
// latter naming --user), so that a script does not read them as done.
func TestControllerCLI(t *testing.T) {
	xml := filepath.Join(t.TempDir(), "capacity-scheduler.xml")
	if err := os.WriteFile(xml, []byte(controllerXML), 0o644); err != nil {
		t.Fatal(err)
	}
	var status int // the PUTs' answer
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if status == http.StatusUnauthorized && r.URL.Query().Get("user.name") == "" {
			http.Error(w, "Authentication required", status)
			return
		}
		if r.Method == http.MethodPut {
			if status != http.StatusOK && status != http.StatusUnauthorized {
				http.Error(w, "User u does not have permission", status)
				return
			}
			_ = json.NewEncoder(w).Encode(map[string]string{"queue": "l1"})
			return
		}
		_, _ = w.Write([]byte(`{"apps":{"app":[{"id":"application_1_1","user":"u","queue":"l0","state":"RUNNING","memorySeconds":1e9}]}}`))
	}))
	defer srv.Close()
	for _, tc := range []struct {
		name   string
		status int
		args   []string
		want   string // "" succeeds
		exact  bool   // the error is want, not only contains it
	}{
		{"moved", http.StatusOK, nil, "", false},
		{"refused", http.StatusForbidden, nil, "1 of 1 moves refused", false},
		{"no user", http.StatusUnauthorized, nil, "--user: ", false},
		{"user", http.StatusUnauthorized, []string{"--user", "yarn"}, "", false},
		{"interval", http.StatusOK, []string{"--interval", "1ns"}, "--interval: " + yarn.CheckInterval(time.Nanosecond).Error(), true},
		{"am-mb", http.StatusOK, []string{"--am-mb", "999999999999"}, "--am-mb: " + yarn.CheckAMMB(999999999999).Error(), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status = tc.status
			out, err := runCmd(t, []string{"yarn-controller"}, append([]string{xml, "--rm", srv.URL, "--once"}, tc.args...)...)
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("%v\n%s", err, out)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("error %v, want one saying %q\n%s", err, tc.want, out)
			case tc.exact && err.Error() != tc.want:
				t.Errorf("error %q, want the library's %q", err, tc.want)
			}
		})
	}
}
