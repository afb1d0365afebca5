package tasklevel

import (
	"crypto/sha256"
	"sync"

	"github.com/schedplan/schedplan/cluster/task"
	"github.com/schedplan/schedplan/cluster/yarn"
	"github.com/schedplan/schedplan/pipeline/bundle"
)

// fileCacheMax bounds the files a fileCache keeps; a full cache starts
// again empty (tune-deploy replays a few dozen candidate files).
const fileCacheMax = 256

// fileCache keeps what the replay derives from a YARN file's bytes alone,
// by their SHA-256: tune-deploy replays every candidate file on each of its
// chunks and seeds, and each replay read the same bytes into the same
// parsed, checked file (0.5 CPU-s at 1 M jobs, 4 at 10 M). What it keeps
// is never changed after the parse, so runs on every worker share it.
type fileCache[T any] struct {
	mu sync.Mutex
	m  map[[sha256.Size]byte]parsed[T]
}

// parsed is one file's parse and its error.
type parsed[T any] struct {
	v   T
	err error
}

// get returns parse(b), parsing only bytes it has not seen.
func (c *fileCache[T]) get(b []byte, parse func([]byte) (T, error)) (T, error) {
	k := sha256.Sum256(b)
	c.mu.Lock()
	e, ok := c.m[k]
	c.mu.Unlock()
	if ok {
		return e.v, e.err
	}
	v, err := parse(b)
	c.mu.Lock()
	if c.m == nil || len(c.m) >= fileCacheMax {
		c.m = map[[sha256.Size]byte]parsed[T]{}
	}
	c.m[k] = parsed[T]{v, err}
	c.mu.Unlock()
	return v, err
}

// capacityFile is a checked capacity-scheduler.xml as the replay runs it.
type capacityFile struct {
	cs       *yarn.CapacityScheduler
	root     task.CapacityQueue // nil Children when demErr ≠ nil
	labelled bool               // bundle.NamesLabels
	demErr   error              // DemotionsByPath's
}

var capacityFiles fileCache[capacityFile]

// parseCapacityFile parses a capacity-scheduler.xml once and checks it
// as bundle.CheckCapacitySchedulerXML does (bundle.ParseCS).
func parseCapacityFile(b []byte) (capacityFile, error) {
	cs, err := bundle.ParseCS(b, yarn.CSCheckOptions{})
	if err != nil {
		return capacityFile{}, err
	}
	f := capacityFile{cs: cs, labelled: bundle.NamesLabels(cs)}
	dem, err := DemotionsByPath(cs)
	if err != nil {
		f.demErr = err
		return f, nil
	}
	f.root = CapacityQueue(cs, cs.Root, dem)
	return f, nil
}

// fairFile is a checked fair-scheduler.xml as the replay runs it.
type fairFile struct {
	fs     *yarn.FairScheduler
	users  fairAppLimits
	usrErr error // userLimitsOf's
}

var fairFiles fileCache[fairFile]

// parseFairFile checks and parses a fair-scheduler.xml
// (bundle.CheckFairSchedulerReplay, then yarn.ParseFairScheduler).
func parseFairFile(b []byte) (fairFile, error) {
	if err := bundle.CheckFairSchedulerReplay(b); err != nil {
		return fairFile{}, err
	}
	fs, err := yarn.ParseFairScheduler(b)
	if err != nil {
		return fairFile{}, err
	}
	users, err := userLimitsOf(fs)
	return fairFile{fs: fs, users: users, usrErr: err}, nil
}
