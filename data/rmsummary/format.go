package rmsummary

import (
	"bytes"
	"io"

	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/data/internal/logread"
)

// Name is the format's --format name.
const Name data.Format = "rm-app-summary" // YARN ResourceManager application summary log lines

// Format is the ResourceManager summary entry of the table of log
// formats: content that holds both appId= and submitTime=.
var Format = data.LogFormat{
	Name: Name,
	Sniff: func(h *data.Head) bool {
		return bytes.Contains(h.Bytes, []byte("appId=")) && bytes.Contains(h.Bytes, []byte("submitTime="))
	},
	Read: read,
}

// logState is the state of one read of a summary log.
type logState struct{ *logread.State }

func read(path string, src io.Reader, opt *data.ReadOptions) (*data.Log, error) {
	s := &logState{logread.New(Name, opt)}
	return s.ReadAll(path, src, logread.Files{Reserve: true}, s.readRMSummary)
}
