package pipeline

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math"
	"strings"
	"sync"
	"time"
)

// ETA estimates the time left of a stage from its progress. The rate is
// measured over a recent window, not since the start: the first units of a
// stage are often slower or faster than the rest (caches, the first
// simulator's buffers, cheap candidates first), and a cumulative rate keeps
// that early noise for the whole stage. The window is the shorter of the
// last half of the elapsed time and the last half of the units done: after
// a slow start the units' half has left it behind, after a fast one the
// time's half has. No estimate is given before MinElapsed
// has passed and MinDone units are done.
type ETA struct {
	// MinElapsed and MinDone hold the estimate back at the start
	// (defaults 1 s and 2 units).
	MinElapsed time.Duration
	MinDone    int

	start   time.Time
	samples []etaSample
}

type etaSample struct {
	t    time.Time
	done int
}

// etaSampleEvery is the least time between two samples the estimator keeps.
const etaSampleEvery = 100 * time.Millisecond

// Observe records that done of total units are done at now and returns
// the estimated seconds left, or false when there is no estimate yet.
func (e *ETA) Observe(now time.Time, done, total int) (float64, bool) {
	if e.start.IsZero() {
		e.start = now
		e.samples = append(e.samples, etaSample{now, 0})
	}
	if last := e.samples[len(e.samples)-1]; done < last.done {
		// Progress went back (a total that changed meaning): start over.
		e.start, e.samples = now, append(e.samples[:0], etaSample{now, done})
	} else if now.Sub(last.t) >= etaSampleEvery {
		e.samples = append(e.samples, etaSample{now, done})
	}
	if done >= total {
		return 0, true
	}
	minElapsed, minDone := e.MinElapsed, e.MinDone
	if minElapsed <= 0 {
		minElapsed = time.Second
	}
	if minDone <= 0 {
		minDone = 2
	}
	elapsed := now.Sub(e.start)
	if elapsed < minElapsed || done < minDone {
		return 0, false
	}
	// The window's base: the later of the newest sample at least half the
	// elapsed time old and the newest with at most half the units done.
	// Either cut point only moves forward, so the samples before the
	// earlier one are dropped.
	cutT, cutD := now.Add(-elapsed/2), done/2
	kt, kd := 0, 0
	for k, s := range e.samples {
		if !s.t.After(cutT) {
			kt = k
		}
		if s.done <= cutD {
			kd = k
		}
	}
	base := e.samples[max(kt, kd)]
	e.samples = e.samples[min(kt, kd):]
	dt := now.Sub(base.t).Seconds()
	dd := float64(done - base.done)
	if !(dt > 0) || !(dd > 0) {
		return 0, false
	}
	return float64(total-done) * dt / dd, true
}

// Reporter turns a run's stage events and progress into log events, one
// record each, that a pipeline can parse (with --log-format json, one JSON
// object a line): every record has an "event" attribute —
//
//	stage_start  stage
//	stage_skip   stage (up to date)
//	stage_end    stage, duration_s, ok (false: the stage failed), error
//	progress     stage, done, total, eta_s (seconds left; absent until known)
//	exit         exit_code, flag (when one is to blame): the command's
//	             final error, level ERROR, the last record (LogExit)
//
// Progress is logged at most every Every (default 2 s) per stage, and once
// when the stage's count is complete. Warnings are logged by the stages
// with event "warning" (see EventHandler). Its Hook and Progress methods
// plug into a Runner; Bar, when set, is also told the progress with the
// estimate (for a terminal's progress bar).
type Reporter struct {
	Log   *slog.Logger // nil: slog.Default()
	Every time.Duration
	Bar   func(stage string, done, total int, eta float64, known bool)
	Now   func() time.Time // nil: time.Now

	mu     sync.Mutex
	starts map[string]time.Time
	etas   map[string]*ETA
	logged map[string]time.Time
}

func (rp *Reporter) now() time.Time {
	if rp.Now != nil {
		return rp.Now()
	}
	return time.Now()
}

func (rp *Reporter) log() *slog.Logger {
	if rp.Log != nil {
		return rp.Log
	}
	return slog.Default()
}

// Hook is a Runner.Hook.
func (rp *Reporter) Hook(stage string, ev StageEvent, err error) {
	rp.mu.Lock()
	defer rp.mu.Unlock()
	if rp.starts == nil {
		rp.starts, rp.etas, rp.logged = map[string]time.Time{}, map[string]*ETA{}, map[string]time.Time{}
	}
	l := rp.log()
	switch ev {
	case StageStart:
		rp.starts[stage] = rp.now()
		delete(rp.etas, stage)
		l.Info("stage started", "event", "stage_start", "stage", stage)
	case StageSkip:
		l.Info("stage up to date", "event", "stage_skip", "stage", stage)
	case StageDone:
		d := rp.now().Sub(rp.starts[stage]).Seconds()
		attrs := []any{"event", "stage_end", "stage", stage, "duration_s", d, "ok", err == nil}
		if err != nil {
			attrs = append(attrs, "error", err.Error())
		}
		l.Info("stage ended", attrs...)
	}
}

// Progress is a Runner.Progress.
func (rp *Reporter) Progress(stage string, done, total int) {
	rp.mu.Lock()
	defer rp.mu.Unlock()
	if rp.etas == nil {
		rp.starts, rp.etas, rp.logged = map[string]time.Time{}, map[string]*ETA{}, map[string]time.Time{}
	}
	e := rp.etas[stage]
	if e == nil {
		e = &ETA{}
		rp.etas[stage] = e
	}
	now := rp.now()
	eta, known := e.Observe(now, done, total)
	if rp.Bar != nil {
		rp.Bar(stage, done, total, eta, known)
	}
	every := rp.Every
	if every <= 0 {
		every = 2 * time.Second
	}
	last, seen := rp.logged[stage]
	if seen && now.Sub(last) < every && done < total {
		return
	}
	rp.logged[stage] = now
	attrs := []any{"event", "progress", "stage", stage, "done", done, "total", total}
	if known {
		attrs = append(attrs, "eta_s", math.Round(eta*10)/10)
	}
	rp.log().Info("progress", attrs...)
}

// EventHandler wraps a handler so that every record carries an "event"
// attribute: a record without one gets "warning" (level warn), "error"
// (level error) or "log".
func EventHandler(h slog.Handler) slog.Handler { return eventHandler{h} }

type eventHandler struct{ slog.Handler }

func (h eventHandler) Handle(ctx context.Context, r slog.Record) error {
	has := false
	r.Attrs(func(a slog.Attr) bool {
		has = a.Key == "event"
		return !has
	})
	if !has {
		ev := "log"
		switch {
		case r.Level >= slog.LevelError:
			ev = "error"
		case r.Level >= slog.LevelWarn:
			ev = "warning"
		}
		r = r.Clone()
		r.AddAttrs(slog.String("event", ev))
	}
	return h.Handler.Handle(ctx, r)
}

func (h eventHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return eventHandler{h.Handler.WithAttrs(as)}
}

func (h eventHandler) WithGroup(name string) slog.Handler {
	return eventHandler{h.Handler.WithGroup(name)}
}

// LogFormatArg returns the last --log-format value in a command line's
// args before "--" (default text), for the final error of a command whose
// flags may not have been parsed (the error may be the parser's).
func LogFormatArg(args []string) string {
	f := "text"
	for i, a := range args {
		switch {
		case a == "--":
			return f
		case a == "--log-format" && i+1 < len(args):
			f = args[i+1]
		case strings.HasPrefix(a, "--log-format="):
			f = strings.TrimPrefix(a, "--log-format=")
		}
	}
	return f
}

// LogExit writes a command's final error to w: one JSON object (level
// ERROR, event "exit", the message, exit_code and attrs) when asJSON, as
// the JSON log's records are, else the line "prog: message". It writes
// whatever the log's level, so that a pipeline always sees why the command
// failed.
func LogExit(w io.Writer, asJSON bool, prog string, err error, code int, attrs ...any) {
	if !asJSON {
		fmt.Fprintf(w, "%s: %v\n", prog, err)
		return
	}
	attrs = append([]any{"event", "exit", "exit_code", code}, attrs...)
	slog.New(EventHandler(slog.NewJSONHandler(w, nil))).Error(err.Error(), attrs...)
}
