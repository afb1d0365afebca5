package swf

import (
	"bytes"
	"io"

	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/data/internal/logread"
)

// Name is the format's --format name.
const Name data.Format = "swf" // Standard Workload Format (Parallel Workloads Archive)

// Format is the SWF entry of the table of log formats: a .swf file, or
// content that starts with a ';' header comment or whose first line is 18
// numbers.
var Format = data.LogFormat{
	Name:  Name,
	Ext:   []string{".swf"},
	Sniff: func(h *data.Head) bool { return bytes.HasPrefix(h.Trim, []byte(";")) },
	Guess: func(h *data.Head) bool {
		f := bytes.Fields(h.First)
		return len(f) == swfFields && data.Numeric(f)
	},
	Read: read,
}

// logState is the state of one read of an SWF log.
type logState struct{ *logread.State }

func read(path string, src io.Reader, opt *data.ReadOptions) (*data.Log, error) {
	s := &logState{logread.New(Name, opt)}
	return s.ReadAll(path, src, logread.Files{Reserve: true}, s.readSWF)
}
