package pipeline

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/internal/lazyre"
	"github.com/schedplan/schedplan/pipeline/bundle"
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
//     and the stage's state (a JSON value later stages can use; its per-job
//     arrays go to a binary side file the stamp hashes, stagecols.go);
//   - a stage whose stamp has the same key and whose files are all present and
//     unchanged is skipped, and its state is loaded from the stamp;
//   - a stage that must run never replaces an existing file with different
//     bytes unless Force is set, nor leaves in place a file its earlier
//     stamp lists and this run does not write (removed with Force, else
//     the stage is refused).
//
// An interrupted run leaves whole files only (the stamp of the stage that was
// cut short is missing), so the next run redoes that stage and resumes; the
// temporary files a killed run leaves are removed by the next Open.
//
// Open takes an exclusive lock on the output directory (flock on
// .schedplan/lock) that Close releases (the system releases it when the
// process ends): a second process running into the same directory fails at
// once, or waits with Wait. Runners of one process share the lock.
type Runner struct {
	Dir   string
	Force bool
	// Wait makes Open wait for another run that holds the output
	// directory's lock, instead of failing.
	Wait bool
	// Hook, when set, is called before each stage runs (for progress bars)
	// and after it ends (err is the stage's error).
	Hook func(stage string, event StageEvent, err error)
	// Progress, when set, is told how far a long stage has come.
	Progress func(stage string, done, total int)
	// Fail, when set, is called after each file is written; a non-nil error
	// aborts the stage there. Tests use it to interrupt a run.
	Fail func(stage, file string) error

	// shard is set for a shard's run (StageOptions.Shard): the directory's
	// lock is taken shared, so that shards run side by side, temporary
	// files are left alone (another shard may be writing them), and every
	// stage must be up to date (shards never compute a stage).
	shard bool

	keys map[string]string
	lock *dirLock
	// streamed maps the outputs a stage writes itself (StreamFile) to
	// their temporary files.
	streamed map[string]string
	Skipped  []string
	Ran      []string
	// Removed lists the files of an earlier run that a run with Force
	// removed before its first stage because they no longer matched it
	// (checkOutdated): parts of a stage it computed whole, and outputs of
	// the stages after the one it stopped at.
	Removed []string
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

// LockFile is the file in StampDir that Open locks.
const LockFile = "lock"

// Open prepares the output directory, by the output rule (CheckOutDir): a
// directory that exists, is not empty and was not written by schedplan,
// or is a symbolic link, is refused unless Force is set; the root folder
// always. Open
// locks the directory (see Runner), checks that files can be created and
// renamed in it, and removes the temporary files a killed run left, all
// before any stage computes.
func (r *Runner) Open() error {
	if r.Dir == "" {
		return errors.New("no output directory given")
	}
	r.keys = map[string]string{}
	if err := CheckOutDir("--out", r.Dir, r.Force); err != nil {
		return err
	}
	stamps := filepath.Join(r.Dir, StampDir)
	if err := os.MkdirAll(stamps, 0o755); err != nil {
		return fmt.Errorf("output directory %s cannot be written: %w", r.Dir, err)
	}
	if r.lock == nil {
		l, err := lockDir(r.Dir, r.Wait, r.shard)
		if err != nil {
			return err
		}
		r.lock = l
	}
	for _, d := range []string{r.Dir, stamps} {
		if err := checkWritable(d); err != nil {
			r.Close()
			return err
		}
	}
	if r.shard {
		return nil
	}
	if err := removeLeftovers(r.Dir); err != nil {
		r.Close()
		return err
	}
	return nil
}

// Close releases the output directory's lock. It is safe to call more than
// once.
func (r *Runner) Close() error {
	l := r.lock
	r.lock = nil
	if l == nil {
		return nil
	}
	return l.release()
}

// checkWritable creates, renames and removes a file in dir, so that a
// directory the run cannot write is refused before anything is computed.
// The probe's names follow the temporary-file pattern, so a kill leaves
// nothing that the next run does not remove.
func checkWritable(dir string) error {
	f, err := os.CreateTemp(dir, ".write-check.tmp-*")
	if err != nil {
		return fmt.Errorf("output directory %s cannot be written: %w", dir, errors.Unwrap(err))
	}
	tmp := f.Name()
	f.Close()
	renamed := filepath.Join(dir, ".write-check-renamed.tmp-"+strings.TrimPrefix(filepath.Base(tmp), ".write-check.tmp-"))
	if err := os.Rename(tmp, renamed); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("output directory %s: files cannot be renamed in it: %w", dir, errors.Unwrap(err))
	}
	if err := os.Remove(renamed); err != nil {
		return fmt.Errorf("output directory %s: files cannot be removed from it: %w", dir, errors.Unwrap(err))
	}
	return nil
}

// leftover matches the temporary files schedplan writes (data.WriteFileAtomic:
// os.CreateTemp(dir, "."+base+".tmp-*"), whose * is digits).
var leftover = lazyre.New(`^\..+\.tmp-[0-9]+$`)

// removeLeftovers removes, in dir and its immediate subdirectories (where
// stages write, .schedplan included), the temporary files of an earlier run
// that was killed while writing. The caller holds dir's lock, so no live
// run of another process is writing them.
func removeLeftovers(dir string) error {
	return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable parts are not ours to clean
		}
		if d.IsDir() && p != dir && filepath.Dir(p) != filepath.Clean(dir) {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() && leftover().MatchString(d.Name()) {
			if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("removing the leftover temporary file %s: %w", p, err)
			}
			slog.Debug("removed a leftover temporary file", "file", p)
		}
		return nil
	})
}

// dirLock is a flock on an output directory's lock file, shared by the
// Runners of this process.
type dirLock struct {
	path string
	f    *os.File
	refs int
}

var (
	locksMu sync.Mutex
	locks   = map[string]*dirLock{}
)

// lockDir locks dir's lock file exclusively, or shared (waiting for another
// process when wait is set).
func lockDir(dir string, wait, shared bool) (*dirLock, error) {
	path, err := filepath.Abs(filepath.Join(dir, StampDir, LockFile))
	if err != nil {
		return nil, err
	}
	locksMu.Lock()
	if l := locks[path]; l != nil {
		l.refs++
		locksMu.Unlock()
		return l, nil
	}
	locksMu.Unlock()
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("output directory %s cannot be locked: %w", dir, err)
	}
	how := syscall.LOCK_EX
	if shared {
		how = syscall.LOCK_SH
	}
	if !wait {
		how |= syscall.LOCK_NB
	}
	for {
		err = syscall.Flock(int(f.Fd()), how)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, fmt.Errorf("output directory %s is in use by another schedplan run (it holds %s); wait for it to finish or choose another output directory", dir, path)
		}
		return nil, fmt.Errorf("output directory %s cannot be locked: %w", dir, err)
	}
	locksMu.Lock()
	defer locksMu.Unlock()
	if l := locks[path]; l != nil { // another Runner of this process won the race
		f.Close()
		l.refs++
		return l, nil
	}
	l := &dirLock{path: path, f: f, refs: 1}
	locks[path] = l
	return l, nil
}

func (l *dirLock) release() error {
	locksMu.Lock()
	defer locksMu.Unlock()
	if l.refs--; l.refs > 0 {
		return nil
	}
	delete(locks, l.path)
	return l.f.Close() // closing the descriptor releases the flock
}

// KeyOf computes a stage key from its name, parameters, the keys of the
// stages it depends on and any extra bytes (such as an input file's content).
func (r *Runner) KeyOf(stage string, params any, deps []string, extra ...[]byte) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "schedplan stage %s format %d tables %d\n", stage, bundle.BundleVersion, data.TableFormat)
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
	if r.upToDate(stampPath, name, key, state) {
		r.keys[name] = key
		r.Skipped = append(r.Skipped, name)
		r.hook(name, StageSkip, nil)
		slog.Debug("stage up to date, skipped", "stage", name)
		return nil
	}
	if r.shard {
		return fmt.Errorf("stage %s is not done in %s (or its inputs changed since): a shard reads the stages before its own; run them first (schedplan run --until %s, with the same flags)", name, r.Dir, name)
	}
	r.hook(name, StageStart, nil)
	err := r.runStage(name, key, stampPath, state, run)
	r.hook(name, StageDone, err)
	return err
}

// StreamFile creates the temporary file of an output the stage under way
// writes itself because it is too large to hold (name relative to Dir): the
// stage writes and closes it and lists name among its files with a nil
// value; the runner then checks it as it does the other files and renames
// it into place. A stage that fails leaves no trace of it.
func (r *Runner) StreamFile(name string) (*os.File, error) {
	p := filepath.Join(r.Dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(filepath.Dir(p), "."+filepath.Base(p)+".tmp-*")
	if err != nil {
		return nil, destError(p, err)
	}
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, err
	}
	if r.streamed == nil {
		r.streamed = map[string]string{}
	}
	r.streamed[name] = f.Name()
	return f, nil
}

// fileSum returns the SHA-256 of a file, read a buffer at a time.
func fileSum(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// checkStreamed returns the SHA-256 of a streamed output and, unless Force
// is set, refuses to replace a file of other content.
func (r *Runner) checkStreamed(stage, n, tmp string) (string, error) {
	p := filepath.Join(r.Dir, n)
	sum, err := fileSum(tmp)
	if err != nil {
		return "", fmt.Errorf("stage %s: %w", stage, destError(p, err))
	}
	if !r.Force {
		if old, err := fileSum(p); err == nil && old != sum {
			return "", fmt.Errorf("stage %s: %s exists with other content (its inputs or parameters changed); pass --force to overwrite", stage, p)
		}
	}
	return sum, nil
}

// placeStreamed renames a streamed output into place.
func (r *Runner) placeStreamed(stage, n, tmp string) error {
	p := filepath.Join(r.Dir, n)
	if err := os.Rename(tmp, p); err != nil {
		return fmt.Errorf("stage %s: %w", stage, destError(p, err))
	}
	syncDir(filepath.Dir(p))
	delete(r.streamed, n)
	return nil
}

// dropStreamed removes the temporary files of streamed outputs not placed.
func (r *Runner) dropStreamed() {
	for n, tmp := range r.streamed {
		os.Remove(tmp)
		delete(r.streamed, n)
	}
}

// syncDir fsyncs a directory so that a rename in it is durable (errors
// ignored: not every file system supports it).
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// runStage is Stage after the decision to run: it runs the stage and writes
// its files and stamp.
func (r *Runner) runStage(name, key, stampPath string, state any, run func() (map[string][]byte, error)) error {
	t0 := time.Now()
	defer r.dropStreamed()
	files, err := run()
	if err != nil {
		return fmt.Errorf("stage %s: %w", name, err)
	}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	streamSums := map[string]string{}
	for n, tmp := range r.streamed {
		if _, ok := files[n]; !ok {
			return fmt.Errorf("stage %s: streamed output %s not among its files", name, n)
		}
		if streamSums[n], err = r.checkStreamed(name, n, tmp); err != nil {
			return err
		}
	}
	if !r.Force {
		for _, n := range names {
			if _, ok := r.streamed[n]; ok {
				continue // checked above
			}
			old, err := os.ReadFile(filepath.Join(r.Dir, n))
			if err == nil && !bytes.Equal(old, files[n]) {
				return fmt.Errorf("stage %s: %s exists with other content (its inputs or parameters changed); pass --force to overwrite", name, filepath.Join(r.Dir, n))
			}
		}
	}
	if err := r.removeStale(name, r.staleFiles(stampPath, files)); err != nil {
		return err
	}
	st := stamp{Stage: name, Key: key, Files: map[string]string{}}
	cols := perJobColumnsOf(state)
	restore := detach(cols) // per-job arrays go to the side file
	st.State, err = json.Marshal(state)
	restore()
	if err != nil {
		return fmt.Errorf("stage %s: state: %w", name, err)
	}
	for _, n := range names {
		p := filepath.Join(r.Dir, n)
		if tmp, ok := r.streamed[n]; ok {
			if err := r.placeStreamed(name, n, tmp); err != nil {
				return err
			}
			st.Files[n] = streamSums[n]
		} else {
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return fmt.Errorf("stage %s: %w", name, err)
			}
			if err := data.WriteBytesAtomic(p, true, files[n]); err != nil {
				return fmt.Errorf("stage %s: %w", name, destError(p, err))
			}
			sum := sha256.Sum256(files[n])
			st.Files[n] = hex.EncodeToString(sum[:])
		}
		if r.Fail != nil {
			if err := r.Fail(name, n); err != nil {
				return fmt.Errorf("stage %s: %w", name, err)
			}
		}
	}
	if cols != nil {
		side := filepath.Join(r.Dir, sidePath(name))
		if st.Files[sidePath(name)], err = writeSide(side, cols); err != nil {
			return fmt.Errorf("stage %s: %w", name, destError(side, err))
		}
	}
	b, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return fmt.Errorf("stage %s: stamp: %w", name, err)
	}
	if err := data.WriteBytesAtomic(stampPath, true, append(b, '\n')); err != nil {
		return fmt.Errorf("stage %s: %w", name, destError(stampPath, err))
	}
	r.keys[name] = key
	r.Ran = append(r.Ran, name)
	slog.Info("stage done", "stage", name, "files", len(names), "seconds", time.Since(t0).Seconds())
	return nil
}

// hasFieldsOf reports whether a recorded JSON state has every key that a
// value of type t (a struct, or pointers to one) always encodes: the keys of
// its zero value, which leave out the omitempty fields.
func hasFieldsOf(t reflect.Type, recorded []byte) bool {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return true
	}
	zero, err := json.Marshal(reflect.New(t).Interface())
	if err != nil {
		return true // a custom encoder that needs a real value: no check
	}
	var want, got map[string]json.RawMessage
	if json.Unmarshal(zero, &want) != nil {
		return true
	}
	if json.Unmarshal(recorded, &got) != nil {
		return false
	}
	for k := range want {
		if _, ok := got[k]; !ok {
			return false
		}
	}
	return true
}

// destError names the file a write was for in place of the temporary file
// that the operating system's error names.
func destError(dest string, err error) error {
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe) && pe.Path != dest:
		return fmt.Errorf("cannot write %s: %w", dest, pe.Err)
	case errors.As(err, &le):
		return fmt.Errorf("cannot write %s: %w", dest, le.Err)
	}
	return err
}

func (r *Runner) hook(stage string, ev StageEvent, err error) {
	if r.Hook != nil {
		r.Hook(stage, ev, err)
	}
}

// upToDate reports whether the stamp at path is intact, is the named
// stage's, matches key and every file it lists is unchanged; if so it loads
// the state. A damaged stamp (unreadable JSON, another stage's, a missing
// or null state, a state without the fields the stage always records or
// with fields it does not know) means the stage is not done.
func (r *Runner) upToDate(path, name, key string, state any) bool {
	b, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	var st stamp
	if json.Unmarshal(b, &st) != nil || st.Stage != name || st.Key != key || st.Files == nil {
		return false
	}
	for n, sum := range st.Files {
		if s, err := fileSum(filepath.Join(r.Dir, n)); err != nil || s != sum {
			return false
		}
	}
	var recorded bytes.Buffer
	if json.Compact(&recorded, st.State) != nil {
		return false
	}
	if state == nil {
		return recorded.String() == "null"
	}
	pv := reflect.ValueOf(state)
	if pv.Kind() != reflect.Pointer || pv.IsNil() || recorded.String() == "null" {
		return false
	}
	// Decode into a fresh value, strictly (no unknown field), from a
	// record that has every field the state always writes (a {} would
	// load as zero values); only then does it replace *state.
	if !hasFieldsOf(pv.Elem().Type(), recorded.Bytes()) {
		return false
	}
	// The fresh value starts as a shallow copy, so that a state that
	// decodes itself into values it points to (a wrapper such as Run's
	// stamped records) keeps its targets.
	fresh := reflect.New(pv.Elem().Type())
	fresh.Elem().Set(pv.Elem())
	dec := json.NewDecoder(bytes.NewReader(recorded.Bytes()))
	dec.DisallowUnknownFields()
	if dec.Decode(fresh.Interface()) != nil {
		return false
	}
	pv.Elem().Set(fresh.Elem())
	if _, ok := st.Files[sidePath(name)]; ok { // checked above with the other files
		if cols := perJobColumnsOf(state); cols == nil || readSide(filepath.Join(r.Dir, sidePath(name)), cols) != nil {
			return false
		}
	}
	return true
}
