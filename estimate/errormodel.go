package estimate

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// ErrorKind names a size-estimation error model.
type ErrorKind string

// Error models.
const (
	Exact     ErrorKind = "exact"     // ŝ = s
	LogNormal ErrorKind = "lognormal" // ŝ = s·X, X ~ LogN(0, σ²) (seed 001)
	Uniform   ErrorKind = "uniform"   // ŝ = s·(1+E), E ~ U[−I, I] (seed 003)
)

// ErrorModel describes how a scheduler's size estimates differ from the
// true sizes.
type ErrorModel struct {
	Kind ErrorKind
	// Sigma is the log-normal model's σ (≥ 0).
	Sigma float64
	// I is the uniform model's half-width, in [0, 1] so that estimates stay
	// non-negative.
	I float64
}

// MaxSigma is the largest log-normal σ: an estimate is size·e^(σZ), and
// at σ = 1e308 it overflowed to +Inf in the middle of a run. At σ = 10 a
// 3σ draw is already a factor of 10¹³.
const MaxSigma = 10

// Validate checks the model's parameters.
func (m ErrorModel) Validate() error {
	switch m.Kind {
	case Exact, "":
		return nil
	case LogNormal:
		if !(m.Sigma >= 0 && m.Sigma <= MaxSigma) {
			return fmt.Errorf("log-normal error: sigma %v is not a number in [0, %g]", m.Sigma, float64(MaxSigma))
		}
		return nil
	case Uniform:
		if !(m.I >= 0 && m.I <= 1) {
			return fmt.Errorf("uniform error: I %v is not in [0, 1] (an estimate must not be negative)", m.I)
		}
		return nil
	}
	return fmt.Errorf("unknown error model %q (known: %s, %s, %s)", m.Kind, Exact, LogNormal, Uniform)
}

// IsExact reports whether the model leaves sizes unchanged.
func (m ErrorModel) IsExact() bool {
	return m.Kind == Exact || m.Kind == "" || (m.Kind == LogNormal && m.Sigma == 0) || (m.Kind == Uniform && m.I == 0)
}

func (m ErrorModel) String() string {
	switch m.Kind {
	case LogNormal:
		return fmt.Sprintf("lognormal(sigma=%g)", m.Sigma)
	case Uniform:
		return fmt.Sprintf("uniform(I=%g)", m.I)
	}
	return string(Exact)
}

// RunRand returns the random source of run number run of an experiment
// seeded with seed: a PCG generator seeded with (seed, run). Runs are thus
// reproducible one by one, whatever order or goroutine they run in.
func RunRand(seed, run uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, run))
}

// Apply writes into est (len(sizes), reused when large enough) one estimate
// per size, drawing from rng in job order (Draw), and returns it. The
// exact model copies the sizes and draws nothing.
func (m ErrorModel) Apply(sizes []float64, rng *rand.Rand, est []float64) []float64 {
	if cap(est) < len(sizes) {
		est = make([]float64, len(sizes))
	}
	est = est[:len(sizes)]
	for i, s := range sizes {
		est[i] = m.Draw(s, rng)
	}
	return est
}

// Draw returns one estimate of a job of the given size, drawing from rng
// (nothing for the exact model, which returns the size): the draws of
// Apply, one at a time, for callers that keep their estimates elsewhere
// than in a slice of their own.
func (m ErrorModel) Draw(size float64, rng *rand.Rand) float64 {
	switch {
	case m.IsExact():
		return size
	case m.Kind == LogNormal:
		return size * math.Exp(m.Sigma*rng.NormFloat64())
	case m.Kind == Uniform:
		return size * (1 + m.I*(2*rng.Float64()-1))
	}
	return size
}
