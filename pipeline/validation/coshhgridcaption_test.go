package validation

import (
	"strings"
	"testing"

	"github.com/schedplan/schedplan/pipeline/bundle"
)

// The tuning grid's caption names the jobs the grid simulated (the
// tuning window's last SimJobs, cut by COSHHGridMaxJobs and
// COSHHGridMaxTasks), not "the second half of the tuning window".
func TestCOSHHGridCaption(t *testing.T) {
	v := &COSHHValidation{K: 2, Tolerance: 0.5, FitJobs: 50000, SimJobs: 2000, Grid: []COSHHGridPoint{{K: 2, Tolerance: 0.5, MeanCompletion: 1}}}
	s, err := COSHHSection(v, &bundle.COSHHConfig{K: 2, Tolerance: 0.5, FittedOn: 84000, Types: []string{"node"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tb := range s.Tables {
		if strings.HasPrefix(tb.Caption, "Tuning grid") {
			if !strings.Contains(tb.Caption, "last 2000 jobs, fitted on the 50000 before them") || strings.Contains(tb.Caption, "second half") {
				t.Errorf("grid caption: %q", tb.Caption)
			}
			return
		}
	}
	t.Error("no tuning grid table")
}
