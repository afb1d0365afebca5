package pipeline

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/schedplan/schedplan/data"
)

// StampDir is the folder, inside an output directory, that records what each
// stage computed from which inputs.
const StampDir = ".schedplan"

// Runner runs pipeline stages into an output directory so that re-runs are
// cheap and safe:
//
//   - a stage's key is a hash of its name, the schedplan format version, its
//     parameters and the keys of the stages it depends on (the first stage
//     hashes the input file's bytes);
//   - after a stage has written its files (each to a temporary name, then
//     renamed), the runner records a stamp: the key, the SHA-256 of every file
//     and the stage's state (a JSON value later stages can use);
//   - a stage whose stamp has the same key and whose files are all present and
//     unchanged is skipped, and its state is loaded from the stamp;
//   - a stage that must run never replaces an existing file with different
//     bytes unless Force is set.
//
// An interrupted run leaves whole files only (the stamp of the stage that was
// cut short is missing), so the next run redoes that stage and resumes.
type Runner struct {
	Dir   string
	Force bool
	// Hook, when set, is called before each stage runs (for progress bars)
	// and after it ends (err is the stage's error).
	Hook func(stage string, event StageEvent, err error)
	// Progress, when set, is told how far a long stage has come.
	Progress func(stage string, done, total int)
	// Fail, when set, is called after each file is written; a non-nil error
	// aborts the stage there. Tests use it to interrupt a run.
	Fail func(stage, file string) error

	keys    map[string]string
	Skipped []string
	Ran     []string
}

// StageEvent is what a Hook is told.
type StageEvent int

// Stage events.
const (
	StageStart StageEvent = iota
	StageSkip
	StageDone
)

type stamp struct {
	Stage string            `json:"stage"`
	Key   string            `json:"key"`
	Files map[string]string `json:"files"` // name → sha256
	State json.RawMessage   `json:"state"`
}

// Open prepares the output directory. A directory that exists, is not empty
// and was not written by schedplan is refused unless Force is set.
func (r *Runner) Open() error {
	r.keys = map[string]string{}
	entries, err := os.ReadDir(r.Dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return os.MkdirAll(filepath.Join(r.Dir, StampDir), 0o755)
	case err != nil:
		return err
	}
	if len(entries) > 0 && !r.Force {
		if _, err := os.Stat(filepath.Join(r.Dir, StampDir)); err != nil {
			return fmt.Errorf("output directory %s exists and was not written by schedplan; choose another or pass --force", r.Dir)
		}
	}
	return os.MkdirAll(filepath.Join(r.Dir, StampDir), 0o755)
}

// KeyOf computes a stage key from its name, parameters, the keys of the
// stages it depends on and any extra bytes (such as an input file's content).
func (r *Runner) KeyOf(stage string, params any, deps []string, extra ...[]byte) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "schedplan stage %s format %d\n", stage, BundleVersion)
	p, err := json.Marshal(params)
	if err != nil {
		return "", fmt.Errorf("stage %s: parameters: %w", stage, err)
	}
	h.Write(p)
	for _, d := range deps {
		k, ok := r.keys[d]
		if !ok {
			return "", fmt.Errorf("stage %s depends on stage %s, which has not run", stage, d)
		}
		fmt.Fprintf(h, "\n%s=%s", d, k)
	}
	for _, e := range extra {
		s := sha256.Sum256(e)
		h.Write(s[:])
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Stage runs (or skips) one stage. key comes from KeyOf. state points to the
// stage's state value: on a skip it is filled from the stamp; on a run, run
// fills it and returns the files to write (name → bytes, names relative to
// Dir), which the runner writes atomically in name order before the stamp.
func (r *Runner) Stage(name, key string, state any, run func() (map[string][]byte, error)) error {
	stampPath := filepath.Join(r.Dir, StampDir, name+".json")
	if r.upToDate(stampPath, key, state) {
		r.keys[name] = key
		r.Skipped = append(r.Skipped, name)
		r.hook(name, StageSkip, nil)
		slog.Debug("stage up to date, skipped", "stage", name)
		return nil
	}
	r.hook(name, StageStart, nil)
	t0 := time.Now()
	files, err := run()
	if err != nil {
		r.hook(name, StageDone, err)
		return fmt.Errorf("stage %s: %w", name, err)
	}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	if !r.Force {
		for _, n := range names {
			old, err := os.ReadFile(filepath.Join(r.Dir, n))
			if err == nil && !bytes.Equal(old, files[n]) {
				err := fmt.Errorf("stage %s: %s exists with other content (its inputs or parameters changed); pass --force to overwrite", name, filepath.Join(r.Dir, n))
				r.hook(name, StageDone, err)
				return err
			}
		}
	}
	st := stamp{Stage: name, Key: key, Files: map[string]string{}}
	for _, n := range names {
		p := filepath.Join(r.Dir, n)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := data.WriteBytesAtomic(p, true, files[n]); err != nil {
			r.hook(name, StageDone, err)
			return fmt.Errorf("stage %s: %w", name, err)
		}
		sum := sha256.Sum256(files[n])
		st.Files[n] = hex.EncodeToString(sum[:])
		if r.Fail != nil {
			if err := r.Fail(name, n); err != nil {
				r.hook(name, StageDone, err)
				return fmt.Errorf("stage %s: %w", name, err)
			}
		}
	}
	if st.State, err = json.Marshal(state); err != nil {
		return fmt.Errorf("stage %s: state: %w", name, err)
	}
	b, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	if err := data.WriteBytesAtomic(stampPath, true, append(b, '\n')); err != nil {
		return fmt.Errorf("stage %s: %w", name, err)
	}
	r.keys[name] = key
	r.Ran = append(r.Ran, name)
	slog.Info("stage done", "stage", name, "files", len(names), "seconds", time.Since(t0).Seconds())
	r.hook(name, StageDone, nil)
	return nil
}

func (r *Runner) hook(stage string, ev StageEvent, err error) {
	if r.Hook != nil {
		r.Hook(stage, ev, err)
	}
}

// upToDate reports whether the stamp at path matches key and every file it
// lists is unchanged; if so it loads the state.
func (r *Runner) upToDate(path, key string, state any) bool {
	b, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	var st stamp
	if json.Unmarshal(b, &st) != nil || st.Key != key {
		return false
	}
	for n, sum := range st.Files {
		f, err := os.ReadFile(filepath.Join(r.Dir, n))
		if err != nil {
			return false
		}
		s := sha256.Sum256(f)
		if hex.EncodeToString(s[:]) != sum {
			return false
		}
	}
	return json.Unmarshal(st.State, state) == nil
}
