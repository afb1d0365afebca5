package pipeline

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedplan/schedplan/pipeline/inputs"
)

// TestCOSHHRefitReadsHistoryAfterRelease: COSHH's validation replay
// re-classifies (coshhReplanner.replan) on the last COSHHRefitRows jobs
// seen, tuning-window rows included, and their paper features read the
// byte columns; validate's ReleaseTuningRows must keep those rows. The log
// is the embedded trace's first 3,000 jobs with the tuning window's bytes
// made narrow, so that the validation window's jobs fit no class and
// COSHH re-classifies. On the code that kept only the validation window's
// bytes the run panicked ("row 0 of column input_bytes was dropped").
func TestCOSHHRefitReadsHistoryAfterRelease(t *testing.T) {
	f, err := os.Open("../data/traces/FB-2009_samples_24_times_1hr_0.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var b strings.Builder
	b.WriteString("job_id,submit_time,input_bytes,output_bytes\n")
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan() && n <= 3000; n++ {
		c := strings.Split(sc.Text(), "\t")
		in, out := c[3], c[5]
		if n <= 2150 { // past the 0.7 split's 2,100 tuning jobs
			in, out = fmt.Sprint(1000+n%50), fmt.Sprint(2000+n%30)
		}
		fmt.Fprintf(&b, "%s,%s,%s,%s\n", c[0], c[1], in, out)
	}
	tmp := t.TempDir()
	trace := filepath.Join(tmp, "shift.csv")
	if err := os.WriteFile(trace, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := testConfig()
	cfg.Trace = trace
	cfg.Budget = 40
	in, err := Prepare(cfg)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), in, &Runner{Dir: filepath.Join(tmp, "out")})
	if err != nil {
		t.Fatal(err)
	}
	if res.COSHH == nil || len(res.COSHH.Runs) == 0 || res.COSHH.Runs[0].Replans == 0 {
		t.Fatalf("COSHH did not re-classify on the validation window: the test misses its case (%+v)", res.COSHH)
	}
	if !in.Jobs.Kept(inputs.ValidationColumns...) {
		t.Error("validate released no rows")
	}
}
