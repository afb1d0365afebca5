package inputs

import (
	"errors"
	"slices"
	"testing"

	"github.com/schedplan/schedplan/classify"
	"github.com/schedplan/schedplan/data"
)

// TestClassOutView checks that View, the results sink's classes of the window,
// are ClassesOf's, a view of the classification's own (no 4-B-a-job copy:
// the old stage copied them) when it classified every row, and a copy
// otherwise.
func TestClassOutView(t *testing.T) {
	all := &ClassOut{Assign: []int32{3, 1, 4, 1, 5, 9, 2}}
	some := &ClassOut{Rows: []int{1, 4, 6}, Assign: []int32{7, 8, 9}}
	short := &ClassOut{Assign: []int32{3, 1}}
	for _, tc := range []struct {
		name     string
		c        *ClassOut
		first, n int
		view     bool
	}{{"every row", all, 2, 4, true}, {"every row, empty", all, 7, 0, false}, {"some rows", some, 1, 5, false}, {"rows past the classes", short, 1, 3, false}} {
		got, want := tc.c.View(tc.first, tc.n), tc.c.ClassesOf(tc.first, tc.n)
		if !slices.Equal(got, want) {
			t.Errorf("%s: %v, ClassesOf %v", tc.name, got, want)
		}
		if view := tc.n > 0 && &got[0] == &tc.c.Assign[tc.first]; view != tc.view {
			t.Errorf("%s: a view of the classes %v, want %v", tc.name, view, tc.view)
		}
		if cap(got) != len(got) {
			t.Errorf("%s: capacity %d beyond the window's %d classes", tc.name, cap(got), len(got))
		}
	}
}

// TestClassOutKeepFrom: once KeepFrom dropped the rows before first, the
// rows from first on read the same classes (ClassOf, ClassesOf, View: a
// view still), the result's own labels are gone, and a read of a dropped
// row (ClassOf, ClassesOf, View, Labels) panics with a DroppedRowError —
// never a class of another row. A classification of some rows, and a
// first at or before the last one, are left as they are.
func TestClassOutKeepFrom(t *testing.T) {
	whole := []int32{3, 1, 4, 1, 5, 9, 2}
	res := &classify.Result{Assign: slices.Clone(whole)}
	c := &ClassOut{Result: res, Assign: slices.Clone(whole)}
	c.KeepFrom(3)
	c.KeepFrom(2) // before the kept rows: nothing more to drop
	if len(c.Assign) != 4 || res.Assign != nil || res.Jobs() != len(whole) {
		t.Fatalf("kept %v, the result's labels %v (%d jobs)", c.Assign, res.Assign, res.Jobs())
	}
	for i := 3; i < 9; i++ {
		want := int32(-1)
		if i < len(whole) {
			want = whole[i]
		}
		if got := c.ClassOf(i); got != want {
			t.Errorf("ClassOf(%d) = %d, want %d", i, got, want)
		}
	}
	if got := c.ClassesOf(4, 4); !slices.Equal(got, []int32{5, 9, 2, -1}) {
		t.Errorf("ClassesOf(4, 4) = %v", got)
	}
	if got := c.View(4, 3); !slices.Equal(got, whole[4:]) || &got[0] != &c.Assign[1] {
		t.Errorf("View(4, 3) = %v, a view %v", got, &got[0] == &c.Assign[1])
	}
	for name, read := range map[string]func(){
		"ClassOf":   func() { c.ClassOf(2) },
		"ClassesOf": func() { c.ClassesOf(2, 3) },
		"View":      func() { c.View(0, 4) },
		"Labels":    func() { c.Labels() },
	} {
		func() {
			defer func() {
				var d *data.DroppedRowError
				if e, ok := recover().(error); !ok || !errors.As(e, &d) || d.Lo != 0 || d.Hi != 3 {
					t.Errorf("%s of a dropped row: %v, want a DroppedRowError in the dropped rows [0, 3)", name, e)
				}
			}()
			read()
		}()
	}
	some := &ClassOut{Rows: []int{1, 4}, Assign: []int32{7, 8}}
	some.KeepFrom(3)
	if r, a := some.Labels(); len(r) != 2 || len(a) != 2 {
		t.Errorf("a classification of some rows changed: %v %v", r, a)
	}
}
