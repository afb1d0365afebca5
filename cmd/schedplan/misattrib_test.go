package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// cmdError is a command that must fail at once with an error holding
// every string of want.
type cmdError struct {
	cmd  []string
	args []string
	want []string
}

// checkCmdErrors runs each command and checks that it fails within 5 s
// with its error (worded for the command line) holding want, and not
// blaming an internal error.
func checkCmdErrors(t *testing.T, cases []cmdError) {
	t.Helper()
	for _, tc := range cases {
		start := time.Now()
		out, err := runCmd(t, tc.cmd, tc.args...)
		if took := time.Since(start); took > 5*time.Second {
			t.Errorf("%v %.80v: took %v", tc.cmd, tc.args, took)
		}
		if err == nil {
			t.Errorf("%v %.80v: accepted\n%s", tc.cmd, tc.args, out)
			continue
		}
		msg := cliError(err).Error()
		for _, w := range tc.want {
			if !strings.Contains(msg, w) {
				t.Errorf("%v %.80v: error %q lacks %q", tc.cmd, tc.args, msg, w)
			}
		}
		if strings.Contains(msg, "internal error") {
			t.Errorf("%v %.80v: misattributed: %q", tc.cmd, tc.args, msg)
		}
	}
}

// Errors name the flag that caused them (issue 26): a --current-config
// without a default queue was blamed on --policy capacity:file=…, a capacity at which the
// log's work takes forever was "policy ps left jobs unfinished (internal
// error)", --load 1e308 was blamed on row 1's input_bytes, and --workers -1
// was accepted.
func TestErrorsNameTheirFlag(t *testing.T) {
	noDefault := filepath.Join(t.TempDir(), "capacity-scheduler.xml")
	if err := os.WriteFile(noDefault, []byte(`<configuration>
<property><name>yarn.scheduler.capacity.root.queues</name><value>a</value></property>
<property><name>yarn.scheduler.capacity.root.a.capacity</name><value>100</value></property>
</configuration>`), 0o644); err != nil {
		t.Fatal(err)
	}
	checkCmdErrors(t, []cmdError{
		{[]string{"capacity"}, []string{"--simulate", "--current-config", noDefault}, []string{"--current-config", "user default", "unknown queue"}},
		{[]string{"simulate"}, []string{"--capacity", "1e-320"}, []string{"--capacity 1e-320", "infinite time"}},
		{[]string{"simulate"}, []string{"--load", "1e308"}, []string{"--load", "at most 1e+06"}},
		{[]string{"simulate"}, []string{"--dn", "1e308"}, []string{"--dn", "at most 1e+06"}},
		{[]string{"simulate"}, []string{"--workers", "-1"}, []string{"--workers -1"}},
		{[]string{"sweep"}, []string{"--workers", "-1", "--out", "x.csv"}, []string{"--workers -1"}},
	})
}

// Counts are bounded before any work (issue 26: `classify --restarts
// 1000000000` ran until killed; 5,000 --sigmas and 2,000 --what-if had no
// work estimate).
func TestCountsBounded(t *testing.T) {
	var sigmas []string
	for i := range 5000 {
		sigmas = append(sigmas, fmt.Sprint(float64(i)/1000))
	}
	list := strings.Join(sigmas, ",")
	var whatIfs []string
	for i := range 2000 {
		whatIfs = append(whatIfs, "--what-if", fmt.Sprintf("R1=+%d", i%3+1))
	}
	out := t.TempDir()
	checkCmdErrors(t, []cmdError{
		{[]string{"classify"}, []string{"--restarts", "1000000000"}, []string{"--restarts 1000000000", "want 1 to 1000"}},
		{[]string{"classify"}, []string{"--k", "100000"}, []string{"--k 100000", "at most 1000"}},
		{[]string{"run"}, []string{"--sigmas", list, "--out", out}, []string{"--sigmas (5000 values)", "at most 100"}},
		{[]string{"capacity"}, whatIfs, []string{"--what-if (2000 of them)", "at most 100"}},
		{[]string{"run"}, append([]string{"--out", out}, whatIfs...), []string{"--what-if (2000 of them)"}},
		{[]string{"sweep"}, []string{"--sigmas", list, "--loads", list, "--out", "x.csv"}, []string{"--sigmas (5000 values)", "25000000 settings"}},
	})
}
