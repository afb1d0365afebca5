package treap

import "testing"

// TestRandSequence pins the priorities: the simulations' outputs (and
// their golden files) depend on them.
func TestRandSequence(t *testing.T) {
	r := Seed
	want := []uint32{0xdc1b77ae, 0x64f0eeb9, 0x7b07ce91, 0x305f050c} // computed apart, in Python
	for i, w := range want {
		if got := r.Next(); got != w {
			t.Fatalf("priority %d: got %#x, want %#x", i, got, w)
		}
	}
}

func TestTake(t *testing.T) {
	var items []string
	var free []int32
	for i := range 3 {
		if got := Take(&items, &free); got != int32(i) {
			t.Fatalf("take %d: slot %d", i, got)
		}
		items[i] = "used"
	}
	free = append(free, 0, 2)
	for _, want := range []int32{2, 0, 3} {
		if got := Take(&items, &free); got != want {
			t.Fatalf("got slot %d, want %d", got, want)
		}
	}
	if len(items) != 4 || items[2] != "used" || items[3] != "" || len(free) != 0 {
		t.Fatalf("items %q, free %v", items, free)
	}
}
