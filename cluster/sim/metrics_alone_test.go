package sim

import (
	"fmt"
	"strings"
	"testing"
)

// TestMetricsAloneOfOtherJobs: Metrics whose Alone holds the times of
// another number of jobs (a stale one, another run's) refuses to compute
// instead of dividing by other jobs' times.
func TestMetricsAloneOfOtherJobs(t *testing.T) {
	jobs := []Job{{Arrival: 0, Size: 1}, {Arrival: 0, Size: 2}}
	for _, times := range [][]float64{{1}, {1, 2, 3}} {
		m := &Metrics{Alone: Alone{Times: times}}
		func() {
			defer func() {
				if e := recover(); e == nil || !strings.Contains(fmt.Sprint(e), "times alone for 2 jobs") {
					t.Errorf("%d times alone for 2 jobs: %v, want a panic naming both", len(times), e)
				}
			}()
			m.Compute(jobs, []float64{1, 3}, 1, nil)
		}()
	}
}
