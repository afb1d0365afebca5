package pipeline

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/inputs"
	"github.com/schedplan/schedplan/pipeline/sweep"
)

// The output rule (every command's --out): a missing folder is accepted
// (and created only when written), the root folder never, a symbolic link
// or a folder of other files only with force; a file output may sit in
// any real folder but the root or a link; every error names the flag.
func TestOutRule(t *testing.T) {
	dir := t.TempDir()
	mk := func(name string, files ...string) string {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if err := os.WriteFile(filepath.Join(p, f), []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return p
	}
	empty, foreign, run, own := mk("empty"), mk("foreign", "precious.txt"), mk("run", "summary.json"), mk("own", "capacity-scheduler.xml", ".capacity-scheduler.xml.tmp-123")
	mk(filepath.Join("run", StampDir))
	link := filepath.Join(dir, "link")
	if err := os.Symlink(empty, link); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "new", "deeper")
	for _, tc := range []struct {
		name  string
		dir   string
		force bool
		want  string // "" accepted
	}{
		{"missing", missing, false, ""},
		{"empty", empty, false, ""},
		{"a run's", run, false, ""},
		{"its own files", own, false, ""},
		{"foreign", foreign, false, "--x " + foreign + " exists and was not written by schedplan"},
		{"foreign, forced", foreign, true, ""},
		{"link", link, false, "is a symbolic link"},
		{"link with a slash", link + "/", false, "is a symbolic link"},
		{"link, forced", link, true, ""},
		{"root", "/", false, "root folder"},
		{"root, forced", "/", true, "root folder"},
		{"root, dotted", "/tmp/..", true, "root folder"},
	} {
		err := CheckOutDir("--x", tc.dir, tc.force, "capacity-scheduler.xml")
		if (tc.want == "") != (err == nil) || (err != nil && (!strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "--x "))) {
			t.Errorf("%s: CheckOutDir(%s): %v, want %q", tc.name, tc.dir, err, tc.want)
		}
	}
	if _, err := os.Stat(missing); err == nil {
		t.Error("a check created the folder")
	}
	if err := MakeOutDir("--x", missing); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(missing); err != nil || !st.IsDir() {
		t.Errorf("MakeOutDir: %v", err)
	}
	if err := MakeOutDir("--x", filepath.Join(foreign, "precious.txt", "sub")); err == nil || !strings.HasPrefix(err.Error(), "--x ") {
		t.Errorf("a folder under a file: %v, want an error naming the flag", err)
	}
	for _, tc := range []struct {
		name  string
		path  string
		force bool
		want  string
	}{
		{"in a missing folder", filepath.Join(dir, "a", "b", "x.parquet"), false, ""},
		{"in a folder of other files", filepath.Join(foreign, "x.parquet"), false, ""},
		{"existing", filepath.Join(foreign, "precious.txt"), false, "file exists"},
		{"existing, forced", filepath.Join(foreign, "precious.txt"), true, ""},
		{"a folder", empty, true, "a folder, not a file"},
		{"in the root", "/x.parquet", true, "root folder"},
		{"in a link", filepath.Join(link, "x.parquet"), false, "symbolic link"},
	} {
		err := CheckOutPath("--y", tc.path, tc.force)
		if (tc.want == "") != (err == nil) || (err != nil && (!strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "--y "))) {
			t.Errorf("%s: CheckOutPath(%s): %v, want %q", tc.name, tc.path, err, tc.want)
		}
	}
}

// A step that may run again (a shard, a merge) writes its output so that
// a re-run with the same bytes succeeds, leaving the file alone, and one
// with other bytes is refused naming the file, unless forced.
func TestOutWriteRerun(t *testing.T) {
	p := filepath.Join(t.TempDir(), "sweep", "part-0.parquet")
	if _, err := CheckRerunOutFile(p, false); err != nil {
		t.Fatal(err)
	}
	if unchanged, err := WriteOutRerun("--out", p, false, []byte("rows")); err != nil || unchanged {
		t.Fatalf("first write: %v, unchanged %v", err, unchanged)
	}
	st, _ := os.Stat(p)
	if _, err := CheckRerunOutFile(p, false); err != nil {
		t.Errorf("a re-run's existing output refused up front: %v", err)
	}
	if unchanged, err := WriteOutRerun("--out", p, false, []byte("rows")); err != nil || !unchanged {
		t.Errorf("same bytes again: %v, unchanged %v; want accepted, unchanged", err, unchanged)
	}
	if st2, _ := os.Stat(p); !os.SameFile(st, st2) {
		t.Error("same bytes again: the file was replaced")
	}
	if _, err := WriteOutRerun("--out", p, false, []byte("other rows")); err == nil || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), "other contents") {
		t.Errorf("other bytes: %v, want refused naming %s", err, p)
	}
	if _, err := WriteOutRerun("--out", p, true, []byte("other rows")); err != nil {
		t.Errorf("other bytes, forced: %v", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "other rows" {
		t.Errorf("forced: file holds %q", b)
	}
}

// A merge that waits finds the parts its quoted glob names as the shards
// write them, and merges once none is missing; without waiting, or when
// the wait ends first, it fails naming what is missing; a foreign part
// fails at once.
func TestSweepMergeWaits(t *testing.T) {
	in, err := inputs.ReadInput(inputs.InputOptions{Trace: "embedded:fb2009-50"})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var parts [][]byte
	for i := range 3 {
		s := &sweep.Sweep{Jobs: in.Jobs, Spec: cluster.DefaultSpec(), Policies: []string{"srpt", "ps"}, Errors: "lognormal",
			Settings: sweep.SweepGrid([]float64{0, 0.5}, []float64{0.9}, []float64{4}), Runs: 3, Seed: 1, Shard: i, Shards: 3}
		tab, err := s.Run(context.Background(), experiment.RunOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		if err := data.WriteTable(&b, tab, data.FormatParquet); err != nil {
			t.Fatal(err)
		}
		parts = append(parts, []byte(b.String()))
	}
	write := func(i int) {
		if err := os.WriteFile(filepath.Join(dir, "part-"+string(rune('0'+i))+".parquet"), parts[i], 0o644); err != nil {
			t.Error(err)
		}
	}
	glob := []string{filepath.Join(dir, "part-*.parquet")}
	if _, _, err := sweep.WaitMergeSweepFiles(context.Background(), glob, 0, time.Millisecond); !errors.Is(err, experiment.ErrPartsMissing) {
		t.Errorf("no part, no wait: %v, want ErrPartsMissing", err)
	}
	write(0)
	if _, _, err := sweep.WaitMergeSweepFiles(context.Background(), glob, 30*time.Millisecond, 5*time.Millisecond); !errors.Is(err, experiment.ErrPartsMissing) || !strings.Contains(err.Error(), "after waiting") {
		t.Errorf("parts missing past the wait: %v", err)
	}
	go func() {
		time.Sleep(20 * time.Millisecond)
		write(1)
		time.Sleep(20 * time.Millisecond)
		write(2)
	}()
	tab, names, err := sweep.WaitMergeSweepFiles(context.Background(), glob, time.Minute, 5*time.Millisecond)
	if err != nil || len(names) != 3 || tab.Len() != 2*3*2 {
		t.Fatalf("waited merge: %v, parts %v", err, names)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := sweep.WaitMergeSweepFiles(ctx, []string{filepath.Join(dir, "none-*.parquet")}, time.Hour, time.Millisecond); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled wait: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "part-9.parquet"), []byte("not parquet"), 0o644); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if _, _, err := sweep.WaitMergeSweepFiles(context.Background(), glob, time.Hour, time.Millisecond); err == nil || errors.Is(err, experiment.ErrPartsMissing) || time.Since(start) > 10*time.Second {
		t.Errorf("a foreign file: %v after %v, want an error at once", err, time.Since(start))
	}
}
