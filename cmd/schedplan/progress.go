package main

import (
	"os"
	"sync"

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

// set moves the bar to done of total (total may change).
func (p *progress) set(done, total int) {
	if p.bar == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if int64(total) != p.bar.GetMax64() {
		p.bar.ChangeMax(total)
	}
	p.bar.Set(done)
}

// describe renames the bar (e.g. to the current stage).
func (p *progress) describe(s string) {
	if p.bar == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.bar.Describe(s)
}

func (p *progress) finish() {
	if p.bar == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.bar.Finish()
}
