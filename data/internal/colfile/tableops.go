package colfile

import (
	"fmt"
	"slices"
	"sort"
)

// Clone returns a copy of t whose columns do not share memory with t's.
func (t *Table) Clone() *Table {
	out := &Table{Names: slices.Clone(t.Names), Cols: make([]any, len(t.Cols))}
	for k, c := range t.Cols {
		out.Cols[k] = cloneCol(c)
	}
	return out
}

// AppendTable appends o's rows to t. Both must have the same column names,
// in the same order, with the same types.
func (t *Table) AppendTable(o *Table) error {
	if !slices.Equal(t.Names, o.Names) {
		return fmt.Errorf("columns %v differ from %v", o.Names, t.Names)
	}
	for k := range t.Cols {
		c, err := appendCol(t.Cols[k], o.Cols[k])
		if err != nil {
			return fmt.Errorf("column %q: %w", t.Names[k], err)
		}
		t.Cols[k] = c
	}
	return nil
}

// SortStableBy orders t's rows by the int64, int32, float64 or string
// column name, keeping the order of equal keys.
func (t *Table) SortStableBy(name string) error {
	perm := make([]int, t.Len())
	for i := range perm {
		perm[i] = i
	}
	var less func(a, b int) bool
	switch c := t.Col(name).(type) {
	case []int64:
		less = func(a, b int) bool { return c[perm[a]] < c[perm[b]] }
	case []int32:
		less = func(a, b int) bool { return c[perm[a]] < c[perm[b]] }
	case []float64:
		less = func(a, b int) bool { return c[perm[a]] < c[perm[b]] }
	case []string:
		less = func(a, b int) bool { return c[perm[a]] < c[perm[b]] }
	default:
		return fmt.Errorf("cannot sort by column %q (%T)", name, c)
	}
	sort.SliceStable(perm, less)
	t.Permute(perm)
	return nil
}

// Permute reorders t's rows: row i becomes the old row perm[i].
func (t *Table) Permute(perm []int) {
	for k, c := range t.Cols {
		switch v := c.(type) {
		case []float64:
			t.Cols[k] = permute(v, perm)
		case []int64:
			t.Cols[k] = permute(v, perm)
		case []int32:
			t.Cols[k] = permute(v, perm)
		case []string:
			t.Cols[k] = permute(v, perm)
		case []bool:
			t.Cols[k] = permute(v, perm)
		}
	}
}

func permute[T any](x []T, perm []int) []T {
	out := make([]T, len(perm))
	for i, p := range perm {
		out[i] = x[p]
	}
	return out
}

func cloneCol(c any) any {
	switch v := c.(type) {
	case []float64:
		return slices.Clone(v)
	case []int64:
		return slices.Clone(v)
	case []int32:
		return slices.Clone(v)
	case []string:
		return slices.Clone(v)
	case []bool:
		return slices.Clone(v)
	}
	return c
}

func appendCol(a, b any) (any, error) {
	switch x := a.(type) {
	case []float64:
		if y, ok := b.([]float64); ok {
			return append(x, y...), nil
		}
	case []int64:
		if y, ok := b.([]int64); ok {
			return append(x, y...), nil
		}
	case []int32:
		if y, ok := b.([]int32); ok {
			return append(x, y...), nil
		}
	case []string:
		if y, ok := b.([]string); ok {
			return append(x, y...), nil
		}
	case []bool:
		if y, ok := b.([]bool); ok {
			return append(x, y...), nil
		}
	}
	return nil, fmt.Errorf("type %T does not match %T", b, a)
}
