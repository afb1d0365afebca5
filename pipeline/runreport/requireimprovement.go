package runreport

import (
	"errors"
	"fmt"
)

// RequireImprovement is --require-improvement's check: it passes only
// when the run's one verdict (DeployVerdict, task level) is to deploy. A
// result without a verdict (no tune-deploy stage) fails.
func (res *RunResult) RequireImprovement() error {
	if v := res.Deploy; v.Deploy() {
		return nil
	} else if v != nil {
		return fmt.Errorf("--require-improvement: %s", v.Sentence())
	}
	return errors.New("--require-improvement: the run has no verdict (the tune-deploy stage did not run)")
}
