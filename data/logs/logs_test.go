package logs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/data/alibaba"
	"github.com/schedplan/schedplan/data/google"
	"github.com/schedplan/schedplan/data/jhist"
	"github.com/schedplan/schedplan/data/rmsummary"
	"github.com/schedplan/schedplan/data/sls"
	"github.com/schedplan/schedplan/data/spark"
	"github.com/schedplan/schedplan/data/swf"
	"github.com/schedplan/schedplan/data/swimfull"
)

// TestDetectFormat checks that every sample's format is told from its
// name or content, and that the canonical formats are left to ReadFile.
func TestDetectFormat(t *testing.T) {
	for path, want := range map[string]data.Format{
		"../testdata/logs/spark/local-1426633911242": spark.Name,
		"../testdata/logs/spark":                     spark.Name,
		"../testdata/logs/job_1700000000000_0001-1700000000000-bob-word+count-1700000030000-2-1-SUCCEEDED-prod-1700000002000.jhist": jhist.Name,
		"../testdata/logs/rm-app-summary.log":                      rmsummary.Name,
		"../testdata/logs/sls/inputsls.json":                       sls.Name,
		"../testdata/logs/sls/sls-extra.json":                      sls.Name,
		"../testdata/logs/sls/rumen.json":                          sls.RumenName,
		"../testdata/logs/google-2019":                             google.Name,
		"../testdata/logs/alibaba":                                 alibaba.Name,
		"../testdata/logs/alibaba/batch_task.csv":                  alibaba.Name,
		"../testdata/logs/sample.swf":                              swf.Name,
		"../testdata/logs/sample.swimfull.tsv":                     swimfull.Name,
		"../testdata/cluster-log.csv":                              data.FormatCSV,
		"../traces/FB-2009_samples_24_times_1hr_0_first50jobs.tsv": data.FormatTSV,
	} {
		got, err := data.DetectFormat(path)
		if err != nil || got != want {
			t.Errorf("DetectFormat(%s) = %q, %v; want %q", path, got, err, want)
		}
	}
	// A file of another kind says how to name its format.
	p := filepath.Join(t.TempDir(), "notes.txt")
	os.WriteFile(p, []byte("hello\n"), 0o644)
	if _, err := data.DetectFormat(p); err == nil || !strings.Contains(err.Error(), "--format") {
		t.Errorf("unknown content: %v", err)
	}
}
