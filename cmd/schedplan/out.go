package main

import (
	"fmt"
	"os"

	"github.com/schedplan/schedplan/data"
)

// checkOut checks an --out file before any work is done: its name must say a
// format, and it must not exist unless force is set. It returns the format
// ("" for no file).
func checkOut(out string, force bool) (data.Format, error) {
	if out == "" {
		return "", nil
	}
	f, err := data.FormatOf(out)
	if err != nil {
		return "", fmt.Errorf("--out: %w", err)
	}
	if !force && exists(out) {
		return "", fmt.Errorf("--out %s: %w", out, data.ErrExists)
	}
	return f, nil
}

// exists reports whether path names a file (or a link).
func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}
