package pipeline

import (
	"fmt"
	"os"

	"github.com/schedplan/schedplan/data"
)

// CheckOutFile checks an --out file before any work is done: its name must
// say a format, and it must not exist unless force is set. It returns the
// format ("" for no file).
func CheckOutFile(out string, force bool) (data.Format, error) {
	if out == "" {
		return "", nil
	}
	f, err := data.FormatOf(out)
	if err != nil {
		return "", fmt.Errorf("--out: %w", err)
	}
	if _, err := os.Lstat(out); err == nil && !force { // a file, or a link
		return "", fmt.Errorf("--out %s: %w", out, data.ErrExists)
	}
	return f, nil
}
