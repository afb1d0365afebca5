// Package configfile reads the small files a user hands schedplan to
// configure it (a cluster spec, a schedplan.yaml bundle, a YARN scheduler
// file, a PRISM profile set) without trusting them: a file must be a
// regular file or a pipe, no larger than MaxSize, and a read can be stopped
// through its context. A device such as /dev/zero, or a 100 MB file named
// by mistake, is refused at once instead of being read whole into memory.
package configfile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// MaxSize is the largest configuration file read, in bytes. A
// capacity-scheduler.xml of 10,000 queues is about 15 MB.
const MaxSize = 32 << 20

// ErrTooLarge is returned for a file larger than MaxSize.
var ErrTooLarge = fmt.Errorf("larger than the %d MiB a configuration file may be", MaxSize>>20)

// ErrNotRegular is returned for a path that is neither a regular file nor
// a pipe (a directory, a device, a socket).
var ErrNotRegular = errors.New("not a regular file")

// Read reads the configuration file at path whole; see ReadContext.
func Read(path string) ([]byte, error) {
	return ReadContext(context.Background(), path)
}

// ReadContext reads the configuration file at path whole. It refuses a path
// that is not a regular file or a pipe (ErrNotRegular) and a file larger
// than MaxSize (ErrTooLarge), both before reading a byte of a regular file.
// When ctx is done first (a pipe that never ends, a FIFO no one opens), it
// returns ctx's error at once; the abandoned read ends with the pipe. Errors
// name path.
func ReadContext(ctx context.Context, path string) ([]byte, error) {
	if err := check(path); err != nil {
		return nil, err
	}
	type result struct {
		b   []byte
		err error
	}
	done := make(chan result, 1)
	go func() {
		b, err := read(path)
		done <- result{b, err}
	}()
	select {
	case r := <-done:
		return r.b, r.err
	case <-ctx.Done():
		return nil, fmt.Errorf("%s: %w", path, context.Cause(ctx))
	}
}

// check refuses a path that is not a regular file or a pipe, or a regular
// file larger than MaxSize, from its metadata alone (opening a FIFO blocks
// until a writer comes).
func check(path string) error {
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	switch m := st.Mode(); {
	case m.IsRegular():
		if st.Size() > MaxSize {
			return fmt.Errorf("%s: %w (it has %d MiB)", path, ErrTooLarge, st.Size()>>20)
		}
	case m&fs.ModeNamedPipe != 0:
	default:
		return fmt.Errorf("%s: %w (%s)", path, ErrNotRegular, kind(m))
	}
	return nil
}

// read reads path whole, refusing more than MaxSize bytes (a file that grew
// since it was checked, or a pipe).
func read(path string) ([]byte, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	b, err := io.ReadAll(io.LimitReader(fh, MaxSize+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(b) > MaxSize {
		return nil, fmt.Errorf("%s: %w", path, ErrTooLarge)
	}
	return b, nil
}

// kind names what a non-regular file is.
func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "of mode " + m.String()
}
