package data

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/schedplan/schedplan/data/internal/colfile"
)

// WriteFileAtomic creates path (mode 0644) with the bytes write produces, so
// that the file appears whole or not at all: write fills a temporary file in path's
// directory, which is flushed, fsynced, closed and renamed onto path. An
// existing path is refused unless force is set. On any error (including a
// panic in write) the temporary file is removed and path is left as it was.
//
// write receives a buffered writer that does not implement io.Closer, so
// encoders that close their sink (the Parquet writer does) leave the file to
// WriteFileAtomic.
func WriteFileAtomic(path string, force bool, write func(w io.Writer) error) (err error) {
	if !force {
		if _, err := os.Lstat(path); err == nil {
			return fmt.Errorf("%s: %w", Printable(path), ErrExists)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	pending.Store(tmp, struct{}{})
	defer pending.Delete(tmp)
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%s: writing failed: %v", Printable(path), r)
		}
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if err = f.Chmod(0o644); err != nil { // CreateTemp makes 0600
		return err
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	if err = write(colfile.NoCloser{W: bw}); err != nil {
		return err
	}
	if err = bw.Flush(); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if !force {
		// Re-check: another process may have created path meanwhile. A link
		// fails if path exists, which closes the race where rename would not.
		if err = os.Link(tmp, path); err == nil {
			os.Remove(tmp)
			syncDir(dir)
			return nil
		}
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("%s: %w", Printable(path), ErrExists)
		}
		// Hard links unsupported here: fall back to rename.
	}
	if err = os.Rename(tmp, path); err != nil {
		return err
	}
	syncDir(dir)
	return nil
}

// syncDir fsyncs a directory so a rename in it is durable; errors are
// ignored (not every file system supports it).
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// WriteBytesAtomic writes b to path as WriteFileAtomic does.
func WriteBytesAtomic(path string, force bool, b []byte) error {
	return WriteFileAtomic(path, force, func(w io.Writer) error {
		_, err := w.Write(b)
		return err
	})
}

// pending holds the temporary files of the writes under way.
var pending sync.Map

// RemovePending removes the temporary files of the WriteFileAtomic calls
// under way, so that a process that must exit at once (a signal it could
// not wait out) leaves no partial file; their targets are left as they were.
func RemovePending() {
	pending.Range(func(k, _ any) bool {
		os.Remove(k.(string))
		return true
	})
}
