package data

import (
	"os"
	"path/filepath"
	"testing"
)

const swimWithPaths = "testdata/corpus/swim/FB-2010_samples_24_times_1hr_withInputPaths_0_first200.tsv"

// TestTSVWithPaths reads SWIM's own 9-column trace (the first 200 of the
// 25,428 jobs of FB-2010_samples_24_times_1hr_withInputPaths_0.tsv, as
// WorkloadSynthesis.pl wrote them: six columns, the input path, an empty
// output path and a trailing tab) by its .tsv name and, under the name
// without extension, by its content; the swim-full reader names the
// format to use; rows of other widths are refused with their row.
func TestTSVWithPaths(t *testing.T) {
	j, err := ReadFile(swimWithPaths, ReadOptions{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	in, _ := j.InputBytes.At(1)
	sh, _ := j.ShuffleBytes.At(1)
	out, _ := j.OutputBytes.At(1)
	if j.Len() != 200 || j.ID.At(1) != "job1" || j.Submit[1] != 2 || in != 20791551476 || sh != 12295202125 || out != 1491950225 || j.Submit[199] != 1084 {
		t.Errorf("%d jobs; job 1 %s at %v: %d %d %d; last at %v", j.Len(), j.ID.At(1), j.Submit[1], in, sh, out, j.Submit[199])
	}
	raw, err := os.ReadFile(swimWithPaths)
	if err != nil {
		t.Fatal(err)
	}
	bare := filepath.Join(t.TempDir(), "FB-2010_samples_24_times_1hr_withInputPaths_0")
	if err := os.WriteFile(bare, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	if f, err := DetectFormat(bare); f != FormatTSV || err != nil {
		t.Errorf("detected %q, %v", f, err)
	}
	k, err := ReadFile(bare, ReadOptions{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	k.Source = j.Source
	if d := diffJobs(j, k, nil); d != "" {
		t.Errorf("without extension: %s", d)
	}
	for _, tc := range []struct {
		row string
		col string
		msg string
	}{
		{"job0\t1\t1\t2\t3\n", ColOutputBytes, "has 5"},
		{"job0\t1\t1\t2\t3\t4\tinputPath1\t\tx\n", "", "has 9"},
		{"job0\t1\t1\t2\t3\t4\tinputPath1\t\t\t\n", "", "has 10"},
	} {
		_, err := ReadBytes([]byte("job9\t0\t0\t1\t1\t1\n"+tc.row), "x.tsv", ReadOptions{Format: FormatTSV})
		checkInputError(t, err, "x.tsv", 2, tc.col, tc.msg)
	}
	for _, row := range []string{"job0\t1\t1\t2\t3\t4\n", "job0\t1\t1\t2\t3\t4\t\n", "job0\t1\t1\t2\t3\t4\tinputPath1\toutputPath1\n", "job0\t1\t1\t2\t3\t4\t\toutputPath1\t\n"} {
		if _, err := ReadBytes([]byte(row), "x.tsv", ReadOptions{Format: FormatTSV}); err != nil {
			t.Errorf("%q: %v", row, err)
		}
	}
}
