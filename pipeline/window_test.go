package pipeline

import (
	"strings"
	"testing"

	"github.com/schedplan/schedplan/pipeline/experiment"
)

// TestSmallWindowWarning checks the warning's threshold on both windows,
// and that Prepare puts it in the run's warnings (summary.json) for the
// embedded 50-job trace (tuned on 35 jobs, validated on 15) and not for the
// full embedded trace (5894 jobs).
func TestSmallWindowWarning(t *testing.T) {
	for _, tc := range []struct {
		tune, valid int
		warn        bool
	}{
		{2, 1, true},
		{experiment.MinWindowJobs - 1, 500, true},
		{500, experiment.MinWindowJobs - 1, true},
		{experiment.MinWindowJobs, experiment.MinWindowJobs, false},
	} {
		w := experiment.SmallWindowWarning(experiment.Split{TuneJobs: tc.tune, ValidJobs: tc.valid})
		if (w != "") != tc.warn || (tc.warn && !strings.Contains(w, "fewer than 100 jobs")) {
			t.Errorf("%d/%d jobs: %q", tc.tune, tc.valid, w)
		}
	}
	for _, tc := range []struct {
		trace string
		warn  bool
	}{{"embedded:fb2009-50", true}, {"embedded", false}} {
		cfg := testConfig()
		cfg.Trace = tc.trace
		in, err := Prepare(cfg)
		if err != nil {
			t.Fatal(err)
		}
		got := false
		for _, w := range in.Warnings {
			got = got || strings.HasPrefix(w, "SMALL WINDOWS")
		}
		if got != tc.warn {
			t.Errorf("%s (%d + %d jobs): warnings %q", tc.trace, in.Split.TuneJobs, in.Split.ValidJobs, in.Warnings)
		}
	}
}
