package data

import (
	"reflect"
	"strings"
	"testing"
)

func TestTableAppendSortClone(t *testing.T) {
	a := &Table{Names: []string{"unit", "policy", "x"}, Cols: []any{[]int64{3, 1}, []string{"c", "a"}, []float64{0.3, 0.1}}}
	b := &Table{Names: []string{"unit", "policy", "x"}, Cols: []any{[]int64{1, 0, 2}, []string{"b", "z", "d"}, []float64{0.15, 0, 0.2}}}
	m := a.Clone()
	if err := m.AppendTable(b); err != nil {
		t.Fatal(err)
	}
	if a.Len() != 2 {
		t.Error("AppendTable on a clone changed the original")
	}
	if err := m.SortStableBy("unit"); err != nil {
		t.Fatal(err)
	}
	want := []any{[]int64{0, 1, 1, 2, 3}, []string{"z", "a", "b", "d", "c"}, []float64{0, 0.1, 0.15, 0.2, 0.3}}
	if !reflect.DeepEqual(m.Cols, want) {
		t.Errorf("sorted %v, want %v (equal units keep their order)", m.Cols, want)
	}
	if err := m.SortStableBy("nope"); err == nil {
		t.Error("sorted by a missing column")
	}
	bad := &Table{Names: []string{"unit", "policy", "x"}, Cols: []any{[]int32{1}, []string{"b"}, []float64{0}}}
	if err := m.AppendTable(bad); err == nil || !strings.Contains(err.Error(), `column "unit"`) {
		t.Errorf("a column of another type was appended: %v", err)
	}
	if err := m.AppendTable(&Table{Names: []string{"unit"}, Cols: []any{[]int64{1}}}); err == nil {
		t.Error("a table with other columns was appended")
	}
}
