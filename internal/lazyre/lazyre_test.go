package lazyre

import "testing"

func TestNew(t *testing.T) {
	re := New(`^a+b$`)
	if !re().MatchString("aab") || re().MatchString("ab ") {
		t.Errorf("%v does not match as ^a+b$", re())
	}
	if first, again := re(), re(); first != again {
		t.Error("each call compiled the expression again")
	}
	bad := New(`(`) // compiles nothing yet
	defer func() {
		if recover() == nil {
			t.Error("a bad expression did not panic on first use")
		}
	}()
	bad()
}
