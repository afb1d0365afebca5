package data

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// rangesTable is a 10-row table: ids "r0".."r9", input bytes 100+i with
// rows 3 and 6 null, sizes i/2.
func rangesTable() *Jobs {
	j := &Jobs{Source: "t"}
	j.InputBytes = Column[int64]{Valid: NewBitmap(10)}
	for i := range 10 {
		j.ID.Append(fmt.Sprint("r", i))
		j.Submit = append(j.Submit, float64(i))
		j.InputBytes.Values = append(j.InputBytes.Values, int64(100+i))
		j.Size.Values = append(j.Size.Values, float64(i)/2)
	}
	j.InputBytes.Valid.SetNull(3)
	j.InputBytes.Valid.SetNull(6)
	return j
}

// readRow reads row i of the ids, bytes and sizes of j: their values, or
// the DroppedRowError of the first of them dropped.
func readRow(j *Jobs, i int) (id string, b int64, ok bool, size float64, err error) {
	defer CatchDroppedRow(&err)
	id = j.ID.At(i)
	b, ok = j.InputBytes.At(i)
	size, _ = j.Size.At(i)
	return id, b, ok, size, nil
}

// checkRows checks every row of j (a table or a view whose row 0 is row
// first of whole) against whole: a row of kept (rows of j) reads as whole
// has it, any other panics with a DroppedRowError naming the row, the
// column and the stretch of dropped rows [lo, hi) around it (dropped[i]).
func checkRows(t *testing.T, what string, j, whole *Jobs, first int, kept []RowRange, dropped map[int]RowRange) {
	t.Helper()
	for i := range j.Len() {
		id, b, ok, size, err := readRow(j, i)
		w := first + i
		wb, wok := whole.InputBytes.At(w)
		held := slices.ContainsFunc(kept, func(r RowRange) bool { return i >= r.Lo && i < r.Hi })
		if held != j.Holds(i, i+1, ColJobID, ColInputBytes, ColSize) || held != j.ID.Held(i) {
			t.Errorf("%s: row %d: Holds %v, Held %v; want %v", what, i, j.Holds(i, i+1, ColJobID, ColInputBytes), j.ID.Held(i), held)
		}
		if held {
			if err != nil || id != whole.ID.At(w) || b != wb || ok != wok || size != whole.Size.Values[w] {
				t.Errorf("%s: row %d: %q %d %v %v %v, want %q %d %v %v", what, i, id, b, ok, size, err, whole.ID.At(w), wb, wok, whole.Size.Values[w])
			}
			continue
		}
		var d *DroppedRowError
		want := dropped[i]
		if !errors.As(err, &d) || d.Row != i || d.Column != ColJobID || d.Lo != want.Lo || d.Hi != want.Hi {
			t.Errorf("%s: row %d: %v, want a DroppedRowError of row %d of %s in %v", what, i, err, i, ColJobID, want)
		}
		if _, err := func() (_ int64, err error) { defer CatchDroppedRow(&err); v, _ := j.InputBytes.At(i); return v, nil }(); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("row %d of column %s", i, ColInputBytes)) {
			t.Errorf("%s: bytes of row %d: %v, want an error naming the row and column", what, i, err)
		}
	}
}

// stretches maps every row of [0, n) outside kept to the stretch of
// dropped rows it lies in.
func stretches(kept []RowRange, n int) map[int]RowRange {
	out := map[int]RowRange{}
	lo := 0
	for _, r := range append(slices.Clone(kept), RowRange{n, n}) {
		for i := lo; i < r.Lo; i++ {
			out[i] = RowRange{lo, r.Lo}
		}
		lo = r.Hi
	}
	return out
}

// TestKeepRanges keeps several ranges of the ids, bytes and sizes of a
// table, then narrows them, and checks every row (a dropped one between
// two kept ranges included), views across the ranges' borders, Subset,
// Holds and the refusals.
func TestKeepRanges(t *testing.T) {
	cols := []string{ColJobID, ColInputBytes, ColSize}
	for _, tc := range []struct {
		name   string
		keep   []RowRange // first call
		want   []RowRange // the rows kept after it
		narrow []RowRange // a second call (nil: none)
		after  []RowRange // the rows kept after it
	}{
		{name: "one range", keep: []RowRange{{2, 5}}, want: []RowRange{{2, 5}}},
		{name: "two ranges", keep: []RowRange{{6, 9}, {1, 3}}, want: []RowRange{{1, 3}, {6, 9}}},
		{name: "overlapping and adjacent merged, empty left out", keep: []RowRange{{1, 3}, {2, 4}, {4, 5}, {7, 7}, {8, 10}}, want: []RowRange{{1, 5}, {8, 10}}},
		{name: "nothing kept", keep: []RowRange{{4, 4}}, want: nil},
		{name: "narrowed to one of them", keep: []RowRange{{0, 2}, {4, 6}, {8, 10}}, want: []RowRange{{0, 2}, {4, 6}, {8, 10}},
			narrow: []RowRange{{8, 10}}, after: []RowRange{{8, 10}}},
		{name: "narrowed within ranges", keep: []RowRange{{0, 4}, {6, 10}}, want: []RowRange{{0, 4}, {6, 10}},
			narrow: []RowRange{{7, 9}, {1, 2}}, after: []RowRange{{1, 2}, {7, 9}}},
		{name: "narrowed from one range to two", keep: []RowRange{{1, 9}}, want: []RowRange{{1, 9}},
			narrow: []RowRange{{1, 3}, {5, 9}}, after: []RowRange{{1, 3}, {5, 9}}},
		{name: "the same rows again", keep: []RowRange{{0, 2}, {5, 7}}, want: []RowRange{{0, 2}, {5, 7}},
			narrow: []RowRange{{5, 7}, {0, 1}, {1, 2}}, after: []RowRange{{0, 2}, {5, 7}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			whole, j := rangesTable(), rangesTable()
			if err := j.KeepRanges(tc.keep, cols...); err != nil {
				t.Fatal(err)
			}
			checkRows(t, "kept", j, whole, 0, tc.want, stretches(tc.want, 10))
			kept := tc.want
			if tc.narrow != nil {
				before := j.InputBytes.kept
				if err := j.KeepRanges(tc.narrow, cols...); err != nil {
					t.Fatal(err)
				}
				if same := j.InputBytes.kept == before; same != slices.Equal(tc.want, tc.after) {
					t.Errorf("narrowing to %v: column left as it was %v", tc.narrow, same)
				}
				kept = tc.after
				checkRows(t, "narrowed", j, whole, 0, kept, stretches(kept, 10))
			}
			if n := len(j.InputBytes.kept.v); n != 10-len(stretches(kept, 10)) {
				t.Errorf("%d values held for rows %v", n, kept)
			}
			if !j.Kept(ColInputBytes) || j.Len() != 10 || j.ID.Len() != 10 || j.InputBytes.Values != nil || !j.InputBytes.Present() {
				t.Errorf("kept %v, %d rows, %d ids, values %v", j.Kept(ColInputBytes), j.Len(), j.ID.Len(), j.InputBytes.Values)
			}
			// Views of every [lo, hi): the kept rows among them, renumbered.
			for lo := 0; lo <= 10; lo++ {
				for hi := lo; hi <= 10; hi++ {
					var in []RowRange
					for _, r := range kept {
						if a, b := max(lo, r.Lo), min(hi, r.Hi); a < b {
							in = append(in, RowRange{a - lo, b - lo})
						}
					}
					v := j.Rows(lo, hi)
					if v.Len() != hi-lo || v.ID.Len() != hi-lo {
						t.Fatalf("Rows(%d, %d): %d rows, %d ids", lo, hi, v.Len(), v.ID.Len())
					}
					checkRows(t, fmt.Sprintf("Rows(%d, %d)", lo, hi), v, whole, lo, in, stretches(in, hi-lo))
				}
			}
			// Subset of kept rows gives whole's; of a dropped one panics.
			var rows []int
			for _, r := range kept {
				for i := r.Lo; i < r.Hi; i++ {
					rows = append([]int{i}, rows...)
				}
			}
			got, want := j.Subset(rows), whole.Subset(rows)
			for q := range rows {
				g, gok := got.InputBytes.At(q)
				w, wok := want.InputBytes.At(q)
				if got.ID.At(q) != want.ID.At(q) || g != w || gok != wok || got.Size.Values[q] != want.Size.Values[q] {
					t.Errorf("Subset row %d (row %d): %q %d %v, want %q %d %v", q, rows[q], got.ID.At(q), g, gok, want.ID.At(q), w, wok)
				}
			}
			for i := range stretches(kept, 10) {
				mustDrop(t, fmt.Sprintf("Subset of dropped row %d", i), func() { j.Subset([]int{i}) })
			}
			// Rows not all held: refused, the columns left as they were.
			for _, bad := range [][]RowRange{{{0, 10}}, append(slices.Clone(kept), RowRange{0, 10})} {
				if slices.Equal(kept, []RowRange{{0, 10}}) {
					continue
				}
				before := j.InputBytes.kept
				if err := j.KeepRanges(bad, ColInputBytes); err == nil || !strings.Contains(err.Error(), "not all of") {
					t.Errorf("keeping %v of rows %v: %v, want an error", bad, kept, err)
				}
				if err := j.KeepRanges(bad, ColJobID); err == nil {
					t.Errorf("keeping ids %v of rows %v: no error", bad, kept)
				}
				if j.InputBytes.kept != before {
					t.Error("a refused KeepRanges changed the column")
				}
			}
		})
	}
}

// mustDrop checks that f panics with a *DroppedRowError.
func mustDrop(t *testing.T, what string, f func()) {
	t.Helper()
	defer func() {
		if _, ok := recover().(*DroppedRowError); !ok {
			t.Errorf("%s: no DroppedRowError", what)
		}
	}()
	f()
}

// TestKeepRangesBad: ranges outside the table, or a column that cannot
// drop rows, are errors naming the table.
func TestKeepRangesBad(t *testing.T) {
	for _, tc := range []struct {
		keep []RowRange
		col  string
	}{
		{[]RowRange{{-1, 2}}, ColInputBytes},
		{[]RowRange{{0, 2}, {3, 11}}, ColInputBytes},
		{[]RowRange{{5, 4}}, ColJobID},
		{[]RowRange{{0, 2}}, ColUser},
		{[]RowRange{{0, 2}}, ColSubmit},
	} {
		j := rangesTable()
		if err := j.KeepRanges(tc.keep, tc.col); err == nil || !strings.HasPrefix(err.Error(), "t: ") {
			t.Errorf("KeepRanges(%v, %s): %v, want an error naming the table", tc.keep, tc.col, err)
		}
		if j.Kept() {
			t.Errorf("KeepRanges(%v, %s) dropped rows", tc.keep, tc.col)
		}
	}
}

// TestHolds: Holds of ranges across kept and dropped rows, of absent and
// whole columns.
func TestHolds(t *testing.T) {
	j := rangesTable()
	if err := j.KeepRanges([]RowRange{{1, 3}, {5, 8}}, ColInputBytes); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		lo, hi int
		cols   []string
		want   bool
	}{
		{1, 3, []string{ColInputBytes}, true},
		{5, 8, []string{ColInputBytes, ColSize, ColJobID}, true},
		{2, 6, []string{ColInputBytes}, false}, // across a dropped stretch
		{0, 1, []string{ColInputBytes}, false},
		{0, 1, []string{ColSize, ColOutputBytes, ColJobID}, true}, // whole and absent columns
		{4, 4, []string{ColInputBytes}, true},                     // no rows
		{6, 9, []string{ColInputBytes}, false},
	} {
		if got := j.Holds(tc.lo, tc.hi, tc.cols...); got != tc.want {
			t.Errorf("Holds(%d, %d, %v) = %v, want %v", tc.lo, tc.hi, tc.cols, got, tc.want)
		}
	}
}
