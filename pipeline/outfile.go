package pipeline

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/schedplan/schedplan/data"
)

// The output rule of every command that writes (run, emit, convert, sweep,
// sweep merge): a missing output folder is created, when the command
// writes (MakeOutDir); the root folder is never written into; a folder
// that is a symbolic link, or an output directory that exists, is not
// empty and was not written by schedplan, is refused unless --force; an
// error names the flag. Checks come before any work (CheckOutDir,
// CheckOutPath), creation only when there is something to write.

// CheckOutDir checks dir, the output directory named by flag (e.g.
// "--out"), before any work: it may be missing (MakeOutDir creates it),
// empty, a run's (it has StampDir) or hold only the files named in own
// (what the command writes there: a directory it wrote before); else,
// and when it is a symbolic link, it is refused unless force. The root
// folder is always refused.
func CheckOutDir(flag, dir string, force bool, own ...string) error {
	return checkFolder(flag, dir, dir, force, func(entries []fs.DirEntry) bool {
		for _, e := range entries {
			if e.Name() == StampDir {
				return true // a run's
			}
		}
		for _, e := range entries {
			if !slices.Contains(own, e.Name()) && !leftover().MatchString(e.Name()) {
				return false
			}
		}
		return true
	})
}

// CheckOutPath checks path, an output file named by flag, before any work:
// it must not exist unless force, and its folder follows the output rule,
// but for ownership (a file is one name in any folder of the user's).
func CheckOutPath(flag, path string, force bool) error {
	return checkOutPath(flag, path, force, false)
}

// checkOutPath is CheckOutPath; with rerun, an existing file is allowed
// (WriteOutRerun compares it).
func checkOutPath(flag, path string, force, rerun bool) error {
	if path == "" {
		return fmt.Errorf("%s: no file given", flag)
	}
	if err := checkFolder(flag, path, filepath.Dir(path), force, nil); err != nil {
		return err
	}
	if st, err := os.Lstat(path); err == nil {
		if st.IsDir() {
			return fmt.Errorf("%s %s: a folder, not a file", flag, data.Printable(path))
		}
		if !force && !rerun { // a file, or a link
			return fmt.Errorf("%s %s: %w", flag, data.Printable(path), data.ErrExists)
		}
	}
	return nil
}

// checkFolder applies the rule to folder, the output named by flag as out
// (the folder itself, or a file in it); owned, when not nil, says whether
// a non-empty existing folder's entries are schedplan's.
func checkFolder(flag, out, folder string, force bool, owned func([]fs.DirEntry) bool) error {
	abs, err := filepath.Abs(folder)
	if err != nil {
		return fmt.Errorf("%s %s: %w", flag, data.Printable(out), err)
	}
	if filepath.Dir(abs) == abs {
		return fmt.Errorf("%s %s: writes into the root folder %s; name a folder of its own", flag, data.Printable(out), abs)
	}
	st, err := os.Lstat(filepath.Clean(folder))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return fmt.Errorf("%s %s: %w", flag, data.Printable(out), err)
	case st.Mode()&fs.ModeSymlink != 0 && !force:
		target, _ := os.Readlink(filepath.Clean(folder))
		return fmt.Errorf("%s %s: folder %s is a symbolic link (to %s); name the folder itself, or pass --force", flag, data.Printable(out), data.Printable(folder), data.Printable(target))
	}
	if st, err = os.Stat(folder); err != nil {
		return fmt.Errorf("%s %s: %w", flag, data.Printable(out), err)
	} else if !st.IsDir() {
		return fmt.Errorf("%s %s: %s is not a folder", flag, data.Printable(out), data.Printable(folder))
	}
	if owned == nil || force {
		return nil
	}
	entries, err := os.ReadDir(folder)
	if err != nil {
		return fmt.Errorf("%s %s: %w", flag, data.Printable(out), err)
	}
	if !owned(entries) {
		return fmt.Errorf("%s %s exists and was not written by schedplan; choose another or pass --force", flag, data.Printable(out))
	}
	return nil
}

// MakeOutDir creates dir, an output folder named by flag that the rule
// accepted, with its parents, when it is missing.
func MakeOutDir(flag, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("%s %s: cannot create the folder: %w", flag, data.Printable(dir), err)
	}
	return nil
}

// CheckOutFile checks an --out file before any work is done: its name must
// say a format, it must not exist unless force is set, and its folder
// follows the output rule (CheckOutPath). It returns the format ("" for
// no file).
func CheckOutFile(out string, force bool) (data.Format, error) {
	if out == "" {
		return "", nil
	}
	f, err := data.FormatOf(out)
	if err != nil {
		return "", fmt.Errorf("--out: %w", err)
	}
	return f, CheckOutPath("--out", out, force)
}

// CheckRerunOutFile is CheckOutFile for an output written by
// WriteOutRerun: an existing file is allowed, as the step may be a re-run.
func CheckRerunOutFile(out string, force bool) (data.Format, error) {
	f, err := data.FormatOf(out)
	if err != nil {
		return "", fmt.Errorf("--out: %w", err)
	}
	return f, checkOutPath("--out", out, force, true)
}

// WriteOutRerun writes b whole to path, an output named by flag, for a
// step that may run again with the same inputs (a shard or a merge that
// Kubernetes retries, a Job applied again): a file that exists with the
// same bytes is left as it is (unchanged), one with other bytes is
// refused, naming it, unless force. A missing folder is created.
func WriteOutRerun(flag, path string, force bool, b []byte) (unchanged bool, err error) {
	if err := MakeOutDir(flag, filepath.Dir(path)); err != nil {
		return false, err
	}
	if !force {
		if old, err := os.ReadFile(path); err == nil {
			if bytes.Equal(old, b) {
				return true, nil
			}
			return false, fmt.Errorf("%s %s exists with other contents than this step writes (another sweep, other flags or another schedplan); remove it, or pass --force to replace it", flag, data.Printable(path))
		} else if !errors.Is(err, fs.ErrNotExist) {
			return false, fmt.Errorf("%s %s: %w", flag, data.Printable(path), err)
		}
	}
	err = data.WriteBytesAtomic(path, force, b)
	if errors.Is(err, data.ErrExists) { // another pod wrote it meanwhile
		return WriteOutRerun(flag, path, false, b)
	}
	if err != nil {
		return false, destError(path, err)
	}
	return false, nil
}
