package sim

import (
	"encoding/binary"
	"flag"
	"fmt"
	"hash/fnv"
	"math"
	"runtime"
	"slices"
	"testing"
)

var printPinned = flag.Bool("print-pinned", false, "TestPoliciesPinned: print the hashes instead of comparing")

// pinnedSpecs are the configurations TestPoliciesPinned pins: every
// registered policy by its name, and LAS_MQ's tuned shape (decay weights,
// PS inside a level) and Hu et al.'s default (containers order).
func pinnedSpecs() []string {
	return append(PolicyNames(),
		"las_mq:k=6,alpha0=0.17,p=2.66,decay=0.5,order=ps",
		"las_mq:k=10,alpha0=1,p=10,order=containers",
		"las_mq:k=6,alpha0=0.17,p=2.66,decay=0.5,order=fifo",
		"las_mq:k=6,alpha0=0.17,p=2.66,decay=0.5,order=remaining",
	)
}

// policiesPinned are FNV-64a hashes of every completion's and response's
// bits, the busy time and the event count of pinnedRunsHash's runs, as
// the event loop (Simulator.Run), its heap (keyHeap) and LAS_MQ computed
// them before they were made cheaper (main 93eb53b): a faster loop must
// give the same bits. Computed on amd64 (other architectures may fuse
// multiply-adds and round differently).
var policiesPinned = map[string]uint64{
	"fifo":     0x617c935f66ddab37,
	"fsp":      0x92bf9feded6c17bf,
	"fsp+fifo": 0x92bf9feded6c17bf,
	"fsp+ps":   0x6e0c9e58cde21d5f,
	"gps":      0xb2607270748e3b21,
	"las":      0xa4068f8e3ab4e6a,
	"las_mq":   0xccdf53268bfb9eec,
	"pfsp":     0x590db5e98eb1589b,
	"ps":       0xe87c16e78f95bb67,
	"srpt":     0xf47fc61d63c47c41,
	"srpt+ps":  0x7587e36f7cecf91d,
	"las_mq:k=6,alpha0=0.17,p=2.66,decay=0.5,order=ps":        0xb78957ac02228a6a,
	"las_mq:k=10,alpha0=1,p=10,order=containers":              0x9b930bbd3f7576,
	"las_mq:k=6,alpha0=0.17,p=2.66,decay=0.5,order=fifo":      0x121d96e4532dcbc8,
	"las_mq:k=6,alpha0=0.17,p=2.66,decay=0.5,order=remaining": 0xe76ec727faab1a92,
}

// pinnedRuns are pinnedRunsHash's job sets: slotJobs' adversarial ones
// (equal arrivals, zero sizes, sizes on LAS_MQ's default thresholds,
// repeated jobs, estimates off by up to e, absolute clocks, rate caps for
// the policies that take them) and heavy-tailed synthetic ones (Weibull
// 0.5 at load 0.9 and 1.3, σ = 1 estimates: long busy periods, deep
// heaps).
var pinnedRuns = []struct {
	slots *slotRun
	n     int
	load  float64
	sigma float64
	seed  uint64
	c     float64
}{
	{slots: &slotRuns[0]},
	{slots: &slotRuns[1]},
	{slots: &slotRuns[2]},
	{slots: &slotRuns[3]},
	{slots: &slotRuns[4]},
	{slots: &slotRun{seed: 11, n: 3000, c: 1.5, absTime: false}},
	{slots: &slotRun{seed: 12, n: 2500, c: 0.5, caps: true, absTime: true}},
	{n: 20_000, load: 0.9, sigma: 1, seed: 31, c: 1},
	{n: 8_000, load: 1.3, sigma: 0.5, seed: 32, c: 2},
}

// pinnedRunsHash runs spec (one policy and one Simulator reused across
// the runs, as the tuner reuses them) over pinnedRuns and hashes the bits
// of every completion and response, the busy time and the event count.
func pinnedRunsHash(t *testing.T, spec string) uint64 {
	t.Helper()
	p := mustPolicy(t, spec)
	_, capsOK := p.(capAware)
	h := fnv.New64a()
	var s Simulator
	var buf []byte
	for i, run := range pinnedRuns {
		var jobs []Job
		c := run.c
		if sr := run.slots; sr != nil {
			if sr.caps && !capsOK {
				continue
			}
			jobs, c = slotJobs(sr.seed, sr.n, DefaultLASMQ(), sr.c, sr.caps, sr.absTime), sr.c
		} else {
			jobs = synthetic(run.n, run.load, run.sigma, run.seed)
		}
		r, err := s.Run(jobs, c, p)
		if err != nil {
			t.Fatalf("%s, run %d: %v", spec, i, err)
		}
		buf = buf[:0]
		for j, c := range r.Completion {
			buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(c))
			buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(r.Response[j]))
		}
		buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(r.Busy))
		buf = binary.LittleEndian.AppendUint64(buf, uint64(r.Events))
		h.Write(buf)
	}
	return h.Sum64()
}

// TestPoliciesPinned compares every registered policy's schedules (and
// LAS_MQ's in its tuned and default shapes) with the pinned hashes.
// -print-pinned prints the map instead.
func TestPoliciesPinned(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skip("hashes pinned on amd64")
	}
	specs := pinnedSpecs()
	if *printPinned {
		for _, spec := range specs {
			fmt.Printf("\t%q: %#x,\n", spec, pinnedRunsHash(t, spec))
		}
		return
	}
	for _, spec := range specs {
		got := pinnedRunsHash(t, spec)
		if want, ok := policiesPinned[spec]; !ok || got != want {
			t.Errorf("%s: hash %#x, pinned %#x", spec, got, want)
		}
	}
	for spec := range policiesPinned {
		if !slices.Contains(specs, spec) {
			t.Errorf("%s: pinned but not run", spec)
		}
	}
}
