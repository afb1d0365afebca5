package estimate

import (
	"math"
	"slices"
	"testing"
)

func TestErrorModels(t *testing.T) {
	sizes := make([]float64, 20000)
	for i := range sizes {
		sizes[i] = float64(1 + i%7)
	}
	// Log-normal: log(ŝ/s) has mean 0 and standard deviation σ.
	est := ErrorModel{Kind: LogNormal, Sigma: 0.5}.Apply(sizes, RunRand(1, 0), nil)
	var m, v float64
	for i := range sizes {
		x := math.Log(est[i] / sizes[i])
		m += x
		v += x * x
	}
	m /= float64(len(sizes))
	v = v/float64(len(sizes)) - m*m
	if math.Abs(m) > 0.02 || math.Abs(math.Sqrt(v)-0.5) > 0.02 {
		t.Errorf("log-normal: mean %v, sd %v of log error", m, math.Sqrt(v))
	}
	// Uniform: ŝ/s − 1 within [−I, I], roughly uniform.
	est = ErrorModel{Kind: Uniform, I: 0.4}.Apply(sizes, RunRand(1, 0), est)
	lo, hi, mean := math.Inf(1), math.Inf(-1), 0.0
	for i := range sizes {
		e := est[i]/sizes[i] - 1
		lo, hi = math.Min(lo, e), math.Max(hi, e)
		mean += e
	}
	mean /= float64(len(sizes))
	if lo < -0.4-1e-12 || hi > 0.4+1e-12 || lo > -0.39 || hi < 0.39 || math.Abs(mean) > 0.01 {
		t.Errorf("uniform: range [%v, %v], mean %v", lo, hi, mean)
	}
	// Reproducible per (seed, run); different runs differ.
	a := ErrorModel{Kind: LogNormal, Sigma: 1}.Apply(sizes, RunRand(7, 3), nil)
	b := ErrorModel{Kind: LogNormal, Sigma: 1}.Apply(sizes, RunRand(7, 3), nil)
	c := ErrorModel{Kind: LogNormal, Sigma: 1}.Apply(sizes, RunRand(7, 4), nil)
	if !slices.Equal(a, b) || slices.Equal(a, c) {
		t.Error("estimates are not reproducible per (seed, run)")
	}
	if got := (ErrorModel{}).Apply(sizes, nil, nil); !slices.Equal(got, sizes) {
		t.Error("exact model changed sizes")
	}
}

func TestErrorModelValidate(t *testing.T) {
	for _, bad := range []ErrorModel{{Kind: LogNormal, Sigma: -1}, {Kind: LogNormal, Sigma: math.NaN()}, {Kind: Uniform, I: 1.5}, {Kind: Uniform, I: -0.1}, {Kind: "gauss"}, {Kind: LogNormal, Sigma: 1e308}, {Kind: LogNormal, Sigma: MaxSigma + 1}} {
		if bad.Validate() == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
	for _, ok := range []ErrorModel{{}, {Kind: LogNormal, Sigma: 0.5}, {Kind: Uniform, I: 1}} {
		if err := ok.Validate(); err != nil {
			t.Errorf("%+v: %v", ok, err)
		}
	}
}
