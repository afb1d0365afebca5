package spark

import (
	"testing"

	"github.com/schedplan/schedplan/data"
)

// The tests of this package read through data.ReadLog, which needs the
// format in the table (package data/logs registers every format; it
// cannot be imported here).
func init() { data.RegisterLogFormat(Format) }

// sparkEventName reads the event's name however a JSON tool spaced or
// ordered the line, and refuses lines without one.
func TestSparkEventName(t *testing.T) {
	for _, tc := range []struct {
		line string
		want string
		ok   bool
	}{
		{`{"Event":"SparkListenerJobEnd","Job ID":1}`, "SparkListenerJobEnd", true},
		{`{"Event" : "SparkListenerJobEnd"}`, "SparkListenerJobEnd", true},
		{`{"Job ID": 1, "Event": "SparkListenerJobEnd"}`, "SparkListenerJobEnd", true},
		{`{"Event":"Spark\u004cistenerJobEnd"}`, "SparkListenerJobEnd", true},
		{`{"Job ID": 1}`, "", false},
		{`["Event", "SparkListenerJobEnd"]`, "", false},
	} {
		got, ok := sparkEventName([]byte(tc.line))
		if got != tc.want || ok != tc.ok {
			t.Errorf("sparkEventName(%s) = %q, %v; want %q, %v", tc.line, got, ok, tc.want, tc.ok)
		}
	}
}
