//go:build !(linux || darwin || freebsd)

package offheap

// mapBytes has no mapping to offer here: Make falls back on the heap.
func mapBytes(int) ([]byte, error) { return nil, nil }

func unmapBytes([]byte) error { return nil }
