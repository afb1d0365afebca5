package configfile

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A device, a directory and an oversized file are refused before a byte is
// read; a regular file and a pipe within the limit are read (issue 26:
// `emit --config /dev/zero` read 24 GB until the kernel killed it).
func TestReadRefuses(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small.yaml")
	if err := os.WriteFile(small, []byte("version: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.xml")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(MaxSize + 1); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	f.Close()
	for _, tc := range []struct {
		path string
		want error
		msg  string
	}{
		{"/dev/zero", ErrNotRegular, "character device"},
		{dir, ErrNotRegular, "directory"},
		{big, ErrTooLarge, "32 MiB"},
		{filepath.Join(dir, "none"), os.ErrNotExist, "none"},
		{small, nil, ""},
	} {
		start := time.Now()
		b, err := Read(tc.path)
		if took := time.Since(start); took > time.Second {
			t.Errorf("%s: took %v", tc.path, took)
		}
		if tc.want == nil {
			if err != nil || string(b) != "version: 1\n" {
				t.Errorf("%s: %q, %v", tc.path, b, err)
			}
			continue
		}
		if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.msg) || !strings.Contains(err.Error(), tc.path) {
			t.Errorf("%s: error %v, want %v naming the path and %q", tc.path, err, tc.want, tc.msg)
		}
	}
}

// A FIFO no one writes to blocks its reader; cancelling the context ends
// ReadContext at once. A FIFO that is written is read.
func TestReadContextFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	_, err := ReadContext(ctx, fifo)
	if !errors.Is(err, context.Canceled) || time.Since(start) > time.Second {
		t.Errorf("blocked FIFO: %v after %v, want context.Canceled within 1 s", err, time.Since(start))
	}

	fifo2 := filepath.Join(dir, "fifo2")
	if err := syscall.Mkfifo(fifo2, 0o600); err != nil {
		t.Fatal(err)
	}
	go func() {
		w, err := os.OpenFile(fifo2, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		w.WriteString("k: v\n")
		w.Close()
	}()
	b, err := ReadContext(context.Background(), fifo2)
	if err != nil || string(b) != "k: v\n" {
		t.Errorf("written FIFO: %q, %v", b, err)
	}
}

// A pipe longer than MaxSize is refused after MaxSize+1 bytes, not read
// whole.
func TestReadPipeTooLarge(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	go func() {
		w, err := os.OpenFile(fifo, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		defer w.Close()
		buf := make([]byte, 1<<20)
		for i := 0; i < MaxSize>>20+4; i++ {
			if _, err := w.Write(buf); err != nil {
				return
			}
		}
	}()
	if _, err := Read(fifo); !errors.Is(err, ErrTooLarge) {
		t.Errorf("long pipe: %v, want ErrTooLarge", err)
	}
}
