package main

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
)

// profiler writes Go CPU and heap profiles for the hidden --cpuprofile and
// --memprofile flags, for profiling whole runs (go tool pprof FILE).
type profiler struct {
	cpuPath, memPath string
	cpu              *os.File
	peak             peakProfiler
}

func (p *profiler) start() error {
	p.peak.start()
	if p.cpuPath == "" {
		return nil
	}
	f, err := os.Create(p.cpuPath)
	if err != nil {
		return fmt.Errorf("--cpuprofile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return fmt.Errorf("--cpuprofile: %w", err)
	}
	p.cpu = f
	return nil
}

// stop ends the CPU profile and writes the heap profile; it runs whether or
// not the command failed.
func (p *profiler) stop() error {
	var errs []error
	p.peak.end()
	if p.cpu != nil {
		pprof.StopCPUProfile()
		errs = append(errs, p.cpu.Close())
		p.cpu = nil
	}
	if p.memPath != "" {
		f, err := os.Create(p.memPath)
		if err != nil {
			return fmt.Errorf("--memprofile: %w", err)
		}
		runtime.GC()
		errs = append(errs, pprof.WriteHeapProfile(f), f.Close())
	}
	return errors.Join(errs...)
}
