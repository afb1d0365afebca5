package data

import (
	"testing"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/memory"
)

// TestChunkedColumns converts columns split into chunks of odd lengths and
// slices with offsets, which take the bit-by-bit validity path and the
// offset-aware string copy.
func TestChunkedColumns(t *testing.T) {
	mem := memory.DefaultAllocator
	const n = 37
	fb := array.NewFloat64Builder(mem)
	sb := array.NewStringBuilder(mem)
	want := make([]float64, n)
	for i := 0; i < n+5; i++ {
		sb.Append("s" + string(rune('a'+i%26)) + string(rune('a'+i/26)))
		if i%3 == 0 {
			fb.AppendNull()
		} else {
			fb.Append(float64(i))
		}
	}
	fa, sa := fb.NewFloat64Array(), sb.NewStringArray()
	defer fa.Release()
	defer sa.Release()
	// Chunks [5,16), [16,21), [21,42): 37 rows starting at row 5 of the builders.
	cuts := [][2]int64{{5, 16}, {16, 21}, {21, 42}}
	var fchunks, schunks []arrow.Array
	for _, c := range cuts {
		fchunks = append(fchunks, array.NewSlice(fa, c[0], c[1]))
		schunks = append(schunks, array.NewSlice(sa, c[0], c[1]))
	}
	for i := range want {
		if (i+5)%3 != 0 {
			want[i] = float64(i + 5)
		}
	}
	fc := &arrowCol{file: "f", canon: ColSize, src: ColSize, chunks: fchunks, n: n}
	var col Column[float64]
	if err := fc.float64s(&col); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		v, ok := col.At(i)
		if ok != ((i+5)%3 != 0) || col.Values[i] != want[i] || (ok && v != want[i]) {
			t.Fatalf("row %d: %v,%v want %v,%v", i, v, ok, want[i], (i+5)%3 != 0)
		}
	}
	sc := &arrowCol{file: "f", canon: ColJobID, src: ColJobID, chunks: schunks, n: n}
	var ids Strings
	if err := sc.strings(&ids); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		if got, w := ids.At(i), sa.Value(i+5); got != w {
			t.Fatalf("id %d: %q want %q", i, got, w)
		}
	}
	var d Dict
	if err := sc.dict(&d); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		if got, _ := d.At(i); got != sa.Value(i+5) {
			t.Fatalf("dict %d: %q", i, got)
		}
	}
	// Aligned chunks (length multiple of 8) take the byte-copy path.
	fc2 := &arrowCol{file: "f", canon: ColSize, src: ColSize, chunks: []arrow.Array{array.NewSlice(fa, 0, 16), array.NewSlice(fa, 16, 42)}, n: 42}
	v := fc2.validity()
	for i := 0; i < 42; i++ {
		if v.Valid(i) != (i%3 != 0) {
			t.Fatalf("aligned validity row %d: %v", i, v.Valid(i))
		}
	}
	for _, c := range append(append(fchunks, schunks...), fc2.chunks...) {
		c.Release()
	}
}
