package inputs

import (
	"errors"
	"testing"
)

// Memo computes a key's value once per Inputs, keeps keys apart, and
// does not remember an error.
func TestMemo(t *testing.T) {
	in := &Inputs{}
	calls := 0
	f := func(v int) func() (any, error) { return func() (any, error) { calls++; return v, nil } }
	for range 3 {
		if v, err := in.Memo("a", f(1)); err != nil || v != 1 {
			t.Fatalf("a: %v, %v", v, err)
		}
	}
	if v, _ := in.Memo("b", f(2)); v != 2 || calls != 2 {
		t.Fatalf("b: %v after %d calls, want 2 after 2", v, calls)
	}
	if _, err := in.Memo("c", func() (any, error) { return nil, errors.New("x") }); err == nil {
		t.Fatal("no error")
	}
	if v, err := in.Memo("c", f(3)); err != nil || v != 3 {
		t.Fatalf("c after an error: %v, %v", v, err)
	}
	if v, _ := (&Inputs{}).Memo("a", f(4)); v != 4 {
		t.Fatalf("another run's Inputs: %v, want its own 4", v)
	}
}
