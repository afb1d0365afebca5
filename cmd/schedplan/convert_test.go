package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// convertCLI runs "schedplan ARGS..." in-process (see runCmd).
func convertCLI(t *testing.T, args ...string) (string, error) {
	t.Helper()
	return runCmd(t, args[:1], args[1:]...)
}

var jobsLine = regexp.MustCompile(`(?m)^jobs\s+(\d+)$`)

// TestDescribeCounts runs describe through the real command on the embedded
// traces.
func TestDescribeCounts(t *testing.T) {
	for spec, want := range map[string]string{"embedded": "5894", "embedded:fb2009-50": "50"} {
		out, err := convertCLI(t, "describe", "--trace", spec)
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		if m := jobsLine.FindStringSubmatch(out); m == nil || m[1] != want {
			t.Errorf("describe --trace %s: jobs line %q, want %s\n%s", spec, m, want, out)
		}
	}
}

// TestConvertChain converts the embedded trace through every format and back
// to SWIM .tsv, which must equal the shipped file byte for byte; checks the
// no-overwrite rule and that the input is left alone.
func TestConvertChain(t *testing.T) {
	dir := t.TempDir()
	p := func(name string) string { return filepath.Join(dir, name) }
	steps := [][2]string{
		{"embedded", p("a.parquet")},
		{p("a.parquet"), p("b.arrow")},
		{p("b.arrow"), p("c.arrows")},
		{p("c.arrows"), p("d.csv")},
		{p("d.csv"), p("e.parquet")},
		{p("e.parquet"), p("f.tsv")},
	}
	for _, s := range steps {
		out, err := convertCLI(t, "convert", "--trace", s[0], "--out", s[1])
		if err != nil {
			t.Fatalf("%s → %s: %v", s[0], s[1], err)
		}
		if !strings.Contains(out, "wrote 5894 jobs to "+s[1]) {
			t.Errorf("convert printed %q", out)
		}
	}
	got, _ := os.ReadFile(p("f.tsv"))
	want, _ := os.ReadFile("../../data/traces/FB-2009_samples_24_times_1hr_0.tsv")
	if len(want) == 0 || !bytes.Equal(got, want) {
		t.Fatalf("embedded → Parquet → Arrow → Arrow stream → CSV → Parquet → TSV differs from the shipped trace (%d vs %d bytes)", len(got), len(want))
	}
	out, err := convertCLI(t, "describe", "--trace", p("c.arrows"))
	if err != nil || !strings.Contains(out, "5894") {
		t.Errorf("describe on the Arrow stream: %v\n%s", err, out)
	}

	before, _ := os.ReadFile(p("a.parquet"))
	if _, err := convertCLI(t, "convert", "--trace", "embedded:fb2009-50", "--out", p("a.parquet")); err == nil || !strings.Contains(err.Error(), "--force") {
		t.Errorf("overwrite without --force: %v", err)
	}
	if _, err := convertCLI(t, "convert", "--trace", p("a.parquet"), "--out", p("a.parquet"), "--force"); err == nil || !strings.Contains(err.Error(), "input") {
		t.Errorf("converting onto the input: %v", err)
	}
	if after, _ := os.ReadFile(p("a.parquet")); !bytes.Equal(before, after) {
		t.Error("a.parquet changed")
	}
	if _, err := convertCLI(t, "convert", "--trace", "embedded:fb2009-50", "--out", p("a.parquet"), "--force"); err != nil {
		t.Fatal(err)
	}
	out, _ = convertCLI(t, "describe", "--trace", p("a.parquet"))
	if m := jobsLine.FindStringSubmatch(out); m == nil || m[1] != "50" {
		t.Errorf("after --force, describe says %q", m)
	}
	// --to overrides the extension; unknown formats and extensions are errors.
	if _, err := convertCLI(t, "convert", "--trace", "embedded:fb2009-50", "--out", p("x.bin"), "--to", "csv"); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p("x.bin")); !bytes.HasPrefix(b, []byte("job_id,submit_time,")) {
		t.Errorf("--to csv wrote %.40q", b)
	}
	for _, args := range [][]string{
		{"--out", p("y.bin")},
		{"--out", p("y.parquet"), "--to", "xml"},
		{},
	} {
		if _, err := convertCLI(t, append([]string{"convert", "--trace", "embedded:fb2009-50"}, args...)...); err == nil {
			t.Errorf("convert %v accepted", args)
		}
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}
}
