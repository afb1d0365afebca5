package main

import (
	"bytes"
	"os"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"time"
)

// peakProfiler keeps, for the hidden --peakprofile flag, the heap profile
// of the garbage collection that found the largest live heap: where a
// run's peak memory goes, which the end-of-command --memprofile, taken
// after everything is freed, does not show. It polls the live heap every
// 100 ms. After a background collection the heap profile still reports
// the one before (its frees are published with the next cycle), after
// runtime.GC the one just done; so at a new maximum the profile is
// written, and once the next collection has run it is written again if
// it then holds more in use.
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
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/gc/cycles/total:gc-cycles"}}
	var peak, pending uint64 // pending: the cycle of the maximum, until the next one has run (0: none)
	var written int64        // in use in the profile last written
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-tick.C:
		}
		metrics.Read(sample)
		if sample[0].Value.Kind() != metrics.KindUint64 || sample[1].Value.Kind() != metrics.KindUint64 {
			return
		}
		live, cycle := sample[0].Value.Uint64(), sample[1].Value.Uint64()
		if pending > 0 && cycle > pending {
			if u := profiledInUse(); u > written {
				p.write()
				written = u
			}
			pending = 0
		}
		if live > peak {
			peak, pending, written = live, cycle, profiledInUse()
			p.write()
		}
	}
}

// write writes the heap profile to the file.
func (p *peakProfiler) write() {
	var b bytes.Buffer
	if writeHeap(&b) == nil {
		_ = os.WriteFile(p.path, b.Bytes(), 0o644)
	}
}

// profiledInUse is the bytes in use the heap profile reports now (its
// samples, unscaled: enough to compare two of its moments).
func profiledInUse() int64 {
	n, _ := runtime.MemProfile(nil, true)
	recs := make([]runtime.MemProfileRecord, n+64)
	n, ok := runtime.MemProfile(recs, true)
	if !ok {
		return 0
	}
	var u int64
	for _, r := range recs[:n] {
		u += r.InUseBytes()
	}
	return u
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
