package data

import (
	"bytes"
	"fmt"
	"io"
	"strings"
)

// This file holds what package data knows of other systems' logs: the
// options of their readers, the summary of what was dropped and why, and
// ReadLog, which hands a path to the reader of its format (the table of
// log formats, logformat.go) and finishes what it read. The readers are
// packages of their own (data/spark, data/swf, …; data/logs registers
// them).
// SparkUnit says what a schedplan job is in a Spark event log.
type SparkUnit string

const (
	// SparkApplication makes each Spark application one job (the default).
	SparkApplication SparkUnit = "application"
	// SparkJob makes each Spark job (an action: SparkListenerJobStart to
	// JobEnd) one job, named APP_ID/JOB_ID.
	SparkJob SparkUnit = "job"
)

// LogOptions are the options of the log readers (ReadOptions.Log).
type LogOptions struct {
	// KeepFailed keeps failed and killed jobs (they used the cluster);
	// by default they are dropped and counted in the summary.
	KeepFailed bool
	// Spark says what a job is in a Spark event log ("" means
	// SparkApplication).
	Spark SparkUnit
	// Summary, when set, receives the summary of the read.
	Summary func(*LogSummary)
}

// LogSummary tells what a log reader read and what it dropped, and why.
type LogSummary struct {
	Format  Format `json:"format"`
	Files   int    `json:"files"`
	Records int64  `json:"records"` // lines or records read
	Jobs    int    `json:"jobs"`    // jobs kept
	Tasks   int    `json:"tasks"`   // tasks kept
	Dropped []Drop `json:"dropped,omitempty"`
	// Header holds the log's header fields where it has some (SWF's
	// "; MaxProcs: 128" and the like).
	Header map[string]string `json:"header,omitempty"`
}

// Drop counts the records or jobs dropped for one reason, with where the
// first one was.
type Drop struct {
	Reason string `json:"reason"`
	Count  int64  `json:"count"`
	First  string `json:"first"` // "file:line: detail" of the first
}

// DroppedTotal returns the number of dropped records and jobs.
func (s *LogSummary) DroppedTotal() int64 {
	var n int64
	for _, d := range s.Dropped {
		n += d.Count
	}
	return n
}

// String formats the summary on a few lines.
func (s *LogSummary) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d records in %d files: %d jobs, %d tasks kept", s.Format, s.Records, s.Files, s.Jobs, s.Tasks)
	for _, d := range s.Dropped {
		fmt.Fprintf(&b, "\n  dropped %d: %s (first at %s)", d.Count, d.Reason, d.First)
	}
	return b.String()
}

// Drop counts a record or job dropped for reason, at file and line (0:
// none) with detail; the first of each reason is kept as an example.
func (s *LogSummary) Drop(reason, file string, line int64, detail string) {
	for k := range s.Dropped {
		if s.Dropped[k].Reason == reason {
			s.Dropped[k].Count++
			return
		}
	}
	where := file
	if line > 0 {
		where = fmt.Sprintf("%s:%d", file, line)
	}
	if detail != "" {
		where += ": " + detail
	}
	s.Dropped = append(s.Dropped, Drop{Reason: reason, Count: 1, First: where})
}

// Reasons for dropping that ReadLog and the readers share.
const (
	// DropNoSize is the reason for dropping a job without a size.
	DropNoSize    = "no size information (no tasks, task-seconds or bytes)"
	dropDuplicate = "duplicate job id (the first is kept)"
)

// SoftMemoryLimit is the soft memory limit (runtime/debug.SetMemoryLimit)
// under which `schedplan convert` reads and writes logs, 900 MiB: without
// it Go's collector lets the heap grow to twice the live table before it
// collects, and a ten-million-job log would peak at about 1.2 GiB instead of
// about 0.85 GiB (BenchmarkConvertSWF10M, package data/swf).
const SoftMemoryLimit = 900 << 20

// Log is what a log reader produces.
type Log struct {
	Jobs    *Jobs
	Tasks   *Tasks // nil when the source has no tasks
	Summary LogSummary
}

// ReadLog reads a log of one of LogFormats from path (a file or a
// directory; opt.Format, or detected from the content when empty) and
// returns its jobs, sorted and validated like any job log, with its tasks
// and the summary of what was dropped. Job task counts and task-seconds
// come from the tasks when the source has tasks (Jobs.FillFromTasks).
func ReadLog(path string, opt ReadOptions) (*Log, error) {
	if opt.Format == "" {
		f, err := DetectFormat(path)
		if err != nil {
			return nil, err
		}
		if !IsLogFormat(f) {
			return nil, fmt.Errorf("%s: %s is not a log format; read it with ReadFile", path, f)
		}
		opt.Format = f
	}
	lg, err := readLog(path, nil, &opt)
	if err != nil {
		return nil, err
	}
	if err := finish(lg.Jobs, &opt); err != nil {
		return nil, err
	}
	return lg, nil
}

// readLog reads a log from path, or from src when it is not nil (one
// file's content, named path), with the reader of opt.Format. The jobs are
// not yet sorted.
func readLog(path string, src io.Reader, opt *ReadOptions) (*Log, error) {
	lf := lookupLogFormat(opt.Format)
	if lf == nil {
		return nil, fmt.Errorf("%s: format %q is not a log format", path, opt.Format)
	}
	lg, err := lf.Read(path, src, opt)
	if err != nil {
		return nil, err
	}
	s := &lg.Summary
	dedupe(lg, s)
	if lg.Tasks != nil {
		if err := ValidateTasks(lg.Tasks); err != nil {
			return nil, err
		}
		lg.Jobs.FillFromTasks(lg.Tasks)
	}
	dropSizeless(lg, s)
	lg.Summary.Jobs = lg.Jobs.Len()
	if lg.Tasks != nil {
		lg.Summary.Tasks = lg.Tasks.Len()
	}
	if opt.Log.Summary != nil {
		opt.Log.Summary(&lg.Summary)
	}
	for _, d := range lg.Summary.Dropped {
		if opt.Log.Summary != nil {
			break // the caller reports the summary
		}
		opt.warn("%s: dropped %d: %s (first at %s)", path, d.Count, d.Reason, d.First)
	}
	if lg.Jobs.Len() == 0 {
		msg := "no jobs in the log"
		if len(s.Dropped) > 0 {
			d := s.Dropped[0]
			msg += fmt.Sprintf(" (dropped %d: %s, first at %s)", s.DroppedTotal(), d.Reason, d.First)
		}
		return nil, inputErrorf(path, 0, "", "%s", msg)
	}
	return lg, nil
}

// dedupe drops every job whose id an earlier job has (the first is kept).
func dedupe(lg *Log, s *LogSummary) {
	for {
		j := lg.Jobs
		dups := duplicateIDs(&j.ID, j.Len())
		if len(dups) == 0 {
			j.idsChecked = true
			return
		}
		drop := make(map[int]bool, len(dups))
		for _, d := range dups {
			drop[d[1]] = true
			s.Drop(dropDuplicate, j.Source, 0, j.ID.At(d[1]))
		}
		keep := make([]int, 0, j.Len()-len(drop))
		for i := 0; i < j.Len(); i++ {
			if !drop[i] {
				keep = append(keep, i)
			}
		}
		lg.Jobs = j.Subset(keep)
	}
}

// dropSizeless drops the jobs that carry no size at all, the way
// estimate.SourceOf would choose the size column: a null size when the log
// has sizes, null task-seconds in both stages when it has task-seconds.
func dropSizeless(lg *Log, s *LogSummary) {
	j := lg.Jobs
	var keep []int
	bad := func(i int) bool {
		switch {
		case j.Size.Present():
			_, ok := j.Size.At(i)
			return !ok
		case j.MapTaskSeconds.Present() || j.ReduceTaskSeconds.Present():
			_, ok1 := j.MapTaskSeconds.At(i)
			_, ok2 := j.ReduceTaskSeconds.At(i)
			return !ok1 && !ok2
		}
		return false
	}
	for i := 0; i < j.Len(); i++ {
		if !bad(i) {
			if keep != nil {
				keep = append(keep, i)
			}
			continue
		}
		if keep == nil { // the first bad row: start the list of kept rows
			keep = make([]int, i, j.Len())
			for k := range keep {
				keep[k] = k
			}
		}
		s.Drop(DropNoSize, j.Source, 0, j.ID.At(i))
	}
	if keep != nil {
		checked := j.idsChecked
		lg.Jobs = j.Subset(keep)
		lg.Jobs.idsChecked = checked
	}
}

// readLogBytes is ReadBytes's entry to the log readers (one file's content;
// not sorted yet).
func readLogBytes(b []byte, name string, opt *ReadOptions) (*Jobs, error) {
	lg, err := readLog(name, bytes.NewReader(b), opt)
	if err != nil {
		return nil, err
	}
	return lg.Jobs, nil
}

// ParseSparkUnit parses --spark-job: "application" (or "", the default) or
// "job".
func ParseSparkUnit(s string) (SparkUnit, error) {
	switch u := SparkUnit(s); u {
	case "", SparkApplication:
		return SparkApplication, nil
	case SparkJob:
		return u, nil
	}
	return "", fmt.Errorf("%q is neither %q nor %q", s, SparkApplication, SparkJob)
}
