package pipeline

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedplan/schedplan/cluster/yarn"
	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/inputs"

	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/estimate"
)

// The checks the commands run before any work (moved from cmd/schedplan):
// an --out file's format and existence, --container-mb, run's parsed
// flags, and emit's refusal to replace either YARN file.
func TestCommandChecks(t *testing.T) {
	dir := t.TempDir()
	have := filepath.Join(dir, "have.parquet")
	if err := os.WriteFile(have, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if f, err := CheckOutFile("", false); f != "" || err != nil {
		t.Errorf("no --out: %q, %v", f, err)
	}
	if _, err := CheckOutFile(filepath.Join(dir, "x.txt"), false); err == nil || !strings.HasPrefix(err.Error(), "--out: ") {
		t.Errorf("unknown format: %v", err)
	}
	if _, err := CheckOutFile(have, false); !errors.Is(err, data.ErrExists) {
		t.Errorf("existing --out without force: %v", err)
	}
	if f, err := CheckOutFile(have, true); f != data.FormatParquet || err != nil {
		t.Errorf("existing --out with force: %q, %v", f, err)
	}
	var pe *experiment.ParamError
	if err := CheckContainerMB(0); !errors.As(err, &pe) || pe.Param != "container-mb" {
		t.Errorf("--container-mb 0: %v", err)
	}
	if err := CheckContainerMB(1024); err != nil {
		t.Error(err)
	}
	cfg := inputs.DefaultRunConfig()
	ok := RunRequest{K: "auto", Solver: "gonum", Objective: "p99", Baselines: "fifo,srpt", Sigmas: "0,0.5", LoadFactors: FormatFloats([]float64{0.5, 1.25})}
	if err := ok.Configure(&cfg); err != nil || cfg.Objective != "p99" || len(cfg.Baselines) != 2 || cfg.LoadFactors[1] != 1.25 {
		t.Errorf("Configure: %v, %+v", err, cfg)
	}
	for _, tc := range []struct {
		q    RunRequest
		want string
	}{
		{RunRequest{K: "x", Solver: "gonum", Baselines: "fifo", Sigmas: "0", LoadFactors: "1"}, "--k: "},
		{RunRequest{K: "3", Solver: "nope", Baselines: "fifo", Sigmas: "0", LoadFactors: "1"}, "--solver: "},
		{RunRequest{K: "3", Solver: "gonum", Baselines: "fifo", Sigmas: "0", LoadFactors: "a"}, "--load-factors"},
	} {
		if err := tc.q.Configure(&cfg); err == nil || !strings.Contains(cliText(err), tc.want) {
			t.Errorf("%+v: %v, want %q", tc.q, err, tc.want)
		}
	}
	if _, _, err := inputs.ReadSpecAndLog(filepath.Join(dir, "none.yaml"), "embedded:fb2009-50", func() (data.ReadOptions, error) { return data.ReadOptions{}, nil }, estimate.SizeOptions{DN: 4, Load: 0.9}); err == nil || !strings.HasPrefix(err.Error(), "--cluster: ") {
		t.Errorf("missing spec: %v", err)
	}
	spec, s, err := inputs.ReadSpecAndLog("default", "embedded:fb2009-50", func() (data.ReadOptions, error) { return data.ReadOptions{}, nil }, estimate.SizeOptions{DN: 4, Load: 0.9})
	if err != nil || s.Jobs.Len() != 50 || len(s.ContainerSeconds(spec)) != 50 {
		t.Fatalf("ReadSpecAndLog: %v", err)
	}
}

// cliText words a ParamError as the command line does.
func cliText(err error) string {
	var pe *experiment.ParamError
	if errors.As(err, &pe) {
		return "--" + pe.Param + " " + pe.Msg
	}
	return err.Error()
}

// emitBundle runs the stages to emit on a small trace and returns the
// bundle (schedplan.yaml) written.
func emitBundle(t *testing.T) string {
	t.Helper()
	cfg := inputs.DefaultRunConfig()
	cfg.Budget, cfg.Runs, cfg.Trace = 40, 2, "embedded:fb2009-50"
	cfg.Stages.Until = "emit"
	out := filepath.Join(t.TempDir(), "run")
	if err := runStages(t, out, cfg, cfg.Stages); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(out, "schedplan.yaml")
}

// emit writes both YARN files, and refuses, without force, to replace
// either before writing any.
func TestEmitYARNFiles(t *testing.T) {
	out := filepath.Dir(emitBundle(t))
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "fair-scheduler.xml"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	written, err := EmitYARNFiles(filepath.Join(out, "schedplan.yaml"), dir, false, 1024)
	if !errors.Is(err, data.ErrExists) || len(written) != 0 {
		t.Fatalf("over an existing file: %v, wrote %v", err, written)
	}
	if _, err := os.Stat(filepath.Join(dir, "capacity-scheduler.xml")); err == nil {
		t.Fatal("a refused emit wrote capacity-scheduler.xml")
	}
	if written, err = EmitYARNFiles(filepath.Join(out, "schedplan.yaml"), dir, true, 3072); err != nil || len(written) != 2 {
		t.Fatalf("with force: %v, wrote %v", err, written)
	}
	// The capacity file records the container size its held thresholds
	// assume, for yarn-controller.
	b, err := os.ReadFile(filepath.Join(dir, "capacity-scheduler.xml"))
	if err != nil {
		t.Fatal(err)
	}
	cs, err := yarn.ParseCapacityScheduler(b)
	if err != nil {
		t.Fatal(err)
	}
	if mb, ok, err := cs.FileContainerMB(); err != nil || !ok || mb != 3072 {
		t.Errorf("%s: %v MB, %v, %v; want 3072 MB", yarn.ContainerMBKey, mb, ok, err)
	}
}

// emit follows the output rule: a missing --out is created (the README's
// `emit --out yarn/`), the root folder and a folder of other files are
// refused naming --out, before the bundle is read.
func TestEmitOutRule(t *testing.T) {
	bundle := emitBundle(t)
	yarnDir := filepath.Join(t.TempDir(), "new", "yarn")
	if written, err := EmitYARNFiles(bundle, yarnDir, false, 1024); err != nil || len(written) != 2 {
		t.Fatalf("into a missing folder: %v, wrote %v", err, written)
	}
	if _, err := EmitYARNFiles(bundle, yarnDir, true, 1024); err != nil {
		t.Errorf("again into its own folder, forced: %v", err)
	}
	foreign := t.TempDir()
	if err := os.WriteFile(filepath.Join(foreign, "notes.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{"/", foreign} {
		if _, err := EmitYARNFiles(filepath.Join(dir, "no-such-bundle.yaml"), dir, false, 1024); err == nil || !strings.HasPrefix(err.Error(), "--out ") {
			t.Errorf("--out %s: %v, want refused naming --out", dir, err)
		}
	}
	if _, err := os.Stat("/capacity-scheduler.xml"); err == nil {
		t.Error("/capacity-scheduler.xml exists")
	}
}
