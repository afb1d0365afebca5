package data

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// A file written in parts reads back as the parts concatenated, with one
// row group per part; a part of other columns is refused.
func TestParquetWriterParts(t *testing.T) {
	part := func(names []string, runs []int32, xs []float64, ok []bool) *Table {
		tb := &Table{}
		tb.Add("name", names)
		tb.Add("run", runs)
		tb.Add("x", xs)
		tb.Add("ok", ok)
		return tb
	}
	parts := []*Table{
		part([]string{"a", "b"}, []int32{1, 2}, []float64{0.5, 1.5}, []bool{true, false}),
		part(nil, nil, nil, nil),
		part([]string{"c"}, []int32{3}, []float64{2.5}, []bool{true}),
	}
	var buf bytes.Buffer
	pw, err := NewParquetWriter(&buf, part(nil, nil, nil, nil))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range parts {
		if err := pw.Write(p); err != nil {
			t.Fatal(err)
		}
	}
	if err := pw.Write(&Table{Names: []string{"name"}, Cols: []any{[]string{"z"}}}); err == nil {
		t.Error("a part of other columns was accepted")
	}
	if pw.Rows() != 3 {
		t.Errorf("Rows() = %d, want 3", pw.Rows())
	}
	if err := pw.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "parts.parquet")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := ReadTable(path, "")
	if err != nil {
		t.Fatal(err)
	}
	want := part([]string{"a", "b", "c"}, []int32{1, 2, 3}, []float64{0.5, 1.5, 2.5}, []bool{true, false, true})
	if !reflect.DeepEqual(got, want) {
		t.Errorf("read back %+v, want %+v", got, want)
	}
	// An empty file (no part) reads as the columns without rows.
	buf.Reset()
	pw, err = NewParquetWriter(&buf, part(nil, nil, nil, nil))
	if err != nil {
		t.Fatal(err)
	}
	if err := pw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := ReadTable(path, ""); err != nil || got.Len() != 0 || len(got.Names) != 4 {
		t.Errorf("empty file: %+v, %v", got, err)
	}
}
