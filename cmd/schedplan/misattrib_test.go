package main

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// Errors name the flag that caused them (issue 26): a capacity at which the
// log's work takes forever was "policy ps left jobs unfinished (internal
// error)", --load 1e308 was blamed on row 1's input_bytes, and --workers -1
// was accepted.
func TestErrorsNameTheirFlag(t *testing.T) {
	for _, tc := range []struct {
		cmd  []string
		args []string
		want []string
	}{
		{[]string{"simulate"}, []string{"--capacity", "1e-320"}, []string{"--capacity 1e-320", "infinite time"}},
		{[]string{"simulate"}, []string{"--load", "1e308"}, []string{"--load", "at most 1e+06"}},
		{[]string{"simulate"}, []string{"--dn", "1e308"}, []string{"--dn", "at most 1e+06"}},
		{[]string{"simulate"}, []string{"--workers", "-1"}, []string{"--workers -1"}},
		{[]string{"sweep"}, []string{"--workers", "-1", "--out", "x.csv"}, []string{"--workers -1"}},
	} {
		out, err := runCmd(t, tc.cmd, tc.args...)
		if err == nil {
			t.Errorf("%v %v: accepted\n%s", tc.cmd, tc.args, out)
			continue
		}
		msg := cliError(err).Error()
		for _, w := range tc.want {
			if !strings.Contains(msg, w) {
				t.Errorf("%v %v: error %q lacks %q", tc.cmd, tc.args, msg, w)
			}
		}
		if strings.Contains(msg, "internal error") || strings.Contains(msg, "row 1") {
			t.Errorf("%v %v: misattributed: %q", tc.cmd, tc.args, msg)
		}
	}
}

// Counts are bounded before any work (issue 26: `classify --restarts
// 1000000000` ran until killed; 5,000 --sigmas and 2,000 --what-if had no
// work estimate).
func TestCountsBounded(t *testing.T) {
	list := func(n int, f func(i int) string) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = f(i)
		}
		return out
	}
	sigmas := strings.Join(list(5000, func(i int) string { return fmt.Sprint(float64(i) / 1000) }), ",")
	var whatIfs []string
	for i := range 2000 {
		whatIfs = append(whatIfs, "--what-if", fmt.Sprintf("R1=+%d", i%3+1))
	}
	out := t.TempDir()
	for _, tc := range []struct {
		cmd  []string
		args []string
		want []string
	}{
		{[]string{"classify"}, []string{"--restarts", "1000000000"}, []string{"--restarts 1000000000", "want 1 to 1000"}},
		{[]string{"classify"}, []string{"--k", "100000"}, []string{"--k 100000", "at most 1000"}},
		{[]string{"run"}, []string{"--sigmas", sigmas, "--out", out}, []string{"--sigmas (5000 values)", "at most 100"}},
		{[]string{"capacity"}, whatIfs, []string{"--what-if (2000 of them)", "at most 100"}},
		{[]string{"run"}, append([]string{"--out", out}, whatIfs...), []string{"--what-if (2000 of them)"}},
		{[]string{"sweep"}, []string{"--sigmas", sigmas, "--loads", sigmas, "--out", "x.csv"}, []string{"--sigmas (5000 values)", "25000000 settings"}},
	} {
		start := time.Now()
		got, err := runCmd(t, tc.cmd, tc.args...)
		if took := time.Since(start); took > 5*time.Second {
			t.Errorf("%v: took %v", tc.cmd, took)
		}
		if err == nil {
			t.Errorf("%v: accepted\n%s", tc.cmd, got)
			continue
		}
		msg := cliError(err).Error()
		for _, w := range tc.want {
			if !strings.Contains(msg, w) {
				t.Errorf("%v: error %q lacks %q", tc.cmd, msg, w)
			}
		}
	}
}
