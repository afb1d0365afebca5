package pipeline

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// staleFiles returns, sorted, the files that the stage's earlier stamp (at
// stampPath) lists, that this run's files do not hold and that are still in
// the output directory: outputs of an earlier run with other parameters
// (results.parquet after --results none, coshh.parquet or
// calibration.parquet when the options that produce them are gone). Left in
// place they would look like this run's. Files the stamp does not list are
// not schedplan's and are never touched, nor are those in StampDir (the
// runner's own, which it rewrites itself).
func (r *Runner) staleFiles(stampPath string, files map[string][]byte) []string {
	b, err := os.ReadFile(stampPath)
	if err != nil {
		return nil
	}
	var st stamp
	if json.Unmarshal(b, &st) != nil {
		return nil
	}
	var stale []string
	for n := range st.Files {
		if _, ok := files[n]; ok || !filepath.IsLocal(n) || strings.HasPrefix(filepath.ToSlash(n), StampDir+"/") {
			continue
		}
		if _, err := os.Lstat(filepath.Join(r.Dir, n)); err == nil {
			stale = append(stale, n)
		}
	}
	sort.Strings(stale)
	return stale
}

// removeStale removes the stale files of a stage before its new files are
// placed and its stamp written: the old stamp, still in place, lists them,
// so an interrupted run leaves the stage not done, never a directory whose
// stamp vouches for a mix of runs. Without Force the stage is refused, as
// is an overwrite.
func (r *Runner) removeStale(stage string, stale []string) error {
	if len(stale) == 0 {
		return nil
	}
	if !r.Force {
		return fmt.Errorf("stage %s: %s in %s was written by an earlier run whose inputs or parameters differed, and this run does not write it; pass --force to remove it", stage, strings.Join(stale, ", "), r.Dir)
	}
	for _, n := range stale {
		if err := os.Remove(filepath.Join(r.Dir, n)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("stage %s: removing %s, an earlier run's output this run does not write: %w", stage, n, err)
		}
	}
	syncDir(r.Dir)
	return nil
}

// outdatedAfter returns, sorted, the files in the directory that the stamps
// of later (stages a run stopped before, by --until) list when the stage's
// stamp no longer matches this run: its key, computed from this run's
// parameters and inputs and the keys of the stages it depends on, differs
// (or a stage it depends on is itself outdated or never ran). Those files
// are an earlier run's; the next run without --until rewrites them.
func (r *Runner) outdatedAfter(later []stage) []string {
	var out []string
	for _, s := range later {
		b, err := os.ReadFile(filepath.Join(r.Dir, StampDir, s.name+".json"))
		if err != nil {
			continue // never done here: nothing of it in the directory
		}
		var st stamp
		if json.Unmarshal(b, &st) != nil {
			continue
		}
		if key, err := r.KeyOf(s.name, s.params, s.deps, s.inputs...); err == nil && key == st.Key {
			r.keys[s.name] = key // current: the stages after it may be too
			continue
		}
		for n := range st.Files {
			if !filepath.IsLocal(n) || strings.HasPrefix(filepath.ToSlash(n), StampDir+"/") {
				continue
			}
			if _, err := os.Lstat(filepath.Join(r.Dir, n)); err == nil {
				out = append(out, n)
			}
		}
	}
	sort.Strings(out)
	return out
}

// noteOutdated records in r.Outdated, and logs as a warning, the files
// outdatedAfter finds after a run stopped by --until STAGE.
func (r *Runner) noteOutdated(until string, later []stage) {
	if r.Outdated = r.outdatedAfter(later); len(r.Outdated) > 0 {
		slog.Warn("an earlier run's outputs of the stages after --until stay in the directory but no longer match this run's inputs or parameters; a run without --until rewrites them",
			"until", until, "dir", r.Dir, "files", strings.Join(r.Outdated, ", "))
	}
}
