package spark

import (
	"os"
	"sort"
	"strconv"

	"github.com/schedplan/schedplan/data"
)

// Spark on YARN retries a failed application master: each attempt writes
// its own event log, named APP_ID_ATTEMPT (EventLogFileWriter.
// nameForAppAndAttempt), with the same "App ID" and its own "App Attempt
// ID" (1, 2, …) in SparkListenerApplicationStart. A spark-events directory
// may hold both. The last attempt is what the application finally ran as:
// it is kept, and every earlier attempt that left jobs is dropped, counted
// in the summary with its file. Attempts are compared by number (a
// non-numeric one counts as 0); two logs of the same application and
// attempt (a copied file) are duplicates, and the first read is kept.
// An attempt that yields no job (incomplete: no ApplicationEnd) does not
// displace one that does.
//
// The logs of one application are read one after another (a directory's
// entries are sorted by application first, sortSparkEntries), so only the
// application read last is held back until the next shows whether it is
// another attempt.

// Reasons for dropping an attempt.
const (
	dropSparkAttempt   = "earlier attempt of a Spark application (the last attempt is kept)"
	dropSparkDuplicate = "Spark application read twice (same App ID and attempt; the first is kept)"
)

// sparkOutput is what one application attempt yields: its jobs and the
// tasks of those jobs.
type sparkOutput struct {
	app, attempt, file string
	jobs               []data.JobRow
	tasks              []data.TaskRow
}

// attemptNumber is the attempt's number, 0 when it has none.
func (o *sparkOutput) attemptNumber() int64 {
	n, err := strconv.ParseInt(o.attempt, 10, 64)
	if err != nil || n < 0 {
		return 0
	}
	return n
}

// holdSpark takes an application's output: it replaces the held one when
// both are attempts of one application and it is the later, is dropped
// when it is the earlier (or the same), and otherwise flushes the held one
// and is held in its place.
func (s *logState) holdSpark(o *sparkOutput) {
	if len(o.jobs) == 0 {
		return
	}
	h := s.sparkHeld
	if h == nil || h.app != o.app {
		s.flushSpark()
		s.sparkHeld = o
		return
	}
	switch an, bn := h.attemptNumber(), o.attemptNumber(); {
	case bn > an:
		s.Sum.Drop(dropSparkAttempt, h.file, 0, h.app+" attempt "+h.attempt)
		s.sparkHeld = o
	case bn < an:
		s.Sum.Drop(dropSparkAttempt, o.file, 0, o.app+" attempt "+o.attempt)
	default:
		s.Sum.Drop(dropSparkDuplicate, o.file, 0, o.app)
	}
}

// flushSpark adds the held application's jobs and tasks to the tables.
func (s *logState) flushSpark() {
	h := s.sparkHeld
	if h == nil {
		return
	}
	for k := range h.jobs {
		s.AddJob(&h.jobs[k])
	}
	for k := range h.tasks {
		s.Tasks.Add(&h.tasks[k])
	}
	s.sparkHeld = nil
}

// sortSparkEntries sorts a spark-events directory's entries by the
// application (and attempt) their names give, so that a rolling directory
// eventlog_v2_APP_1 sorts beside a file APP_2: the attempts of an
// application are read one after another.
func sortSparkEntries(entries []os.DirEntry) {
	sort.SliceStable(entries, func(a, b int) bool {
		ka, kb := sparkLogName(entries[a].Name()), sparkLogName(entries[b].Name())
		if ka != kb {
			return ka < kb
		}
		return entries[a].Name() < entries[b].Name()
	})
}
