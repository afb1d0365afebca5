package experiment

import (
	"errors"
	"fmt"
	"math"
	"runtime"
)

// ParamError is a parameter with a value that cannot be used. Param is the
// parameter's name as the CLI spells its flag (without dashes: "runs",
// "container-mb"), so the CLI can name the flag; the library names no flag.
type ParamError struct {
	Param string
	Value any
	Msg   string
}

func (e *ParamError) Error() string {
	return fmt.Sprintf("%s = %v: %s", e.Param, e.Value, e.Msg)
}

// ParamErr is a *ParamError for param and value, its reason formatted.
func ParamErr(param string, value any, format string, args ...any) error {
	return &ParamError{Param: param, Value: value, Msg: fmt.Sprintf(format, args...)}
}

// ErrNoOutputDir is returned by Run for a Runner without a directory.
var ErrNoOutputDir = errors.New("no output directory given")

// Limits of what a request may take before it is refused (unless the
// caller overrides: RunConfig.NoLimits). A request's work is estimated from
// its simulations and their jobs (Cost) at SecondsPerJobStep per job per
// core (measured: tuning LAS_MQ on the embedded trace simulates about a
// million jobs a second on one core, metrics included).
var (
	MaxSeconds        = 6 * 3600.0
	MaxBytes          = 4.0 * (1 << 30)
	SecondsPerJobStep = 1e-6
)

// TooBigError is a request whose estimated work or memory is beyond the
// limits.
type TooBigError struct {
	What    string // "run", "simulate", "sweep"
	Cost    Cost
	Seconds float64 // estimated wall time on Workers cores
	Workers int
}

func (e *TooBigError) Error() string {
	return fmt.Sprintf("%s would simulate %.3g jobs in %.3g simulations (about %s on %d cores) and hold %s of results: beyond the limits of %s and %s",
		e.What, e.Cost.JobSteps, e.Cost.Simulations, FormatSpan(e.Seconds), e.Workers, fmtBytes(e.Cost.Bytes), FormatSpan(MaxSeconds), fmtBytes(MaxBytes))
}

// CheckCost refuses a request whose cost exceeds the limits.
func CheckCost(what string, c Cost) error {
	w := runtime.GOMAXPROCS(0)
	sec := c.JobSteps * SecondsPerJobStep / float64(w)
	if sec > MaxSeconds || c.Bytes > MaxBytes || math.IsNaN(sec) || math.IsNaN(c.Bytes) {
		return &TooBigError{What: what, Cost: c, Seconds: sec, Workers: w}
	}
	return nil
}

func fmtBytes(b float64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	u := 0
	for b >= 1024 && u < len(units)-1 {
		b /= 1024
		u++
	}
	return fmt.Sprintf("%.3g %s", b, units[u])
}
