package spark

import (
	"bytes"
	"io"
	"strings"

	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/data/internal/logread"
)

// Name is the format's --format name.
const Name data.Format = "spark-eventlog" // Spark event logs (JSON lines; plain, lz4, lzf, snappy, zstd; rolling and Spark 1.x directories)

// Format is the Spark entry of the table of log formats: a rolling
// event-log directory, a directory holding event logs, or content whose
// first line is a SparkListener event.
var Format = data.LogFormat{
	Name:    Name,
	DirName: func(name string) bool { return strings.HasPrefix(name, sparkRollingPrefix) },
	DirEntry: func(name string) bool {
		return strings.HasPrefix(name, sparkRollingPrefix) || strings.HasPrefix(name, sparkLegacyPrefix)
	},
	Sniff: func(h *data.Head) bool { return isSparkEventLine(h.Trim) },
	Read:  read,
}

// logState is the state of one read of Spark event logs.
type logState struct {
	*logread.State
	// sparkHeld is the Spark application read last, held back until the
	// next one shows whether it is an earlier attempt (sparkattempt.go).
	sparkHeld *sparkOutput
}

func read(path string, src io.Reader, opt *data.ReadOptions) (*data.Log, error) {
	s := &logState{State: logread.New(Name, opt)}
	return s.Read(path, src, s.readSparkPath, s.readSparkStream)
}

// isSparkEventLine reports whether the first line of b is a Spark event: a
// JSON object whose "Event" names a SparkListener event, however a JSON
// tool spaced or ordered it.
func isSparkEventLine(b []byte) bool {
	if bytes.HasPrefix(b, []byte(`{"Event":`)) {
		return true
	}
	if len(b) == 0 || b[0] != '{' {
		return false
	}
	first, _, _ := bytes.Cut(b, []byte{'\n'})
	name, ok := sparkEventName(first)
	return ok && strings.Contains(name, "SparkListener")
}
