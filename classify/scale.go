package classify

import (
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// Method is how one feature is scaled before clustering.
type Method string

// Scaling methods.
const (
	// Auto picks Log for heavy-tailed features (sizes, durations, bytes,
	// task-seconds, task counts) and ZScore for the others (priority).
	Auto Method = ""
	// None leaves the feature as it is.
	None Method = "none"
	// ZScore subtracts the mean and divides by the standard deviation; a
	// constant feature (standard deviation 0) becomes 0 everywhere.
	ZScore Method = "z"
	// Log applies log1p (sign-preserving for negative values: −log1p(−x)),
	// then ZScore. Job features span many orders of magnitude; without the
	// log the largest jobs alone decide the clusters.
	Log Method = "log"
	// LogUnit divides by a unit fitted on the feature — its smallest
	// positive magnitude — then applies Log. It is the default of the
	// paper features' rates (jobs/s): values far below 1, where log1p
	// alone would be linear, spread over orders of magnitude like sizes.
	LogUnit Method = "logunit"
)

// ParseMethod parses "log", "z" (or "zscore"), "none" or "auto".
func ParseMethod(s string) (Method, error) {
	switch s {
	case "", "auto":
		return Auto, nil
	case "none":
		return None, nil
	case "z", "zscore", "z-score":
		return ZScore, nil
	case "log":
		return Log, nil
	case "logunit":
		return LogUnit, nil
	}
	return "", fmt.Errorf("scaling %q: want log, logunit, z, none or auto", s)
}

// ParseScaling parses a scaling flag: one method for every feature ("log"),
// or per-feature methods ("size=z,priority=none"), or both, the bare method
// first ("log,priority=z").
func ParseScaling(s string) (all Method, per map[string]Method, err error) {
	for q, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		name, m, found := strings.Cut(part, "=")
		if !found {
			if q > 0 {
				return "", nil, fmt.Errorf("scaling %q: the method for every feature must come first", s)
			}
			if all, err = ParseMethod(part); err != nil {
				return "", nil, err
			}
			continue
		}
		name = strings.TrimSpace(name)
		if !knownFeature(name) {
			return "", nil, fmt.Errorf("scaling %q: unknown feature %q", s, name)
		}
		method, err := ParseMethod(strings.TrimSpace(m))
		if err != nil {
			return "", nil, err
		}
		if per == nil {
			per = map[string]Method{}
		}
		if _, dup := per[name]; dup {
			return "", nil, fmt.Errorf("scaling %q: feature %q given twice", s, name)
		}
		per[name] = method
	}
	return all, per, nil
}

// Scaling is a fitted per-feature transform: feature j becomes
// (f_j(x) − Mean[j]) / Std[j], where f_j is log1p for Log, log1p(x/Unit[j])
// for LogUnit and the identity otherwise; None has Mean 0 and Std 1. Std is
// 1 for a constant feature. Unit is nil when no feature uses LogUnit.
type Scaling struct {
	Methods []Method  `json:"methods"`
	Mean    []float64 `json:"mean"`
	Std     []float64 `json:"std"`
	Unit    []float64 `json:"unit,omitempty"`
}

func slog1p(v float64) float64 {
	if v < 0 {
		return -math.Log1p(-v)
	}
	return math.Log1p(v)
}

func sexpm1(v float64) float64 {
	if v < 0 {
		return -math.Expm1(-v)
	}
	return math.Expm1(v)
}

// FitScaling fits the scaling of each column of x with the given methods
// (one per column; Auto is not allowed here: resolve it first).
func FitScaling(x *mat.Dense, methods []Method) (Scaling, error) {
	s, _, err := fitApply(x, methods, false)
	return s, err
}

// fitApply fits the scaling and, when apply is set, scales x in place and
// returns it too, transforming every value once: a classification of
// millions of rows holds one feature matrix, not the raw one and its
// scaled copy, nor a column of it (a 10 M-row column is 76 MB: classify's
// peak). Without apply, x is left as it is and each column is read into
// one buffer. The sums run in row order either way: the same bits.
func fitApply(x *mat.Dense, methods []Method, apply bool) (Scaling, *mat.Dense, error) {
	n, d := x.Dims()
	if len(methods) != d {
		return Scaling{}, nil, fmt.Errorf("scaling: %d methods for %d features", len(methods), d)
	}
	for j, m := range methods {
		switch m {
		case None, ZScore, Log, LogUnit:
		default:
			return Scaling{}, nil, fmt.Errorf("scaling: feature %d: unknown method %q", j+1, m)
		}
	}
	s := Scaling{Methods: append([]Method(nil), methods...), Mean: make([]float64, d), Std: make([]float64, d)}
	raw := x.RawMatrix()
	var col []float64 // column j of x, transformed (without apply)
	if !apply {
		col = make([]float64, n)
	}
	for j, m := range methods {
		// v is column j's values: a stride of x, or col.
		v, stride := raw.Data[min(j, len(raw.Data)):], raw.Stride
		if !apply {
			mat.Col(col, j, x)
			v, stride = col, 1
		}
		if m == LogUnit {
			if s.Unit == nil {
				s.Unit = make([]float64, d)
			}
			s.Unit[j] = smallestMagnitude(v, n, stride)
		}
		if m == Log || m == LogUnit {
			forRowBlocks(n, func(lo, hi int) {
				for i := lo; i < hi; i++ {
					v[i*stride] = s.nonlinear(j, v[i*stride])
				}
			})
		}
		mean, std := 0.0, 1.0
		if m != None {
			// Two-pass mean and (population) variance, in row order.
			sum := 0.0
			for i := range n {
				sum += v[i*stride]
			}
			mean = sum / float64(max(n, 1))
			ss := 0.0
			for i := range n {
				e := v[i*stride] - mean
				ss += e * e
			}
			std = math.Sqrt(ss / float64(max(n, 1)))
			// A feature constant up to rounding would otherwise blow
			// rounding noise up to unit variance.
			if !(std > 1e-12*math.Max(1, math.Abs(mean))) {
				std = 1
			}
		}
		s.Mean[j], s.Std[j] = mean, std
		if apply {
			forRowBlocks(n, func(lo, hi int) {
				for i := lo; i < hi; i++ {
					v[i*stride] = (v[i*stride] - mean) / std
				}
			})
		}
	}
	if !apply {
		return s, nil, nil
	}
	return s, x, nil
}

// smallestMagnitude returns the smallest positive |v| of the n values
// col[0], col[stride], …, 1 when none.
func smallestMagnitude(col []float64, n, stride int) float64 {
	u := math.Inf(1)
	for i := range n {
		if a := math.Abs(col[i*stride]); a > 0 && a < u {
			u = a
		}
	}
	if math.IsInf(u, 1) {
		return 1
	}
	return u
}

// nonlinear applies feature j's log transform (Log, LogUnit) or none.
func (s *Scaling) nonlinear(j int, v float64) float64 {
	switch s.Methods[j] {
	case Log:
		return slog1p(v)
	case LogUnit:
		return slog1p(v / s.Unit[j])
	}
	return v
}

// forward applies feature j's nonlinearity and, unless raw, its centring and
// scaling.
func (s *Scaling) forward(j int, v float64, raw bool) float64 {
	v = s.nonlinear(j, v)
	if raw {
		return v
	}
	return (v - s.Mean[j]) / s.Std[j]
}

// Apply returns the scaled copy of x.
func (s *Scaling) Apply(x *mat.Dense) *mat.Dense {
	n, d := x.Dims()
	out := mat.NewDense(n, d, nil)
	raw := out.RawMatrix()
	for i := 0; i < n; i++ {
		row := raw.Data[i*raw.Stride : i*raw.Stride+d]
		for j := range row {
			row[j] = s.forward(j, x.At(i, j), false)
		}
	}
	return out
}

// Transform scales one row (original units) into dst, which it returns.
func (s *Scaling) Transform(dst, row []float64) []float64 {
	dst = append(dst[:0], row...)
	for j := range dst {
		dst[j] = s.forward(j, dst[j], false)
	}
	return dst
}

// Inverse maps one scaled row back to original units (into dst).
func (s *Scaling) Inverse(dst, row []float64) []float64 {
	dst = append(dst[:0], row...)
	for j, v := range dst {
		v = v*s.Std[j] + s.Mean[j]
		switch s.Methods[j] {
		case Log:
			v = sexpm1(v)
		case LogUnit:
			v = s.Unit[j] * sexpm1(v)
		}
		dst[j] = v
	}
	return dst
}
