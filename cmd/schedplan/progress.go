package main

import (
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
)

// progress is a progress bar on stderr with a name and an ETA, drawn only
// when stderr is a terminal and --quiet is off; otherwise every method is a
// no-op.
type progress struct {
	mu  sync.Mutex
	bar *progressbar.ProgressBar
}

func (a *app) newProgress(name string, total int) *progress {
	p := &progress{}
	if !a.interactive() {
		return p
	}
	p.bar = progressbar.NewOptions(total,
		progressbar.OptionSetWriter(os.Stderr),
		progressbar.OptionSetDescription(name),
		progressbar.OptionShowCount(),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionShowElapsedTimeOnFinish(),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionThrottle(100_000_000),
	)
	return p
}

// with runs f on the bar, if there is one, under the lock.
func (p *progress) with(f func(b *progressbar.ProgressBar)) {
	if p.bar != nil {
		p.mu.Lock()
		defer p.mu.Unlock()
		f(p.bar)
	}
}

// set moves the bar to done of total (total may change).
func (p *progress) set(done, total int) {
	p.with(func(b *progressbar.ProgressBar) {
		if int64(total) != b.GetMax64() {
			b.ChangeMax(total)
		}
		b.Set(done)
	})
}

// setETA moves the bar to done of total of a stage, with the estimated
// seconds left (pipeline.ETA) when known.
func (p *progress) setETA(stage string, done, total int, eta float64, known bool) {
	desc := stage
	if known && done < total {
		desc = fmt.Sprintf("%s, %s left", stage, time.Duration(eta*float64(time.Second)).Round(time.Second))
	}
	p.describe(desc)
	p.set(done, total)
}

// describe renames the bar (e.g. to the current stage).
func (p *progress) describe(s string) { p.with(func(b *progressbar.ProgressBar) { b.Describe(s) }) }

func (p *progress) finish() { p.with(func(b *progressbar.ProgressBar) { b.Finish() }) }
