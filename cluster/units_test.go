package cluster

import (
	"math"
	"testing"
)

// FuzzParseQuantity: any text gives an error or a finite non-negative
// amount, never a panic.
func FuzzParseQuantity(f *testing.F) {
	for _, s := range []string{"400KB", "4TB", "9Gbps", "3.2GB/s", "40Kbps", "1e3", " 16 GiB ", "", "KB", "-1", ".inf", "1e400MB", "NaN", "0x10", "1_000B"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, units := range []map[string]float64{byteUnits, rateUnits} {
			v, err := parseQuantity(s, units, "q")
			if err == nil && (!(v >= 0) || math.IsInf(v, 0)) {
				t.Fatalf("%q: %v accepted", s, v)
			}
		}
	})
}
