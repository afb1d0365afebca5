package archtest

import (
	"bufio"
	"bytes"
	"os/exec"
	"path"
	"strings"
	"testing"
)

// module is schedplan's module path.
const module = "github.com/schedplan/schedplan"

// layers are schedplan's architectural layers, lowest first. A package may
// import packages of lower layers only: never one of its own layer, never
// one above. An entry is a package path relative to the module, or a
// prefix ending in "/..." for a package and everything under it; the most
// specific entry places a package. Every package of the module must be
// placed (a new package is placed here when it is added).
var layers = []struct {
	name     string
	packages []string
}{
	{"tools shared by tests and packages", []string{"internal/...", "data/internal/compress", "data/internal/csvscan"}},
	{"data's Parquet and Arrow IPC codec", []string{"data/internal/colfile"}},
	{"leaves: the job-log model, the fluid core, the LP, YARN's file rules", []string{"data", "cluster/sim", "lp", "cluster/yarn"}},
	{"what the log readers and their tests share", []string{"data/internal/logread", "data/internal/logtest"}},
	{"the log readers, one package a format", []string{"data/spark", "data/jhist", "data/rmsummary", "data/sls", "data/google", "data/alibaba", "data/swf", "data/swimfull"}},
	{"the table of log formats", []string{"data/logs"}},
	{"derived inputs: job sizes, the cluster spec", []string{"estimate", "cluster"}},
	{"models on them: classes, the task-level core", []string{"classify", "cluster/task"}},
	{"task-level policies and simulators of their own, on the core", []string{"cluster/task/coshh", "cluster/task/hpfsp", "cluster/task/prism", "cluster/task/internal/tasktest"}},
	{"the task-level registry, whole", []string{"cluster/task/all"}},
	{"the report's model, plots and formatting", []string{"pipeline/report"}},
	{"the experiment runner (every simulation)", []string{"pipeline/experiment"}},
	{"the tuner (LAS_MQ on the tuning window), sweeps", []string{"pipeline/tuner", "pipeline/sweep"}},
	{"the configuration bundle and its YARN files", []string{"pipeline/bundle"}},
	{"a sample bundle for the tests", []string{"pipeline/internal/bundletest"}},
	{"the task-level simulation and its models", []string{"pipeline/tasklevel"}},
	{"the run's parameters and inputs", []string{"pipeline/inputs"}},
	{"validation by simulation (fluid, task level, COSHH)", []string{"pipeline/validation"}},
	{"tune-deploy: the deployable candidates and the verdict", []string{"pipeline/tunedeploy"}},
	{"the capacity plan, its headroom and what-ifs", []string{"pipeline/capacity"}},
	{"the run's result, report and text", []string{"pipeline/runreport"}},
	{"the stages, wired (orchestration)", []string{"pipeline"}},
	{"commands", []string{"cmd/..."}},
}

// layerOf returns the index of the layer that places package p (relative
// to the module), or -1.
func layerOf(p string) int {
	best, bestLen := -1, -1
	for i, l := range layers {
		for _, e := range l.packages {
			n := 0
			switch {
			case e == p:
				n = len(e) + 1 // an exact entry beats a prefix of the same length
			case strings.HasSuffix(e, "/..."):
				pre := strings.TrimSuffix(e, "/...")
				if p == pre || strings.HasPrefix(p, pre+"/") {
					n = len(pre)
				}
			}
			if n > bestLen && n > 0 {
				best, bestLen = i, n
			}
		}
	}
	return best
}

type pkg struct {
	path    string // relative to the module
	doc     string
	imports []string // the module's packages it imports, relative
}

// list runs `go list` over the module's packages (tests excluded: a test
// may reach across layers to check them).
func list(t *testing.T) []pkg {
	t.Helper()
	cmd := exec.Command("go", "list", "-f", "{{.ImportPath}}\t{{.Doc}}\t{{join .Imports \" \"}}", module+"/...")
	out, err := cmd.Output()
	if err != nil {
		var stderr string
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = string(ee.Stderr)
		}
		t.Fatalf("go list: %v\n%s", err, stderr)
	}
	var ps []pkg
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.SplitN(sc.Text(), "\t", 3)
		if len(f) != 3 {
			t.Fatalf("go list: line %q", sc.Text())
		}
		p := pkg{path: rel(f[0]), doc: f[1]}
		for _, im := range strings.Fields(f[2]) {
			if r := rel(im); r != im {
				p.imports = append(p.imports, r)
			}
		}
		ps = append(ps, p)
	}
	return ps
}

// rel returns p relative to the module ("" for the module's root), or p
// itself when it is not the module's.
func rel(p string) string {
	if p == module {
		return ""
	}
	if r, ok := strings.CutPrefix(p, module+"/"); ok {
		return r
	}
	return p
}

// Every package sits on a layer and imports only packages of lower layers.
func TestImportsRunDownwards(t *testing.T) {
	ps := list(t)
	if len(ps) < 10 {
		t.Fatalf("go list found %d packages", len(ps))
	}
	for _, p := range ps {
		lp := layerOf(p.path)
		if lp < 0 {
			t.Errorf("package %s is on no layer: place it in layers (internal/archtest/layers_test.go)", p.path)
			continue
		}
		for _, im := range p.imports {
			li := layerOf(im)
			if li < 0 {
				continue // reported as a package of its own
			}
			if li >= lp {
				t.Errorf("%s (layer %d, %s) imports %s (layer %d, %s): a package imports only from lower layers",
					p.path, lp, layers[lp].name, im, li, layers[li].name)
			}
		}
	}
}

// Every package says what it is for.
func TestEveryPackageHasADocComment(t *testing.T) {
	for _, p := range list(t) {
		if strings.TrimSpace(p.doc) == "" {
			t.Errorf("package %s has no doc comment (doc.go: what it is for, what it may import)", p.path)
		}
	}
}

// layerOf places packages by the most specific entry.
func TestLayerOf(t *testing.T) {
	for _, c := range []struct {
		p    string
		want int
	}{
		{"internal/treap", 0}, {"data", 2}, {"cluster/sim", 2}, {"data/internal/compress", 0},
		{"data/internal/colfile", 1}, {"data/internal/logread", 3}, {"data/swf", 4}, {"data/logs", 5},
		{"cluster", 6}, {"cluster/task", 7}, {"cluster/task/coshh", 8}, {"cluster/task/internal/tasktest", 8},
		{"cluster/task/all", 9}, {"pipeline/report", 10}, {"pipeline/experiment", 11}, {"pipeline/tuner", 12},
		{"pipeline/bundle", 13}, {"pipeline/internal/bundletest", 14}, {"pipeline/tasklevel", 15}, {"pipeline/inputs", 16},
		{"pipeline/validation", 17}, {"pipeline/tunedeploy", 18}, {"pipeline/capacity", 19}, {"pipeline/runreport", 20},
		{"pipeline", 21}, {"cmd/schedplan", 22}, {"nowhere", -1},
		{path.Join("cmd", "x", "y"), 22},
	} {
		if got := layerOf(c.p); got != c.want {
			t.Errorf("layerOf(%q) = %d, want %d", c.p, got, c.want)
		}
	}
}
