package spark

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedplan/schedplan/data"
)

// sparkAttemptLog returns the synthetic Spark 3 log as attempt n of YARN
// application app, its times shifted by shift ms.
func sparkAttemptLog(t *testing.T, app, attempt string, shift int64) []byte {
	raw, err := os.ReadFile(sparkSynthetic)
	if err != nil {
		t.Fatal(err)
	}
	s := strings.ReplaceAll(string(raw), `"App ID":"app-20240102030405-0001"`, `"App ID":"`+app+`","App Attempt ID":"`+attempt+`"`)
	for _, ts := range []string{"1704164645000", "1704164670000"} {
		s = strings.ReplaceAll(s, ts, strings.TrimSuffix(ts, "000")+string(rune('0'+shift))+"00")
	}
	return []byte(s)
}

// TestSparkAttempts reads a spark-events directory holding two attempts of
// one YARN application (one a plain file, one a rolling directory) beside
// another application: the last attempt is kept, the earlier reported as
// dropped with its file; in either order of the names, in application and
// in job mode; a log read twice is a duplicate, not an error.
func TestSparkAttempts(t *testing.T) {
	const app = "application_1700000000000_0001"
	other, err := os.ReadFile(sparkSynthetic)
	if err != nil {
		t.Fatal(err)
	}
	write := func(p string, b []byte) {
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name        string
		first, last string // attempts in the plain file and the rolling directory
		want        string // attempt kept
	}{
		{"in order", "1", "2", "2"},
		{"reversed names", "2", "1", "2"},
	} {
		dir := t.TempDir()
		shift := map[string]int64{"1": 1, "2": 5}
		write(filepath.Join(dir, app+"_1"), sparkAttemptLog(t, app, tc.first, shift[tc.first]))
		write(filepath.Join(dir, sparkRollingPrefix+app+"_2", "events_1_"+app+"_2"), sparkAttemptLog(t, app, tc.last, shift[tc.last]))
		write(filepath.Join(dir, "app-20240102030405-0001"), other)
		for _, unit := range []data.SparkUnit{data.SparkApplication, data.SparkJob} {
			lg, err := data.ReadLog(dir, data.ReadOptions{Log: data.LogOptions{Spark: unit}})
			if err != nil {
				t.Fatalf("%s, %s: %v", tc.name, unit, err)
			}
			ids := map[string]int{}
			for i := 0; i < lg.Jobs.Len(); i++ {
				ids[strings.SplitN(lg.Jobs.ID.At(i), "/", 2)[0]]++
				if strings.HasPrefix(lg.Jobs.ID.At(i), app) {
					// Attempt 2's start is 1704164645 + 0.5 s (shifted), attempt 1's + 0.1 s.
					wantSubmit := map[string]float64{"1": 1704164645.1, "2": 1704164645.5}[tc.want]
					if unit == data.SparkApplication && lg.Jobs.Submit[i] != wantSubmit {
						t.Errorf("%s: %s submitted at %v, want attempt %s's %v", tc.name, app, lg.Jobs.Submit[i], tc.want, wantSubmit)
					}
				}
			}
			if ids[app] == 0 || ids["app-20240102030405-0001"] != ids[app] {
				t.Errorf("%s, %s: jobs per application %v", tc.name, unit, ids)
			}
			var d *data.Drop
			for k := range lg.Summary.Dropped {
				if lg.Summary.Dropped[k].Reason == dropSparkAttempt {
					d = &lg.Summary.Dropped[k]
				}
			}
			loser := map[string]string{"2": "1", "1": "2"}[tc.want]
			if d == nil || d.Count != 1 || !strings.Contains(d.First, app+" attempt "+loser) {
				t.Errorf("%s, %s: dropped %+v", tc.name, unit, lg.Summary.Dropped)
			}
		}
	}
	// The same log twice (a copy beside the original): one application.
	dir := t.TempDir()
	write(filepath.Join(dir, app+"_1"), sparkAttemptLog(t, app, "1", 1))
	write(filepath.Join(dir, app+"_1.inprogress"), sparkAttemptLog(t, app, "1", 1))
	lg, err := data.ReadLog(dir, data.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if lg.Jobs.Len() != 1 || !bytes.Contains([]byte(lg.Summary.String()), []byte(dropSparkDuplicate)) {
		t.Errorf("copied log: %d jobs, %s", lg.Jobs.Len(), lg.Summary.String())
	}
}
