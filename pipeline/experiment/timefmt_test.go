package experiment

import (
	"math"
	"testing"
)

// Epoch times print as dates, log-relative times as seconds to the
// millisecond, spans as durations (issue 26: describe printed
// 1.760000058697e+09 s and a span of 597317.0769999027 s).
func TestTimeFormats(t *testing.T) {
	for _, tc := range []struct {
		f    func(float64) string
		v    float64
		want string
	}{
		{FormatInstant, 1.760000058697e+09, "2025-10-09 08:54:18.697 UTC"},
		{FormatInstant, 1760000000, "2025-10-09 08:53:20 UTC"},
		{FormatInstant, 49.81400000000001, "49.814 s"},
		{FormatInstant, 0, "0 s"},
		{FormatInstant, 86399.9999, "86400 s"},
		{FormatSpan, 597317.0769999027, "6d 21h 55m 17s"},
		{FormatSpan, 0.25, "0.25 s"},
		{FormatSpan, 49.81400000000001, "49.8 s"},
		{FormatSpan, 723, "12m 3s"},
		{FormatSpan, 3600, "1h"},
		{FormatSpan, 86400 + 60, "1d 1m"},
		{FormatSpan, 1e12, "3.17e+04 years"},
		{FormatSpan, math.Inf(1), "+Inf"},
		{FormatSpan, -90, "-1m 30s"},
	} {
		if got := tc.f(tc.v); got != tc.want {
			t.Errorf("%v: %q, want %q", tc.v, got, tc.want)
		}
	}
}
