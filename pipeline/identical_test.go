package pipeline_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/schedplan/schedplan/pipeline"
	"github.com/schedplan/schedplan/pipeline/inputs"
)

var update = flag.Bool("update", false, "rewrite testdata/identical.sha256 from this run (TestRunOutputsIdentical)")

// identicalGolden lists the sha256 of every file `schedplan run` writes with
// its defaults on the embedded trace.
const identicalGolden = "testdata/identical.sha256"

// volatile masks the parts of an output that may differ between two runs of
// the same code: none today. Every output, the stage stamps under
// .schedplan/ included, was checked byte-identical across two runs into two
// directories: no output holds a wall time, a host name or an absolute path
// (the run's time is printed, never written; the directory is not recorded).
// The lock file (.schedplan/lock, empty, held while a run writes) is
// skipped. Should an output gain such a field, mask it here by file name.
var volatile = map[string][]*regexp.Regexp{}

// mask returns b with the volatile fields of file name replaced by "#".
func mask(name string, b []byte) []byte {
	for _, re := range volatile[name] {
		b = re.ReplaceAll(b, []byte("#"))
	}
	return b
}

// TestRunOutputsIdentical is the guard of issue 27 (splitting package
// pipeline): `schedplan run` with its defaults on the embedded trace writes
// every output byte for byte as the golden list says. Run with -update to
// record a deliberate change of the outputs (and say why in the commit).
func TestRunOutputsIdentical(t *testing.T) {
	if testing.Short() {
		t.Skip("one full run with the defaults")
	}
	dir := filepath.Join(t.TempDir(), "out")
	in, err := pipeline.Prepare(inputs.DefaultRunConfig())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pipeline.Run(context.Background(), in, &pipeline.Runner{Dir: dir}); err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		name, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		name = filepath.ToSlash(name)
		if name == ".schedplan/lock" {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		fmt.Fprintf(&got, "%x  %s\n", sha256.Sum256(mask(name, b)), name)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(identicalGolden, got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(identicalGolden)
	if err != nil {
		t.Fatalf("%v (run with -update to record it)", err)
	}
	wl, gl := lines(string(want)), lines(got.String())
	for _, l := range wl {
		if !slices.Contains(gl, l) {
			t.Errorf("%s: want %s; the run wrote a different or no such file", identicalGolden, l)
		}
	}
	for _, l := range gl {
		if !slices.Contains(wl, l) {
			t.Errorf("run wrote %s, not in %s", l, identicalGolden)
		}
	}
}

// lines returns the non-empty lines of s.
func lines(s string) []string {
	return slices.DeleteFunc(strings.Split(s, "\n"), func(l string) bool { return l == "" })
}
