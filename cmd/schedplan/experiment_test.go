package main

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedplan/schedplan/pipeline"
	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/runreport"
	"github.com/schedplan/schedplan/pipeline/tasklevel"
	"github.com/schedplan/schedplan/pipeline/validation"
)

// twoUserLog writes a CSV log of users U1 and U2 of the default cluster spec
// (U2 has priority 2, so weight 2 under Fair) with sizes in container-seconds
// at an offered load of about load on the spec's 48.06 containers.
func twoUserLog(t *testing.T, n int, load float64) string {
	t.Helper()
	rng := rand.New(rand.NewPCG(11, 1))
	var b strings.Builder
	b.WriteString("job_id,submit_time,user,size\n")
	at := 0.0
	for i := 0; i < n; i++ {
		at += rng.ExpFloat64() * 30 / (load * 48.06)
		fmt.Fprintf(&b, "j%d,%.3f,U%d,%.4f\n", i, at, 1+rng.IntN(2), 30*math.Exp(rng.NormFloat64()-0.5))
	}
	path := filepath.Join(t.TempDir(), "jobs.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// The same experiment through `simulate --json` and through run's
// validation gives identical numbers (issue 11: simulate used to drop the
// users' weights, so on a 2-user log it gave gps = ps while run did not).
func TestSimulateAndRunValidationAgree(t *testing.T) {
	log := twoUserLog(t, 500, 0.7)
	dir := filepath.Join(t.TempDir(), "out")
	if out, err := runCmd(t, []string{"run"}, "--trace", log, "--out", dir, "--k", "2", "--budget", "30", "--runs", "3",
		"--sigmas", "0,0.5", "--baselines", "ps,srpt", "--seed", "5", "--cluster", "coshh-table3"); err != nil {
		t.Fatal(err, out)
	}
	sum := readSummary(t, dir)
	if sum.Capacity != 48.06 || sum.Overloaded {
		t.Errorf("run simulated at capacity %v (%s), overloaded %v", sum.Capacity, sum.CapacityFrom, sum.Overloaded)
	}
	simulate := func(args ...string) *tasklevel.SimulateReport {
		t.Helper()
		out, err := runCmd(t, []string{"simulate"}, append([]string{"--trace", log, "--window", "validate", "--json", "--seed", "5", "--cluster", "coshh-table3"}, args...)...)
		if err != nil {
			t.Fatal(err, out)
		}
		var rep tasklevel.SimulateReport
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatal(err, out)
		}
		return &rep
	}
	exact := simulate("--policy", "gps,ps,srpt")
	noisy := simulate("--policy", "srpt", "--sigma", "0.5", "--runs", "3")
	row := func(policy string, sigma float64) validation.ValidationRow {
		for _, r := range sum.Validation {
			if r.Policy == policy && r.Sigma == sigma {
				return r
			}
		}
		t.Fatalf("no validation row for %s at σ %v", policy, sigma)
		return validation.ValidationRow{}
	}
	for _, c := range []struct {
		a     experiment.Aggregate
		sigma float64
	}{{exact.Policies[0], 0}, {exact.Policies[1], 0}, {exact.Policies[2], 0}, {noisy.Policies[0], 0.5}} {
		got := row(c.a.Policy, c.sigma)
		want := validation.ValidationRowOf(got.Name, c.sigma, c.a, sum.Bounds)
		if got != want {
			t.Errorf("%s σ=%v: run's validation %+v\nsimulate          %+v", c.a.Policy, c.sigma, got, want)
		}
	}
	if g, p := exact.Policies[0].Mean.Response.Mean, exact.Policies[1].Mean.Response.Mean; g == p {
		t.Errorf("gps = ps = %v on a log of two users of different weights", g)
	}
	if exact.Capacity != sum.Capacity || exact.Jobs != sum.Split.ValidJobs {
		t.Errorf("simulate: capacity %v, %d jobs; run: %v, %d", exact.Capacity, exact.Jobs, sum.Capacity, sum.Split.ValidJobs)
	}
}

// --baselines srpt+ps,srpt,fsp --sigmas 0,0.5 gives σ rows for every
// policy that uses size estimates, as the registry declares them.
func TestRunSigmaRowsForEveryEstimatePolicy(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	if out, err := runCmd(t, []string{"run"}, "--trace", "embedded:fb2009-50", "--out", dir, "--k", "2", "--budget", "20", "--folds", "2",
		"--runs", "2", "--baselines", "srpt+ps,srpt,fsp", "--sigmas", "0,0.5", "--load-factors", "1"); err != nil {
		t.Fatal(err, out)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "summary.json"))
	var sum runreport.RunResult
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, r := range sum.Validation {
		if r.Sigma == 0.5 {
			got[r.Policy] = true
			if r.Runs != 2 {
				t.Errorf("%s: %d runs", r.Policy, r.Runs)
			}
		}
	}
	for _, p := range []string{"srpt+ps", "srpt", "fsp"} {
		if !got[p] {
			t.Errorf("no σ = 0.5 row for %s (rows for %v)", p, got)
		}
	}
	if len(got) != 3 {
		t.Errorf("σ rows for %v: only the three size-based policies use estimates", got)
	}
}

// A log whose sizes are container-seconds is simulated at the cluster
// spec's capacity, not at 1; one whose offered load there exceeds 1 says so
// in the output and in summary.json (issue 10, "Numbers that mislead").
func TestOverloadIsReported(t *testing.T) {
	log := twoUserLog(t, 300, 3)
	out, err := runCmd(t, []string{"simulate"}, "--trace", log, "--policy", "ps", "--cluster", "coshh-table3")
	if err != nil || !strings.Contains(out, "capacity 48.06") || !strings.Contains(out, "WARNING: OVERLOADED: the offered load is 3") {
		t.Errorf("simulate on an overloaded log: %v\n%s", err, out)
	}
	dir := filepath.Join(t.TempDir(), "out")
	out, err = runCmd(t, []string{"run"}, "--trace", log, "--out", dir, "--k", "2", "--budget", "20", "--runs", "2", "--load-factors", "1", "--cluster", "coshh-table3")
	if err != nil || !strings.Contains(out, "WARNING: OVERLOADED") {
		t.Errorf("run on an overloaded log: %v\n%s", err, out)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "summary.json"))
	if !strings.Contains(string(b), `"overloaded": true`) || !strings.Contains(string(b), "OVERLOADED") {
		t.Error("summary.json does not say the run is overloaded")
	}
	out, err = runCmd(t, []string{"simulate"}, "--trace", log, "--policy", "ps", "--capacity", "200")
	if err != nil || strings.Contains(out, "OVERLOADED") || !strings.Contains(out, "capacity 200 (given)") {
		t.Errorf("with --capacity 200: %v\n%s", err, out)
	}
}

// Every flag is checked before anything is written, with the flag and its
// value in the message, and nothing is coerced (issue 10).
func TestRunRefusesBadFlagsBeforeWriting(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--load", "0"}, "--load 0"},
		{[]string{"--dn", "-1"}, "--dn -1"},
		{[]string{"--container-mb", "0"}, "--container-mb 0"},
		{[]string{"--container-mb", "-5"}, "--container-mb -5"},
		{[]string{"--folds", "0"}, "--folds 0"},
		{[]string{"--folds", "-1"}, "--folds -1"},
		{[]string{"--folds", "1000000"}, "--folds 1000000"},
		{[]string{"--constraint", "p99<=fast"}, "--constraint p99<=fast"},
		{[]string{"--constraint", "speed<=current"}, `unknown metric "speed"`},
		{[]string{"--objective", "slowest"}, "--objective slowest"},
		{[]string{"--capacity", "NaN"}, "--capacity NaN"},
		{[]string{"--capacity", "-3"}, "--capacity -3"},
		{[]string{"--what-if", "R2=+1e300"}, "--what-if R2=+1e300"},
		{[]string{"--split", "1"}, "--split 1"},
		{[]string{"--runs", "0"}, "--runs 0"},
		{[]string{"--budget", "0"}, "--budget 0"},
		{[]string{"--sigmas", "0,-1"}, "--sigmas -1"},
		{[]string{"--sigmas", "0.5,0.5"}, "given twice"},
		{[]string{"--objective", "fastest"}, "--objective fastest"},
		{[]string{"--current", "quickest"}, `unknown policy "quickest"`},
		{[]string{"--load-factors", "0"}, "--load-factors 0"},
		{[]string{"--runs", "1000000000"}, "--i-know"},
		{[]string{"--budget", "1000000000"}, "--i-know"},
		{[]string{"--out", ""}, "--out: no output directory given"},
		{[]string{"--baselines", "fifo,quickest"}, `unknown policy "quickest"`},
		{[]string{"--cluster", "/no/such/cluster.yaml"}, "--cluster /no/such/cluster.yaml"},
		{[]string{"--sigmas", "0,x"}, "--sigmas"},
	} {
		out := filepath.Join(dir, "out")
		args := append([]string{"--trace", "embedded:fb2009-50", "--out", out}, tc.args...)
		_, err := runCmd(t, []string{"run"}, args...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want one containing %q", tc.args, err, tc.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%v: the output directory was created", tc.args)
			os.RemoveAll(out)
		}
	}
	if entries, _ := os.ReadDir("."); len(entries) > 0 {
		for _, e := range entries {
			if e.Name() == pipeline.StampDir {
				t.Error("run --out \"\" wrote into the current directory")
			}
		}
	}
}

// sweep merge fails on a missing shard (last or middle), a shard given
// twice, and parts of another sweep (other runs, seed or policies), naming
// what is wrong (issue 10).
func TestSweepMergeRefusesIncompleteOrForeignParts(t *testing.T) {
	dir := t.TempDir()
	common := []string{"-t", "embedded:fb2009-50", "--sigmas", "0,0.5", "--loads", "0.9", "--policy", "srpt,ps"}
	part := func(name string, extra ...string) string {
		p := filepath.Join(dir, name+".parquet")
		if out, err := runCmd(t, []string{"sweep"}, append(append(append([]string{}, common...), extra...), "--out", p)...); err != nil {
			t.Fatal(err, out)
		}
		return p
	}
	var parts []string
	for i := 0; i < 3; i++ {
		parts = append(parts, part(fmt.Sprint("p", i), "--runs", "3", "--shard", fmt.Sprintf("%d/3", i)))
	}
	other := map[string]string{
		"runs":     part("runs", "--runs", "4", "--shard", "2/3"),
		"seed":     part("seed", "--runs", "3", "--seed", "9", "--shard", "2/3"),
		"policies": part("policies", "--runs", "3", "--policy", "srpt,fifo", "--shard", "2/3"),
	}
	merged := filepath.Join(dir, "merged.parquet")
	for _, tc := range []struct {
		name  string
		parts []string
		want  string
	}{
		{"last shard missing", parts[:2], "2 of 6 units are in no part (units 2, 5)"},
		{"middle shard missing", []string{parts[0], parts[2]}, "units 1, 4"},
		{"shard twice", []string{parts[0], parts[1], parts[2], parts[1]}, "given twice"},
		{"other runs", []string{parts[0], parts[1], other["runs"]}, "runs: 4, but"},
		{"other seed", []string{parts[0], parts[1], other["seed"]}, "seed: 9, but"},
		{"other policies", []string{parts[0], parts[1], other["policies"]}, "policies: fifo,srpt, but"},
	} {
		_, err := runCmd(t, []string{"sweep", "merge"}, append([]string{"--out", merged}, tc.parts...)...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
		if _, err := os.Stat(merged); err == nil {
			t.Fatalf("%s: the merge was written", tc.name)
		}
	}
	if out, err := runCmd(t, []string{"sweep", "merge"}, append([]string{"--out", merged}, parts...)...); err != nil {
		t.Fatal(err, out)
	}
}
