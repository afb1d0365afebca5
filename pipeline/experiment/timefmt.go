package experiment

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Times a person reads: the submit times of a log are either seconds from
// its start (SWIM traces: 0 .. a day) or Unix epoch seconds (1.76e9, which
// %g printed as 1.760000058697e+09 s); spans are durations (597317.08 s is
// "6d 21h 55m 17s").

// Unix epoch seconds of 1973-03-03 and of 2103: a submit time in this range
// is read as a date, one below it as seconds from the log's start.
const (
	epochMin = 1e8
	epochMax = 4.2e9
)

// FormatInstant formats a time in seconds: a date and time in UTC to the
// millisecond for an epoch time ("2025-10-09 08:53:20.537 UTC"), else the
// seconds with at most millisecond digits ("49.814 s").
func FormatInstant(sec float64) string {
	if sec >= epochMin && sec < epochMax {
		whole, frac := math.Modf(sec)
		t := time.Unix(int64(whole), int64(math.Round(frac*1e3))*int64(time.Millisecond)).UTC()
		layout := "2006-01-02 15:04:05.000 UTC"
		if t.Nanosecond() == 0 {
			layout = "2006-01-02 15:04:05 UTC"
		}
		return t.Format(layout)
	}
	return roundedSeconds(sec) + " s"
}

// FormatSpan formats a duration in seconds for a person: "0.25 s", "49.8 s",
// "12m 3s", "6d 21h 55m 17s", and in years past 1,000 days; NaN and ±Inf
// as themselves.
func FormatSpan(sec float64) string {
	switch {
	case math.IsNaN(sec) || math.IsInf(sec, 0):
		return fmt.Sprint(sec)
	case sec < 0:
		return "-" + FormatSpan(-sec)
	case sec < 60:
		return strconv.FormatFloat(sec, 'g', 3, 64) + " s"
	case sec >= 1000*86400:
		return strconv.FormatFloat(sec/(365.25*86400), 'g', 3, 64) + " years"
	}
	s := int64(math.Round(sec))
	parts := []struct {
		n    int64
		unit string
	}{{s / 86400, "d"}, {s % 86400 / 3600, "h"}, {s % 3600 / 60, "m"}, {s % 60, "s"}}
	var b strings.Builder
	for _, p := range parts {
		if p.n == 0 {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%d%s", p.n, p.unit)
	}
	return b.String()
}

// roundedSeconds formats seconds to the millisecond, without trailing
// zeros.
func roundedSeconds(sec float64) string {
	return strconv.FormatFloat(math.Round(sec*1e3)/1e3, 'f', -1, 64)
}
