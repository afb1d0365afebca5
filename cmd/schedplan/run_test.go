package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedplan/schedplan/pipeline"
)

func TestRunRequireImprovement(t *testing.T) {
	dir := t.TempDir()
	// Against FIFO the tuned LAS_MQ wins: exit status 0.
	if out, err := runCmd(t, []string{"run"}, "--out", filepath.Join(dir, "a"), "--budget", "60", "--runs", "2", "--current", "fifo", "--require-improvement"); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	// Against SRPT with exact sizes (the optimum of mean response) it cannot:
	// the run writes its outputs but exits with status 3.
	out, err := runCmd(t, []string{"run"}, "--out", filepath.Join(dir, "b"), "--budget", "60", "--runs", "2", "--current", "srpt", "--require-improvement")
	var ee *exitError
	if !errors.As(err, &ee) || ee.code != 3 {
		t.Fatalf("want exit status 3, got %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(dir, "b", "report.html")); err != nil {
		t.Error("the report is missing although only the requirement failed")
	}
	if !strings.Contains(out, "does NOT beat the current scheduler (srpt)") {
		t.Errorf("output does not say it lost:\n%s", out)
	}
}

func TestSimulateLoadsBundle(t *testing.T) {
	dir := t.TempDir()
	b := &pipeline.Bundle{Version: pipeline.BundleVersion, Trace: pipeline.TraceInfo{SizeSource: "bytes"}, Cluster: pipeline.ClusterInfo{Capacity: 1}, LASMQ: pipeline.LASMQParams{K: 3, Alpha0: 0.5, P: 4, Decay: 0.5}.Config()}
	y, err := pipeline.MarshalBundle(b)
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
