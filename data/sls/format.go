package sls

import (
	"bytes"
	"io"

	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/data/internal/logread"
)

// The formats' --format names.
const (
	Name      data.Format = "sls"   // YARN Scheduler Load Simulator JSON trace
	RumenName data.Format = "rumen" // Hadoop Rumen JSON job trace
)

// Format is the SLS entry of the table of log formats: JSON that names
// job.start.ms or job.tasks.
var Format = data.LogFormat{
	Name: Name,
	Sniff: func(h *data.Head) bool {
		return h.JSON() && (bytes.Contains(h.Bytes, []byte(`"job.start.ms"`)) || bytes.Contains(h.Bytes, []byte(`"job.tasks"`)))
	},
	Read: func(path string, src io.Reader, opt *data.ReadOptions) (*data.Log, error) {
		s := &logState{logread.New(Name, opt)}
		return s.read(path, src, s.readSLS)
	},
}

// Rumen is the Rumen entry of the table of log formats: JSON that names
// jobID.
var Rumen = data.LogFormat{
	Name:  RumenName,
	Sniff: func(h *data.Head) bool { return h.JSON() && bytes.Contains(h.Bytes, []byte(`"jobID"`)) },
	Read: func(path string, src io.Reader, opt *data.ReadOptions) (*data.Log, error) {
		s := &logState{logread.New(RumenName, opt)}
		return s.read(path, src, s.readRumen)
	},
}

// logState is the state of one read of an SLS or Rumen trace.
type logState struct{ *logread.State }

func (s *logState) read(path string, src io.Reader, stream logread.StreamFunc) (*data.Log, error) {
	return s.ReadAll(path, src, logread.Files{}, stream)
}
