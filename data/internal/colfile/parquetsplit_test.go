package colfile

import (
	"encoding/binary"
	"math"
	"testing"
)

// TestSplitDecoderHandMade decodes a BYTE_STREAM_SPLIT stream laid out by
// hand as the Parquet format specifies it (Encodings.md: byte k of value i at
// position k·n + i).
func TestSplitDecoderHandMade(t *testing.T) {
	vals := []float64{1.5, -2, math.Pi, 1e300}
	n := len(vals)
	data := make([]byte, 8*n)
	for i, v := range vals {
		bits := math.Float64bits(v)
		for k := 0; k < 8; k++ {
			data[k*n+i] = byte(bits >> (8 * k))
		}
	}
	out := make([]byte, 8*n)
	if err := unsplit(out, data, n, 8); err != nil {
		t.Fatal(err)
	}
	for i, v := range vals {
		if got := math.Float64frombits(binary.LittleEndian.Uint64(out[8*i:])); got != v {
			t.Errorf("value %d: %v, want %v", i, got, v)
		}
	}
	if err := unsplit(out, data[:8*n-1], n, 8); err == nil {
		t.Error("a short stream was accepted")
	}
}
