package pipeline

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"math"
	"path/filepath"
	"testing"
	"time"
)

// The ETA follows the recent rate: a slow start (warm-up) does not stay in
// the estimate as it would in a rate since the start, and a steady stage
// gets the exact time left.
func TestETA(t *testing.T) {
	t0 := time.Unix(1e9, 0)
	at := func(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }
	for _, tc := range []struct {
		name string
		// step(k) is when unit k (1-based) is done, in s.
		step  func(k int) float64
		total int
		at    int     // ask after this many units
		want  float64 // true seconds left
	}{
		{"steady", func(k int) float64 { return 0.1 * float64(k) }, 100, 50, 5},
		{"slow start", func(k int) float64 {
			if k <= 5 {
				return 2 * float64(k)
			}
			return 10 + 0.1*float64(k-5)
		}, 100, 50, 5},
		{"fast start", func(k int) float64 {
			if k <= 40 {
				return 0.01 * float64(k)
			}
			return 0.4 + 0.5*float64(k-40)
		}, 100, 60, 20},
	} {
		e := &ETA{}
		e.Observe(t0, 0, tc.total)
		var eta float64
		var ok bool
		for k := 1; k <= tc.at; k++ {
			eta, ok = e.Observe(at(tc.step(k)), k, tc.total)
		}
		if !ok || math.Abs(eta-tc.want) > 0.1*tc.want {
			t.Errorf("%s: ETA %.2f s (known %v), want %.2f s ± 10%%", tc.name, eta, ok, tc.want)
		}
		cumulative := float64(tc.total-tc.at) * tc.step(tc.at) / float64(tc.at)
		if tc.name != "steady" && math.Abs(cumulative-tc.want) < 0.3*tc.want {
			t.Errorf("%s: the case does not tell a recent rate from the cumulative one (%.2f s)", tc.name, cumulative)
		}
	}

	e := &ETA{}
	if _, ok := e.Observe(t0, 0, 10); ok {
		t.Error("an estimate with nothing done")
	}
	if _, ok := e.Observe(at(0.5), 5, 10); ok {
		t.Error("an estimate before a second has passed")
	}
	if eta, ok := e.Observe(at(1), 6, 10); !ok || math.Abs(eta-2) > 1e-9 {
		t.Errorf("ETA %v (known %v), want 2 s (1 unit in the last 0.5 s)", eta, ok)
	}
	if eta, ok := e.Observe(at(1.5), 10, 10); !ok || eta != 0 {
		t.Errorf("done: ETA %v (known %v), want 0", eta, ok)
	}
	if _, ok := e.Observe(at(2), 1, 100); ok {
		t.Error("progress that went back kept the old rate")
	}
}

// With the JSON handler, a run's log is one JSON object a line, every one
// with an event: each stage starts and ends (with its duration) or is
// skipped, progress counts up to its total with a non-negative ETA, and
// warnings say so.
func TestReporterJSONEvents(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(EventHandler(slog.NewJSONHandler(&buf, nil)))
	rp := &Reporter{Log: log, Every: time.Nanosecond}
	cfg := testConfig()
	cfg.Budget = 40
	in, err := Prepare(cfg)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "out")
	if _, err := Run(context.Background(), in, &Runner{Dir: dir, Hook: rp.Hook, Progress: rp.Progress}); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), in, &Runner{Dir: dir, Hook: rp.Hook, Progress: rp.Progress}); err != nil {
		t.Fatal(err)
	}
	log.Warn("a warning", "file", "x.csv")
	type event struct {
		Event    string   `json:"event"`
		Level    string   `json:"level"`
		Stage    string   `json:"stage"`
		Duration *float64 `json:"duration_s"`
		OK       *bool    `json:"ok"`
		Done     *int     `json:"done"`
		Total    *int     `json:"total"`
		ETA      *float64 `json:"eta_s"`
	}
	counts := map[string]int{}
	started := map[string]bool{}
	last := map[string]int{}
	sc := bufio.NewScanner(&buf)
	for sc.Scan() {
		var ev event
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		if err := dec.Decode(&ev); err != nil || dec.More() {
			t.Fatalf("not one JSON object: %s (%v)", sc.Text(), err)
		}
		counts[ev.Event]++
		switch ev.Event {
		case "stage_start":
			started[ev.Stage] = true
		case "stage_end":
			if !started[ev.Stage] || ev.Duration == nil || *ev.Duration < 0 || ev.OK == nil || !*ev.OK {
				t.Errorf("stage end without a start, a duration or ok: %s", sc.Text())
			}
		case "progress":
			if ev.Done == nil || ev.Total == nil || *ev.Done > *ev.Total || *ev.Done < 0 || (ev.ETA != nil && *ev.ETA < 0) {
				t.Errorf("bad progress: %s", sc.Text())
			}
			last[ev.Stage] = *ev.Done - *ev.Total
		case "warning":
			if ev.Level != "WARN" {
				t.Errorf("a warning at level %s", ev.Level)
			}
		case "stage_skip", "log":
		default:
			t.Errorf("unknown event %q: %s", ev.Event, sc.Text())
		}
	}
	if counts["stage_start"] != len(StageNames) || counts["stage_end"] != len(StageNames) || counts["stage_skip"] != len(StageNames) {
		t.Errorf("events %v: want every stage to start and end once, and be skipped once", counts)
	}
	for _, s := range []string{"tune", "validate"} {
		if d, ok := last[s]; !ok || d != 0 {
			t.Errorf("stage %s: progress ended %d short of its total (seen %v)", s, -d, ok)
		}
	}
	if counts["warning"] != 1 {
		t.Errorf("%d warnings, want 1", counts["warning"])
	}
}
