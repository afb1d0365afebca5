package jhist

import (
	"bytes"
	"io"
	"strings"

	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/data/internal/logread"
)

// Name is the format's --format name.
const Name data.Format = "jhist" // MapReduce job history files (.jhist, Avro-JSON events)

// Format is the job history entry of the table of log formats: .jhist
// files (in a directory, at any depth), or content that starts with the
// Avro-Json header.
var Format = data.LogFormat{
	Name:     Name,
	Ext:      []string{".jhist"},
	Deep:     true,
	DirEntry: func(name string) bool { return strings.HasSuffix(name, ".jhist") },
	Sniff:    func(h *data.Head) bool { return bytes.HasPrefix(h.Trim, []byte("Avro-Json")) },
	Read:     read,
}

// logState is the state of one read of job history files.
type logState struct{ *logread.State }

func read(path string, src io.Reader, opt *data.ReadOptions) (*data.Log, error) {
	s := &logState{logread.New(Name, opt)}
	return s.ReadAll(path, src, logread.Files{Deep: true, Suffix: ".jhist"}, s.readJHist)
}
