package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/lp"
	"github.com/schedplan/schedplan/pipeline/capacity"
)

// capacityRun runs "schedplan capacity args..." in-process (see runCmd).
func capacityRun(t *testing.T, args ...string) (string, error) {
	t.Helper()
	return runCmd(t, []string{"capacity"}, args...)
}

// capacitySpec writes the default cluster with user "default" (the SWIM
// trace's only user) given a min share, so the primary classification has
// jobs.
func capacitySpec(t *testing.T) string {
	t.Helper()
	s := strings.Replace(string(cluster.DefaultSpecYAML()), "users:\n", "users:\n  - {name: default, min_share: 5, priority: 1}\n", 1)
	path := filepath.Join(t.TempDir(), "cluster.yaml")
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestCapacityText(t *testing.T) {
	out, err := capacityRun(t, "-t", "embedded:fb2009-50", "--cluster", capacitySpec(t), "--k", "3",
		"--what-if", "R2=+10", "--what-if", "R1=-1,R3=+2", "--target", "100")
	if err != nil {
		t.Fatal(err, out)
	}
	for _, want := range []string{
		"== primary classification (50 jobs, k = 3",
		"== secondary classification (50 jobs, k = 3",
		"λ = ", "suggested classes", "R2=+10", "R1=-1,R3=+2", "R2=+1", "to reach λ = 100",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestCapacityNoPrimary(t *testing.T) {
	out, err := capacityRun(t, "-t", "embedded:fb2009-50", "--k", "2")
	if err != nil {
		t.Fatal(err, out)
	}
	if !strings.Contains(out, "primary classification: no LP: no job belongs to a user with min_share > 0") {
		t.Errorf("the empty primary classification is not explained:\n%s", out)
	}
	if !strings.Contains(out, "== secondary classification (50 jobs") {
		t.Errorf("no secondary LP:\n%s", out)
	}
}

func TestCapacityJSON(t *testing.T) {
	for _, solver := range []string{"clp", "gonum"} {
		if solver == "clp" && !lp.CLPAvailable() {
			continue
		}
		out, err := capacityRun(t, "-t", "embedded:fb2009-50", "--cluster", capacitySpec(t), "--k", "3", "--json", "--solver", solver)
		if err != nil {
			t.Fatal(err, out)
		}
		var rep capacity.CapacityReport
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatal(err, out)
		}
		if len(rep.Classifications) != 2 {
			t.Fatalf("%d classifications", len(rep.Classifications))
		}
		for _, cr := range rep.Classifications {
			if !(cr.Lambda > 0) || cr.Solver != solver {
				t.Errorf("%s: λ = %v by %s", cr.Name, cr.Lambda, cr.Solver)
			}
			for ty := range cr.Types {
				sum := 0.0
				for _, c := range cr.Classes {
					sum += c.Delta[ty]
				}
				if sum > 1+1e-9 || math.Abs(sum-cr.Types[ty].Allocated) > 1e-9 {
					t.Errorf("%s: type %s: δ sums to %g, allocated %g", cr.Name, cr.Types[ty].Name, sum, cr.Types[ty].Allocated)
				}
			}
		}
	}
}

func TestCapacityMPS(t *testing.T) {
	if !lp.CLPAvailable() {
		t.Skip("MPS output is written by CLP")
	}
	dir := t.TempDir()
	out, err := capacityRun(t, "-t", "embedded:fb2009-50", "--cluster", capacitySpec(t), "--k", "2", "--mps", filepath.Join(dir, "coshh.mps"))
	if err != nil {
		t.Fatal(err, out)
	}
	for _, name := range []string{"coshh.primary.mps", "coshh.secondary.mps"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || !bytes.Contains(b, []byte("ENDATA")) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestCapacityBadFlags(t *testing.T) {
	cases := map[string][]string{
		"no machine type \"R9\"": {"--what-if", "R9=+1"},
		"would have -4 machines": {"--what-if", "R1=-5", "--cluster", "coshh-table3"},
		"--what-if R2=+1e300":    {"--what-if", "R2=+1e300"},
		"unknown solver":         {"--solver", "cplex"},
		"positive number":        {"--target", "-1"},
		"--cluster":              {"--cluster", "/no/such/cluster.yaml"},
		"--k":                    {"--k", "zero"},
	}
	for want, args := range cases {
		out, err := capacityRun(t, append([]string{"-t", "embedded:fb2009-50", "--k", "2"}, args...)...)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%v: error %v, want one mentioning %q (output %s)", args, err, want, out)
		}
	}
}
