package pipeline

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"
)

func TestLogFormatArg(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "text"},
		{[]string{"run", "--log-format", "json"}, "json"},
		{[]string{"--log-format=json", "run"}, "json"},
		{[]string{"run", "--log-format", "json", "--log-format", "text"}, "text"},
		{[]string{"run", "--", "--log-format", "json"}, "text"},
		{[]string{"run", "--log-format"}, "text"},
	} {
		if got := LogFormatArg(tc.args); got != tc.want {
			t.Errorf("LogFormatArg(%q) = %q, want %q", tc.args, got, tc.want)
		}
	}
}

// LogExit writes one JSON object at level ERROR with event "exit" and the
// exit code, or the text line, whatever the default logger's level.
func TestLogExit(t *testing.T) {
	var b bytes.Buffer
	LogExit(&b, true, "schedplan", errors.New("boom"), 3, "flag", "runs")
	var r map[string]any
	if err := json.Unmarshal(b.Bytes(), &r); err != nil || bytes.Count(b.Bytes(), []byte("\n")) != 1 {
		t.Fatalf("%q: %v", b.String(), err)
	}
	if r["level"] != "ERROR" || r["msg"] != "boom" || r["event"] != "exit" || r["exit_code"] != 3.0 || r["flag"] != "runs" {
		t.Errorf("record %v", r)
	}
	b.Reset()
	LogExit(&b, false, "schedplan", errors.New("boom"), 3)
	if b.String() != "schedplan: boom\n" {
		t.Errorf("text: %q", b.String())
	}
}
