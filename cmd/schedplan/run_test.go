package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedplan/schedplan/pipeline/bundle"
	"github.com/schedplan/schedplan/pipeline/tunedeploy"
	"github.com/schedplan/schedplan/pipeline/tuner"
)

// --require-improvement follows the one verdict. Against the cluster's
// own fair-scheduler.xml serving every job FIFO in one queue, a candidate
// wins with its whole interval below 0: deploy, exit status 0. Against
// Fair (the default current scheduler) on the embedded trace the verdict
// is keep: the run writes its outputs and exits with status 3.
func TestRunRequireImprovement(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo-fair-scheduler.xml")
	if err := os.WriteFile(fifo, []byte(`<?xml version="1.0"?>
<allocations>
  <queue name="default"><schedulingPolicy>fifo</schedulingPolicy></queue>
  <queuePlacementPolicy><rule name="default" queue="root.default"/></queuePlacementPolicy>
</allocations>
`), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := runCmd(t, []string{"run"}, "--out", filepath.Join(dir, "a"), "--budget", "60", "--runs", "2", "--current-config", fifo, "--require-improvement"); err != nil {
		t.Fatalf("%v\n%s", err, out)
	} else if !strings.Contains(out, "Verdict: deploy") {
		t.Errorf("output does not say deploy:\n%s", out)
	}
	out, err := runCmd(t, []string{"run"}, "--out", filepath.Join(dir, "b"), "--budget", "60", "--runs", "2", "--require-improvement", "--cluster", "coshh-table3")
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != 3 {
		t.Fatalf("want exit status 3, got %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "b", "report.html")); err != nil {
		t.Error("the report is missing although only the requirement failed")
	}
	if !strings.Contains(out, "Verdict: keep your current scheduler") {
		t.Errorf("output does not say keep:\n%s", out)
	}
}

func TestSimulateLoadsBundle(t *testing.T) {
	dir := t.TempDir()
	b := &bundle.Bundle{Version: bundle.BundleVersion, Trace: bundle.TraceInfo{SizeSource: "bytes"}, Cluster: bundle.ClusterInfo{Capacity: 1}, LASMQ: tuner.LASMQParams{K: 3, Alpha0: 0.5, P: 4, Decay: 0.5}.Config()}
	y, err := bundle.MarshalBundle(b)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "schedplan.yaml")
	os.WriteFile(path, y, 0o644)
	out, err := runCmd(t, []string{"simulate"}, "--trace", "embedded:fb2009-50", "-p", "fifo", "--config", path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "las_mq:k=3,alpha0=0.5,p=4,decay=0.5") {
		t.Errorf("the bundle's LAS_MQ was not simulated:\n%s", out)
	}
	os.WriteFile(path, []byte("version: 7\n"), 0o644)
	if _, err := runCmd(t, []string{"simulate"}, "--config", path); err == nil || !strings.Contains(err.Error(), "version 7") {
		t.Errorf("a bundle of another version was accepted: %v", err)
	}
}

// run --help states the task-level default constraints the verdict uses
// (the flag's default is the fluid tuner's only).
func TestRunHelpDeployConstraints(t *testing.T) {
	out, err := runCmd(t, []string{"run"}, "--help")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, tunedeploy.DeployDefaultConstraints) {
		t.Errorf("run --help does not name the task-level default %q", tunedeploy.DeployDefaultConstraints)
	}
}
