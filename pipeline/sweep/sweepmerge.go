package sweep

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/pipeline/experiment"
)

// SweepMergePoll is how often WaitMergeSweepFiles looks for the parts
// still missing.
const SweepMergePoll = 5 * time.Second

// WaitMergeSweepFiles merges the sweep parts that patterns name (files, or
// globs the shell did not expand: a merge that waits expands them again at
// each try, as the shards write their parts). While units are in no part
// (ErrPartsMissing), or a pattern matches no file, it tries again every
// poll until wait has passed (0: once) or ctx ends; any other error (a
// part of another sweep, a unit in two parts) ends it at once. It returns
// the merged table and the part files.
func WaitMergeSweepFiles(ctx context.Context, patterns []string, wait, poll time.Duration) (*data.Table, []string, error) {
	deadline := time.Now().Add(wait)
	for {
		names, err := expandParts(patterns)
		var t *data.Table
		if err == nil {
			t, err = MergeSweepFiles(names)
		}
		if err == nil || !errors.Is(err, experiment.ErrPartsMissing) || !time.Now().Before(deadline) {
			if err != nil && wait > 0 && errors.Is(err, experiment.ErrPartsMissing) {
				err = fmt.Errorf("after waiting %v for the shards: %w", wait, err)
			}
			return t, names, err
		}
		slog.Info("waiting for the sweep's shards", "missing", err.Error(), "until", deadline.Format(time.RFC3339))
		timer := time.NewTimer(min(poll, time.Until(deadline)))
		select {
		case <-ctx.Done():
			timer.Stop()
			return nil, nil, ctx.Err()
		case <-timer.C:
		}
	}
}

// expandParts lists the files patterns name, in order (a file named twice
// is listed twice, which the merge refuses): a
// pattern with glob characters that is not itself a file is expanded
// (sorted), a pattern that names nothing yet is ErrPartsMissing.
func expandParts(patterns []string) ([]string, error) {
	var names []string
	for _, p := range patterns {
		matches := []string{p}
		if strings.ContainsAny(p, "*?[") && !exists(p) {
			var err error
			if matches, err = filepath.Glob(p); err != nil {
				return nil, fmt.Errorf("%s: %w", p, err)
			}
		}
		if len(matches) == 0 || (len(matches) == 1 && !exists(matches[0])) {
			return nil, fmt.Errorf("%s: no such part yet: %w", p, experiment.ErrPartsMissing)
		}
		names = append(names, matches...)
	}
	return names, nil
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return !errors.Is(err, fs.ErrNotExist)
}
