package pipeline

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/schedplan/schedplan/pipeline/inputs"
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
// of later stages (those a run stops before, by --until or a merge) list
// when the stage's stamp no longer matches this run: its key, computed from
// this run's parameters and inputs and the keys of the stages it depends
// on, differs (or a stage it depends on is itself outdated or never ran).
// Those files are an earlier run's; so are the stamps, also returned (with
// the stamp directory's files they list, such as a state's side file).
func (r *Runner) outdatedAfter(later []stage) (files, stamps []string) {
	for _, s := range later {
		stampFile := filepath.Join(StampDir, s.name+".json")
		b, err := os.ReadFile(filepath.Join(r.Dir, stampFile))
		if err != nil {
			continue // never done here: nothing of it in the directory
		}
		var st stamp
		if json.Unmarshal(b, &st) == nil {
			if key, err := r.KeyOf(s.name, s.params, s.deps, s.inputs...); err == nil && key == st.Key {
				r.keys[s.name] = key // current: the stages after it may be too
				continue
			}
		}
		stamps = append(stamps, stampFile)
		for n := range st.Files {
			if !filepath.IsLocal(n) {
				continue
			}
			if _, err := os.Lstat(filepath.Join(r.Dir, n)); err != nil {
				continue
			}
			if strings.HasPrefix(filepath.ToSlash(n), StampDir+"/") {
				stamps = append(stamps, n)
			} else {
				files = append(files, n)
			}
		}
	}
	sort.Strings(files)
	return files, stamps
}

// staleParts returns, sorted, the parts (under PartsDir) of the sharded
// stages among stages, but skip's (the stage a merge reads the parts of):
// a run that computes or keeps a stage whole does not read them, and left
// in place a later merge could take them for its own.
func (r *Runner) staleParts(stages []stage, skip string) []string {
	var out []string
	for _, s := range stages {
		if s.name == skip || !slices.Contains(ShardedStages, s.name) {
			continue
		}
		entries, _ := os.ReadDir(filepath.Join(r.Dir, PartsDir))
		re := partName(s.name)
		for _, e := range entries {
			if re.MatchString(e.Name()) {
				out = append(out, filepath.Join(PartsDir, e.Name()))
			}
		}
	}
	sort.Strings(out)
	return out
}

// checkOutdated applies the stale-output policy (removeStale's) to a whole
// run, before its first stage: the parts of the stages the run computes
// whole (staleParts) and, when it stops after a stage (--until, or the
// merge of --stage), the files of the later stages that an earlier run
// wrote with other inputs or parameters (outdatedAfter), which would sit
// beside this run's outputs (a report of another run) looking current.
// Without Force the run is refused; with Force they are removed, each
// stage's files before its stamp (an interruption leaves the stage not
// done), and recorded in r.Removed.
func (r *Runner) checkOutdated(stages []stage, so *inputs.StageOptions) error {
	stop := slices.IndexFunc(stages, func(s stage) bool { return s.name == cmp.Or(so.Until, so.Stage) })
	if stop < 0 {
		stop = len(stages) - 1
	}
	saved := r.keys
	r.keys = maps.Clone(saved) // the keys are computed again, stage by stage, as the run goes
	defer func() { r.keys = saved }()
	for _, s := range stages[:stop+1] {
		key, err := r.KeyOf(s.name, s.params, s.deps, s.inputs...)
		if err != nil {
			return err
		}
		r.keys[s.name] = key
	}
	parts := r.staleParts(stages[:stop+1], so.Stage)
	later, stamps := r.outdatedAfter(stages[stop+1:])
	if !r.Force {
		switch {
		case len(parts) > 0:
			return fmt.Errorf("%s in %s: parts of an earlier sharded run that this run does not merge (it computes their stage whole); pass --force to remove them", strings.Join(parts, ", "), r.Dir)
		case len(later) > 0:
			return fmt.Errorf("%s in %s: outputs of the stages after %s that an earlier run wrote with other inputs or parameters; this run stops before rewriting them, and left in place they would not match its outputs; pass --force to remove them", strings.Join(later, ", "), r.Dir, stages[stop].name)
		}
	}
	for _, n := range slices.Concat(parts, later, stamps) {
		if err := os.Remove(filepath.Join(r.Dir, n)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("removing %s, an earlier run's output that no longer matches: %w", filepath.Join(r.Dir, n), err)
		}
	}
	if r.Removed = slices.Concat(parts, later); len(r.Removed) > 0 {
		syncDir(r.Dir)
		slog.Warn("removed an earlier run's outputs that no longer match this run (--force)", "dir", r.Dir, "files", strings.Join(r.Removed, ", "))
	}
	return nil
}
