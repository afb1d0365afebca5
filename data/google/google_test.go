package google

import (
	"os"
	"testing"

	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/data/internal/logtest"
)

// The tests read through data.ReadLog and data.ReadBytes, which need the
// format in the table (package data/logs, which registers every format,
// imports this one).
func init() { data.RegisterLogFormat(Format) }

func TestGoogle2019Golden(t *testing.T) {
	// Hand-checked: collection 101 runs instance 0 from 600.5 s to 609 s
	// and instance 1 twice (evicted after 4.5 s, then 606 s to 610 s): two
	// successful runs, 8.5 + 4 = 12.5 task-seconds; 104 runs one instance 14
	// s. 100 never ends in the window, 102 was killed, 103 is an alloc set,
	// line 12's time is not a number.
	lg := logtest.Golden(t, "google-2019", "../testdata/logs/google-2019", data.ReadOptions{})
	if lg.Summary.Format != Name {
		t.Errorf("detected %s", lg.Summary.Format)
	}
	logtest.Golden(t, "google-2019-collections", "../testdata/logs/google-2019/collection_events-000000000000.json", data.ReadOptions{Format: Name})
}

func TestGoogle2019BadRecord(t *testing.T) {
	logtest.CheckBadRecord(t, Name, "time,type,collection_id,collection_type\n600000000,0,1,0\n610000000,FINISH,1,0\n611000000,EXPLODE,2,0\n", "coll.csv", 4, "type")
}

func FuzzReadGoogle2019(f *testing.F) {
	b, _ := os.ReadFile("../testdata/logs/google-2019/collection_events-000000000000.json")
	f.Add(b)
	f.Add([]byte("time,type,collection_id\n0,0,1\n9223372036854775806,6,1\n"))
	f.Fuzz(func(t *testing.T, b []byte) { logtest.CheckRead(t, b, Name) })
}
