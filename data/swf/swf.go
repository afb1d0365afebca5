package swf

import (
	"bytes"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/data/internal/logread"
)

// The Standard Workload Format of the Parallel Workloads Archive (Chapin,
// Cirne, Feitelson et al., "Benchmarks and standards for the evaluation of
// parallel job schedulers", 1999; www.cs.huji.ac.il/labs/parallel/workload/
// swf.html): one job per line, 18 whitespace-separated numeric fields, -1
// for a missing value; header comment lines start with ';' and carry
// "Key: value" pairs (MaxProcs, UnixStartTime, ...).
//
// A job becomes: job_id = field 1; submit_time = field 2 (seconds from the
// log's start); start_time = submit + wait (field 3); finish_time = start +
// run time (field 4); map_tasks = allocated processors (field 5, else the
// requested ones, field 8); map_task_seconds = processors × run time (one
// stage: an SWF job is a rigid parallel job); user = field 12; queue =
// field 15. Status 0 (failed) and 5 (cancelled) jobs are dropped unless
// kept; partial-execution lines (status 2, 3, 4) are dropped in favour of
// the job's summary line.

// swfFields is the number of fields of an SWF line.
const swfFields = 18

// SWF field indices (0-based) used here.
const (
	swfJob      = 0
	swfSubmit   = 1
	swfWait     = 2
	swfRun      = 3
	swfAllocP   = 4
	swfReqP     = 7
	swfStatus   = 10
	swfUser     = 11
	swfQueue    = 14
	swfNotAsked = -1
)

var swfNames = [swfFields]string{
	"job number", "submit time", "wait time", "run time", "allocated processors",
	"average CPU time", "used memory", "requested processors", "requested time",
	"requested memory", "status", "user id", "group id", "executable number",
	"queue number", "partition number", "preceding job", "think time",
}

func (s *logState) readSWF(r io.Reader, file string) error {
	var f [swfFields][]byte
	var v [swfFields]float64
	return s.EachLine(r, file, func(line []byte, ln int64) error {
		t := bytes.TrimLeft(line, " \t")
		if t[0] == ';' {
			s.header(t[1:])
			return nil
		}
		n := splitFields(t, f[:])
		if n != swfFields {
			return s.Bad(file, ln, "", "an SWF line has %d whitespace-separated fields, this one has %d", swfFields, n)
		}
		bad := false
		for k := swfJob + 1; k < swfFields && !bad; k++ {
			x, ok := logread.ParseFloatBytes(f[k])
			if !ok || math.IsInf(x, 0) {
				if err := s.Bad(file, ln, swfNames[k], "%q is not a number", f[k]); err != nil {
					return err
				}
				bad = true
			}
			v[k] = x
		}
		if bad {
			return nil
		}
		if err := s.swfJob(file, ln, f[swfJob], &v); err != nil {
			return err
		}
		return nil
	})
}

// swfJob turns one parsed SWF line into a job.
func (s *logState) swfJob(file string, line int64, id []byte, v *[swfFields]float64) error {
	switch st := v[swfStatus]; st {
	case 2, 3, 4:
		s.Sum.Drop("partial-execution line (the job's summary line is kept)", file, line, string(id))
		return nil
	case 0, 5:
		what := map[float64]string{0: "failed", 5: "cancelled"}[st]
		if !s.KeepStatus(false, file, line, string(id), what) {
			return nil
		}
	}
	submit, wait, run := v[swfSubmit], v[swfWait], v[swfRun]
	if submit < 0 {
		return s.Bad(file, line, swfNames[swfSubmit], "negative submit time %v", submit)
	}
	procs := v[swfAllocP]
	if procs < 0 {
		procs = v[swfReqP]
	}
	if run < 0 || procs < 0 {
		s.Sum.Drop("run time or processor count missing (-1)", file, line, string(id))
		return nil
	}
	if procs > math.MaxInt32 {
		return s.Bad(file, line, swfNames[swfAllocP], "%v processors do not fit in int32", procs)
	}
	r := data.NewJobRow()
	r.ID = logread.UnsafeString(id)
	r.Submit = submit
	if wait >= 0 {
		r.Start = submit + wait
		r.Finish = r.Start + run
	}
	r.MapTasks = int32(procs)
	r.MapTaskSeconds = procs * run
	var buf [24]byte
	if u := v[swfUser]; u >= 0 && u < 1<<53 {
		r.User = logread.UnsafeString(strconv.AppendInt(buf[:0], int64(u), 10))
	}
	var qbuf [24]byte
	if q := v[swfQueue]; q >= 0 && q < 1<<53 {
		r.Queue = logread.UnsafeString(strconv.AppendInt(qbuf[:0], int64(q), 10))
	}
	s.AddJob(&r)
	return nil
}

// header records a "Key: value" header comment in the summary.
func (s *logState) header(c []byte) {
	k, v, ok := bytes.Cut(c, []byte(":"))
	if !ok {
		return
	}
	key := strings.TrimSpace(string(k))
	if key == "" || strings.ContainsAny(key, " \t") && len(key) > 40 {
		return
	}
	if s.Sum.Header == nil {
		s.Sum.Header = map[string]string{}
	}
	if len(s.Sum.Header) < 100 {
		s.Sum.Header[key] = strings.TrimSpace(string(v))
	}
}

// splitFields splits line at runs of spaces and tabs into dst and returns
// the number of fields found (which may exceed len(dst); only the first
// len(dst) are stored).
func splitFields(line []byte, dst [][]byte) int {
	n := 0
	i := 0
	for i < len(line) {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		if i == len(line) {
			break
		}
		j := i
		for j < len(line) && line[j] != ' ' && line[j] != '\t' {
			j++
		}
		if n < len(dst) {
			dst[n] = line[i:j]
		}
		n++
		i = j
	}
	return n
}
