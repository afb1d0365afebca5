package logs

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"

	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/data/sls"
	"github.com/schedplan/schedplan/data/spark"
)

// corpusCase is a real public log checked in under testdata (see
// testdata/corpus/README.md and testdata/logs/README.md for where each
// comes from and its licence) with the counts it must read as.
type corpusCase struct {
	path        string
	opt         data.ReadOptions
	jobs, tasks int
	dropped     string // a drop reason the summary must hold ("": none)
}

var corpus = []corpusCase{
	// Apache Spark 3 on Kubernetes, rolling event logs from the examples
	// of kubeflow/mcp-apache-spark-history-server: PythonPi (1 job, 2
	// tasks) and NewYorkTaxiData (6 jobs, 39 tasks; zstd, Spark's codec).
	{path: "../testdata/corpus/spark/eventlog_v2_spark-bcec39f6201b42b9925124595baad260", jobs: 1, tasks: 2},
	{path: "../testdata/corpus/spark/eventlog_v2_spark-110be3a8424d4a2789cb88134418217b", jobs: 1, tasks: 39},
	{path: "../testdata/corpus/spark/eventlog_v2_spark-110be3a8424d4a2789cb88134418217b", opt: data.ReadOptions{Log: data.LogOptions{Spark: data.SparkJob}}, jobs: 6, tasks: 39},
	{path: "../testdata/corpus/spark", jobs: 2, tasks: 41, dropped: "not a Spark event log (file skipped)"}, // the licence beside them
	{path: "../testdata/corpus/spark", opt: data.ReadOptions{Log: data.LogOptions{Spark: data.SparkJob}}, jobs: 7, tasks: 41, dropped: "not a Spark event log (file skipped)"},
	// Apache Spark 1.2's test resource, as a file and as Spark 1.x's directory.
	{path: "../testdata/logs/spark/local-1426633911242", jobs: 1, tasks: 8},
	{path: "../testdata/logs/spark/spark1-dir", jobs: 1, tasks: 8},
	// Apache Hadoop's SLS test trace.
	{path: "../testdata/logs/sls/inputsls.json", opt: data.ReadOptions{Format: sls.Name}, jobs: 2, tasks: 5},
	// SWIM's own FB-2010 trace with paths (its first 200 jobs).
	{path: "../testdata/corpus/swim/FB-2010_samples_24_times_1hr_withInputPaths_0_first200.tsv", jobs: 200, tasks: -1},
}

// TestCorpus reads every real public log of the corpus, with the format
// detected from the content unless given, and checks its job and task
// counts; the Spark counts are also counted here from the raw events.
func TestCorpus(t *testing.T) {
	for _, c := range corpus {
		name := c.path + " " + string(c.opt.Log.Spark)
		if c.tasks < 0 { // a jobs table
			j, err := data.ReadFile(c.path, c.opt)
			if err != nil {
				t.Errorf("%s: %v", name, err)
			} else if j.Len() != c.jobs {
				t.Errorf("%s: %d jobs, want %d", name, j.Len(), c.jobs)
			}
			continue
		}
		lg, err := data.ReadLog(c.path, c.opt)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		tasks := 0
		if lg.Tasks != nil {
			tasks = lg.Tasks.Len()
		}
		if lg.Jobs.Len() != c.jobs || tasks != c.tasks {
			t.Errorf("%s: %d jobs, %d tasks; want %d, %d\n%s", name, lg.Jobs.Len(), tasks, c.jobs, c.tasks, lg.Summary.String())
		}
		if got := lg.Summary.String(); (c.dropped == "") != (len(lg.Summary.Dropped) == 0) || !strings.Contains(got, c.dropped) {
			t.Errorf("%s: summary\n%s\nwant drop %q", name, got, c.dropped)
		}
		if lg.Summary.Format == spark.Name && c.opt.Log.Spark == "" {
			if n := countSparkEvents(t, c.path, "SparkListenerTaskEnd"); n != c.tasks {
				t.Errorf("%s: the files hold %d TaskEnd events, the test says %d", name, n, c.tasks)
			}
		}
	}
}

// countSparkEvents counts the lines of event ev under path (zstd files
// decompressed), independently of the reader.
func countSparkEvents(t *testing.T, path, ev string) int {
	n := 0
	filepath.WalkDir(path, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.Contains(p, "LICENSE") || strings.HasPrefix(d.Name(), "appstatus") {
			return err
		}
		fh, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		defer fh.Close()
		var r io.Reader = fh
		if strings.HasSuffix(p, ".zstd") {
			z, err := zstd.NewReader(fh)
			if err != nil {
				t.Fatal(err)
			}
			defer z.Close()
			r = z
		}
		sc := bufio.NewScanner(r)
		sc.Buffer(nil, 1<<24)
		for sc.Scan() {
			if strings.Contains(sc.Text(), `"Event":"`+ev+`"`) {
				n++
			}
		}
		return sc.Err()
	})
	return n
}
