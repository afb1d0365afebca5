package data

import (
	"bytes"
	"fmt"
	"testing"
)

// A Parquet file is the same bytes every time it is written: unique job ids
// are not dictionary-encoded, so no column chunk falls back from a
// dictionary part way (arrow lists a fallen-back chunk's encodings in map
// order).
func TestParquetWriterIsByteDeterministic(t *testing.T) {
	const n = 300_000
	ids, users := make([]string, n), make([]string, n)
	vals := make([]float64, n)
	for i := range ids {
		ids[i] = fmt.Sprintf("job_%09d", i)
		users[i] = fmt.Sprintf("u%d", i%7)
		vals[i] = float64(i)
	}
	write := func() []byte {
		var buf bytes.Buffer
		schema := &Table{}
		schema.Add(ColJobID, []string{})
		schema.Add("user", []string{})
		schema.Add("v", []float64{})
		pw, err := NewParquetWriter(&buf, schema)
		if err != nil {
			t.Fatal(err)
		}
		for lo := 0; lo < n; lo += 1 << 17 {
			hi := min(lo+1<<17, n)
			part := &Table{}
			part.Add(ColJobID, ids[lo:hi])
			part.Add("user", users[lo:hi])
			part.Add("v", vals[lo:hi])
			if err := pw.Write(part); err != nil {
				t.Fatal(err)
			}
		}
		if err := pw.Close(); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	first := write()
	for range 6 {
		if !bytes.Equal(write(), first) {
			t.Fatal("the same table written twice gave different bytes")
		}
	}
}
