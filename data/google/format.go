package google

import (
	"bytes"
	"io"
	"strings"

	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/data/internal/logread"
)

// Name is the format's --format name.
const Name data.Format = "google-2019" // Google cluster data 2019: CollectionEvents (+ InstanceEvents), CSV or JSON lines

// Format is the Google 2019 entry of the table of log formats: a directory
// of collection_events* and instance_events* files, JSON that names
// collection_id, or CSV whose header names collection_id and time.
var Format = data.LogFormat{
	Name: Name,
	DirEntry: func(name string) bool {
		return strings.HasPrefix(name, "collection_events") || strings.HasPrefix(name, "instance_events")
	},
	Sniff: func(h *data.Head) bool {
		if h.JSON() {
			return bytes.Contains(h.Bytes, []byte(`"collection_id"`))
		}
		return !bytes.HasPrefix(h.Trim, []byte(";")) && bytes.Contains(h.First, []byte("collection_id")) && bytes.Contains(h.First, []byte("time"))
	},
	Read: read,
}

// logState is the state of one read of a Google trace.
type logState struct{ *logread.State }

func read(path string, src io.Reader, opt *data.ReadOptions) (*data.Log, error) {
	s := &logState{logread.New(Name, opt)}
	return s.Read(path, src, s.readGooglePath, s.readGoogleCollections)
}
