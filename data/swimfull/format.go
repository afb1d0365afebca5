package swimfull

import (
	"bytes"
	"io"

	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/data/internal/logread"
)

// Name is the format's --format name.
const Name data.Format = "swim-full" // full-format SWIM trace (durations and task-seconds)

// Format is the full-format SWIM entry of the table of log formats:
// content whose first line has at least swimFullMinFields tab-separated
// fields.
var Format = data.LogFormat{
	Name: Name,
	Sniff: func(h *data.Head) bool {
		return !h.JSON() && len(bytes.Split(h.First, []byte{'\t'})) >= swimFullMinFields
	},
	Read: read,
}

// logState is the state of one read of a SWIM trace.
type logState struct{ *logread.State }

func read(path string, src io.Reader, opt *data.ReadOptions) (*data.Log, error) {
	s := &logState{logread.New(Name, opt)}
	return s.ReadAll(path, src, logread.Files{Reserve: true}, s.readSWIMFull)
}
