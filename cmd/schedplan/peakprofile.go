package main

import (
	"bytes"
	"os"
	"runtime/metrics"
	"runtime/pprof"
	"time"
)

// peakProfiler keeps, for the hidden --peakprofile flag, the heap profile
// taken when the live heap (as the last garbage collection marked it) was
// largest: where a run's peak memory goes, which the end-of-command
// --memprofile, taken after everything is freed, does not show. It polls
// the live heap every 100 ms and rewrites the file at each new maximum.
type peakProfiler struct {
	path string
	stop chan struct{}
	done chan struct{}
}

// start begins polling; it does nothing without a path.
func (p *peakProfiler) start() {
	if p.path == "" {
		return
	}
	p.stop, p.done = make(chan struct{}), make(chan struct{})
	go p.poll()
}

func (p *peakProfiler) poll() {
	defer close(p.done)
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	var peak uint64
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-tick.C:
		}
		metrics.Read(sample)
		if sample[0].Value.Kind() != metrics.KindUint64 {
			return
		}
		if live := sample[0].Value.Uint64(); live > peak {
			peak = live
			var b bytes.Buffer
			if writeHeap(&b) == nil {
				_ = os.WriteFile(p.path, b.Bytes(), 0o644)
			}
		}
	}
}

// writeHeap writes the heap profile (a test reads it as text).
var writeHeap = pprof.WriteHeapProfile

// end stops polling (the file holds the profile of the largest live heap).
func (p *peakProfiler) end() {
	if p.stop == nil {
		return
	}
	close(p.stop)
	<-p.done
	p.stop = nil
}
