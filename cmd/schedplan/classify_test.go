package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedplan/schedplan/data"
)

// classifyRun runs "schedplan classify args..." in-process (see runCmd).
func classifyRun(t *testing.T, args ...string) (string, error) {
	t.Helper()
	return runCmd(t, []string{"classify"}, args...)
}

func TestClassifyTextEmbedded(t *testing.T) {
	out, err := classifyRun(t, "--holdout", "0.7", "--restarts", "4", "--init", "greedy", "--cluster", "coshh-table3")
	if err != nil {
		t.Fatal(err, out)
	}
	for _, want := range []string{
		"trace embedded:fb2009: 5894 jobs",
		"primary classification: no classes: no job belongs to a user with min_share > 0",
		"secondary classification: 5894 jobs, k = ",
		"best silhouette over k = 2..12; elbow of inertia at k = ",
		"features: priority:z exec_rate@R1:logunit exec_rate@R2:logunit exec_rate@R3:logunit exec_rate@R4:logunit exec_rate@R5:logunit exec_rate@R6:logunit arrival_rate:logunit",
		"class      label  jobs  share  duration (s)  input  shuffle  output  map time  reduce time  mean size  α (jobs/s)",
		"μ R6",
		"chosen",
		"class-based size predictor: classes fitted on the first 70% of the jobs by submit time (4125 jobs; features input_bytes",
		"global median",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// --feature-set size classifies on the log's columns, as before seed 003's
// features became the default.
func TestClassifySizeFeatureSet(t *testing.T) {
	out, err := classifyRun(t, "-t", "embedded:fb2009-50", "--feature-set", "size", "--k", "3")
	if err != nil {
		t.Fatal(err, out)
	}
	if !strings.Contains(out, "features: size:log input_bytes:log shuffle_bytes:log output_bytes:log") {
		t.Errorf("output lacks the size features:\n%s", out)
	}
}

func TestClassifyJSONAndFiles(t *testing.T) {
	dir := t.TempDir()
	classes := filepath.Join(dir, "classes.parquet")
	jobs := filepath.Join(dir, "jobs.csv")
	args := []string{"-t", "embedded:fb2009-50", "--cluster", capacitySpec(t), "--k", "3", "--json", "--out", classes, "--jobs-out", jobs}
	out, err := classifyRun(t, args...)
	if err != nil {
		t.Fatal(err, out)
	}
	var rep struct {
		Jobs        int     `json:"jobs"`
		ArrivalRate float64 `json:"arrival_rate_per_s"`
		Primary     struct {
			Jobs    int `json:"jobs"`
			K       int `json:"k"`
			Classes []struct {
				Count int       `json:"count"`
				Alpha float64   `json:"alpha_per_s"`
				Mu    []float64 `json:"mu_per_s"`
			} `json:"classes"`
		} `json:"primary"`
		Secondary struct {
			Jobs    int `json:"jobs"`
			Classes []struct {
				Count        int      `json:"count"`
				Alpha        float64  `json:"alpha_per_s"`
				MeanDuration *float64 `json:"mean_duration_s"`
			} `json:"classes"`
		} `json:"secondary"`
		Wrote []string `json:"wrote"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err, out)
	}
	// User "default" has a min share in this spec: both classifications
	// hold all 50 jobs.
	if rep.Jobs != 50 || rep.Primary.Jobs != 50 || rep.Secondary.Jobs != 50 || rep.Primary.K != 3 || len(rep.Wrote) != 2 {
		t.Fatalf("report %+v", rep)
	}
	alpha, count := 0.0, 0
	for _, c := range rep.Secondary.Classes {
		alpha += c.Alpha
		count += c.Count
		if c.MeanDuration != nil {
			t.Errorf("mean duration %v for a log without start/finish times", *c.MeanDuration)
		}
	}
	if count != 50 || math.Abs(alpha-rep.ArrivalRate) > 1e-12*rep.ArrivalRate {
		t.Errorf("Σ count %d, Σα %v, arrival rate %v", count, alpha, rep.ArrivalRate)
	}
	tab, err := data.ReadTable(classes, data.FormatParquet)
	if err != nil {
		t.Fatal(err)
	}
	if tab.Len() != 6 || tab.Col("mu_R3") == nil || tab.Col("centroid_exec_rate@R3") == nil {
		t.Errorf("classes.parquet: %d rows, columns %v", tab.Len(), tab.Names)
	}
	// No overwrite without --force.
	if _, err := classifyRun(t, args...); err == nil || !errors.Is(err, data.ErrExists) {
		t.Errorf("second run without --force: %v", err)
	}
	if out, err := classifyRun(t, append(args, "--force")...); err != nil {
		t.Errorf("--force: %v %s", err, out)
	}
}

func TestClassifyBadFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--k", "0"}, "--k"},
		{[]string{"--k", "lots"}, "--k"},
		{[]string{"--scaling", "sqrt"}, "--scaling"},
		{[]string{"--features", "size,bogus"}, `feature "bogus"`},
		{[]string{"--features", "duration"}, `"duration": the job log has no such column`},
		{[]string{"--holdout", "1.5"}, "--holdout"},
		{[]string{"--feature-set", "bytes"}, "--feature-set"},
		{[]string{"--restarts", "0"}, "--restarts"},
		{[]string{"--init", "best"}, "--init"},
		{[]string{"--k-min", "5", "--k-max", "3"}, "--k-min"},
		{[]string{"--out", "classes.xlsx"}, "--out"},
		{[]string{"--cluster", "/nonexistent.yaml"}, "--cluster"},
	} {
		out, err := classifyRun(t, append([]string{"-t", "embedded:fb2009-50"}, tc.args...)...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want %q (%s)", tc.args, err, tc.want, out)
		}
	}
}

func TestClassifyIdenticalJobs(t *testing.T) {
	// Five jobs with the same bytes: one class whatever k asks for.
	path := filepath.Join(t.TempDir(), "same.tsv")
	var b strings.Builder
	for i := 0; i < 5; i++ {
		fmt.Fprintf(&b, "job%d\t%d\t10\t1000\t2000\t3000\n", i, 10*(i+1))
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"auto", "3", "users"} {
		out, err := classifyRun(t, "-t", path, "--k", k)
		if err != nil {
			t.Fatal(err, out)
		}
		if !strings.Contains(out, "secondary classification: 5 jobs, k = 1 (") || !strings.Contains(out, "small") {
			t.Errorf("--k %s:\n%s", k, out)
		}
		if k != "users" && !strings.Contains(out, "note: ") {
			t.Errorf("--k %s: no note about the reduced k:\n%s", k, out)
		}
	}
}
