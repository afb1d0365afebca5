package alibaba

import (
	"bytes"
	"io"
	"strings"

	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/data/internal/logread"
)

// Name is the format's --format name.
const Name data.Format = "alibaba-2018" // Alibaba cluster-trace-v2018 batch_task (+ batch_instance) CSV

// Format is the Alibaba 2018 entry of the table of log formats: a
// directory holding batch_task*, or CSV whose first line has batch_task's
// nine fields and a task status in the fifth.
var Format = data.LogFormat{
	Name:     Name,
	DirEntry: func(name string) bool { return strings.HasPrefix(name, "batch_task") },
	Guess: func(h *data.Head) bool {
		f := bytes.Split(h.First, []byte{','})
		return len(f) == len(alibabaTaskColumns) && alibabaStatus(string(f[4]))
	},
	Read: read,
}

// logState is the state of one read of an Alibaba trace.
type logState struct{ *logread.State }

func read(path string, src io.Reader, opt *data.ReadOptions) (*data.Log, error) {
	s := &logState{logread.New(Name, opt)}
	return s.Read(path, src, s.readAlibabaPath, s.readAlibabaTasks)
}
