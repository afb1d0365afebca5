package prism

// Metrics of seed 004 §6.3: ANP and unfairness (after Quincy, Isard et al.
// SOSP 2009, the paper's [13]) and per-resource utilisation over time.

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat"
)

// ANP returns each job's normalised performance, ideal[j]/actual[j]
// (seed 004 §6.3: "the ratio between the ideal job running time (when the
// job is given sufficient capacity to run at full speed) to actual job
// running time"), appended to dst. Running times are in seconds; an ideal
// time must be finite and ≥ 0, an actual time finite and > 0.
func ANP(dst, ideal, actual []float64) ([]float64, error) {
	if len(ideal) != len(actual) {
		return dst, fmt.Errorf("anp: %d ideal running times but %d actual ones", len(ideal), len(actual))
	}
	for j := range ideal {
		i, a := ideal[j], actual[j]
		if !(i >= 0) || math.IsInf(i, 0) {
			return dst, fmt.Errorf("anp: job %d: ideal running time must be a finite number ≥ 0 s, got %v", j, i)
		}
		if !(a > 0) || math.IsInf(a, 0) {
			return dst, fmt.Errorf("anp: job %d: actual running time must be a finite number > 0 s, got %v", j, a)
		}
		dst = append(dst, i/a)
	}
	return dst, nil
}

// ANPSummary summarises the ANP values of a batch of jobs.
type ANPSummary struct {
	// MeanANP is the mean ANP (dimensionless; 1 = every job ran as fast as
	// alone on a sufficient cluster).
	MeanANP float64 `json:"mean_anp"`
	// Unfairness is the coefficient of variation of the ANP values,
	// population standard deviation / mean (seed 004 §6.3: "a small CV of
	// ANP values indicates a high level of fairness"); NaN when the mean
	// is 0.
	Unfairness float64 `json:"unfairness"`
}

// SummariseANP summarises ANP values; the zero value for no jobs.
func SummariseANP(anp []float64) ANPSummary {
	if len(anp) == 0 {
		return ANPSummary{}
	}
	mean, std := stat.PopMeanStdDev(anp, nil)
	cv := math.NaN()
	if mean > 0 {
		cv = std / mean
	}
	return ANPSummary{MeanANP: mean, Unfairness: cv}
}

// A UsageTrace records a resource usage that is constant between events —
// a step function, as an event-driven simulation produces it — and gives
// time-weighted utilisation (seed 004 §6.3, Figs. 17–19).
type UsageTrace struct {
	// Capacity is what utilisation is a fraction of (e.g. the cluster's
	// total capacity).
	Capacity Vector
	// T[i] is when Used[i] starts; it holds until T[i+1] (or the end).
	T    []float64
	Used []Vector
}

// Record notes that usage is used from time t on (s); t must not precede
// the last recorded time. A record at the last time replaces it.
func (u *UsageTrace) Record(t float64, used Vector) error {
	if math.IsNaN(t) || math.IsInf(t, 0) {
		return fmt.Errorf("usage trace: time must be finite, got %v s", t)
	}
	if err := used.Check("usage trace: usage"); err != nil {
		return err
	}
	if n := len(u.T); n > 0 {
		switch last := u.T[n-1]; {
		case t < last:
			return fmt.Errorf("usage trace: time %v s precedes the last record at %v s", t, last)
		case t == last:
			u.Used[n-1] = used
			return nil
		case used == u.Used[n-1]:
			return nil // the step function goes on unchanged
		}
	}
	u.T = append(u.T, t)
	u.Used = append(u.Used, used)
	return nil
}

// MeanOver returns the time-weighted mean utilisation of each resource over
// [a, b] (fractions of Capacity; 0 where Capacity is 0). Usage before the
// first record counts as 0. b must exceed a.
func (u *UsageTrace) MeanOver(a, b float64) (Vector, error) {
	var m Vector
	if !(b > a) || math.IsInf(a, 0) || math.IsInf(b, 0) {
		return m, fmt.Errorf("usage trace: window [%v, %v] s is empty or not finite", a, b)
	}
	for i, t0 := range u.T {
		t1 := b
		if i+1 < len(u.T) {
			t1 = min(u.T[i+1], b)
		}
		if w := t1 - max(t0, a); w > 0 {
			m = m.Add(u.Used[i].Scale(w))
		}
	}
	for d := range m {
		if u.Capacity[d] > 0 {
			m[d] /= u.Capacity[d] * (b - a)
		} else {
			m[d] = 0
		}
	}
	return m, nil
}
