package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// convert and sweep follow run's output rule: a missing folder is
// created; the root folder and a symbolic link are refused naming the
// flag. A sweep shard and a merge may run again: the same bytes are
// accepted, other bytes refused naming the file; a shard count above the
// sweep's units is refused.
func TestConvertSweepOutRule(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "link")
	if err := os.Symlink(t.TempDir(), link); err != nil {
		t.Fatal(err)
	}
	deep := filepath.Join(dir, "a", "b", "jobs.parquet")
	if out, err := runCmd(t, []string{"convert"}, "--trace", "embedded:fb2009-50", "--out", deep); err != nil {
		t.Fatalf("convert into a missing folder: %v\n%s", err, out)
	}
	sweep := []string{"-t", "embedded:fb2009-50", "--sigmas", "0,0.5", "--policy", "srpt,ps", "--runs", "2"}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"convert", "--trace", "embedded:fb2009-50", "--out", "/schedplan-test.parquet"}, "--out /schedplan-test.parquet: writes into the root folder"},
		{[]string{"convert", "--trace", "embedded:fb2009-50", "--out", filepath.Join(link, "x.parquet")}, "is a symbolic link"},
		{[]string{"convert", "--trace", "embedded:fb2009-50", "--out", filepath.Join(dir, "y.parquet"), "--tasks", "/t.parquet"}, "--tasks /t.parquet"},
		{append([]string{"sweep", "--out", filepath.Join(link, "s.parquet")}, sweep...), "--out " + filepath.Join(link, "s.parquet")},
		{append([]string{"sweep", "--out", filepath.Join(dir, "s.parquet"), "--shard", "9/16"}, sweep...), "at most 4 shards"},
	} {
		if out, err := runCmd(t, nil, tc.args...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want an error saying %q\n%s", tc.args, err, tc.want, out)
		}
	}
	part := filepath.Join(dir, "parts", "part-1.parquet")
	shard := append([]string{"--out", part, "--shard", "1/2"}, sweep...)
	for range 2 { // the second is a retried pod
		if out, err := runCmd(t, []string{"sweep"}, shard...); err != nil {
			t.Fatalf("sweep shard: %v\n%s", err, out)
		}
	}
	if _, err := runCmd(t, []string{"sweep"}, append(shard, "--seed", "7")...); err == nil || !strings.Contains(err.Error(), part) || !strings.Contains(err.Error(), "other contents") {
		t.Errorf("a shard of another sweep over the part: %v, want refused naming %s", err, part)
	}
}
