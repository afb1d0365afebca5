//go:build linux || darwin || freebsd

package offheap

import "syscall"

// mapBytes maps size bytes of anonymous, private, zeroed memory.
func mapBytes(size int) ([]byte, error) {
	return syscall.Mmap(-1, 0, size, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
}

// unmapBytes returns b's pages to the system.
func unmapBytes(b []byte) error { return syscall.Munmap(b) }
