package sim

import (
	"fmt"
	"math"
)

// Alone is what the slowdowns of a run are over, when it is not the
// fluid server's time alone, Size ÷ capacity: the task level's times
// alone, which count a job's task granularity and stage barriers
// (task.FluidAlone), and a floor. It is a metric input beside the jobs,
// not a field of each Job, which every policy's run would carry for
// nothing. The zero value is the fluid server's.
type Alone struct {
	// Times, when not nil, holds one time alone per job of the run, in
	// seconds: the denominator of job i's slowdown when Times[i] is
	// positive (0: Size ÷ capacity).
	Times []float64
	// Floor, when positive, bounds the slowdown's denominator below, in
	// seconds: the slowdown is response / max(alone, min(response,
	// Floor)) — the bounded slowdown of Feitelson et al. (a job that
	// responds within the floor counts 1, or its response / alone when it
	// beat its time alone).
	Floor float64
}

// Slowdown is the slowdown of job j, job i of the run, at response r on
// capacity c, as Metrics.Slowdown holds it: NaN for a zero-size job. A
// caller that reads a run's slowdowns one at a time (a results file's
// rows) computes them with it instead of keeping a column of them.
func (a *Alone) Slowdown(i int, j *Job, r, c float64) float64 {
	if !(j.Size > 0) {
		return math.NaN()
	}
	return a.slowdown(i, j.Size, r, c)
}

// slowdown is response r of job i, of the given size, over its time
// alone (Times[i] when set, else size ÷ capacity c), the denominator at
// least min(r, Floor).
func (a *Alone) slowdown(i int, size, r, c float64) float64 {
	d := size / c
	if a.Times != nil && a.Times[i] > 0 {
		d = a.Times[i]
	}
	if a.Floor > 0 {
		d = max(d, min(r, a.Floor))
	}
	return r / d
}

// Check validates a's times for a run of n jobs: none or n of them, each
// finite and non-negative, and a finite non-negative floor. Errors name
// the job (1-based, as a row).
func (a *Alone) Check(n int) error {
	if a.Times != nil && len(a.Times) != n {
		return fmt.Errorf("%d times alone for %d jobs", len(a.Times), n)
	}
	for i, t := range a.Times {
		if !(t >= 0) || math.IsInf(t, 0) {
			return fmt.Errorf("job %d: time alone %v is not a finite non-negative number", i+1, t)
		}
	}
	if !(a.Floor >= 0) || math.IsInf(a.Floor, 0) {
		return fmt.Errorf("slowdown floor %v is not a finite non-negative number", a.Floor)
	}
	return nil
}
