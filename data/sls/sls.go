package sls

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/data/internal/logread"
)

// YARN Scheduler Load Simulator traces and Hadoop Rumen job traces: JSON
// objects, one per job, one after the other (pretty-printed over many
// lines) or in one top-level array. jsonObjects cuts the stream into
// objects, tracking line numbers, so a bad job is named by file and line
// and the rest of the trace is still read.
//
// SLS (hadoop-sls, SLSConfiguration and AMDefinitionSLS): job.id,
// job.user, job.queue.name, job.start.ms and job.end.ms (ms from the
// simulation's start), job.count (copies of the job), and job.tasks[] with
// count, container.host, container.start.ms, container.end.ms (or
// container.duration.ms / duration.ms), container.type (map, reduce),
// container.memory and container.vcores. A job becomes job_id (job.id, or
// sls_N for the Nth job without one), submit = job.start.ms, finish =
// job.end.ms, start = its first container's start; every container (count
// times) is a task.
//
// Rumen (LoggedJob, LoggedTask, LoggedTaskAttempt of hadoop-rumen): jobID,
// user, queue, submitTime, launchTime, finishTime, outcome, and mapTasks,
// reduceTasks (otherTasks, setup and cleanup, are not tasks) whose attempts
// become tasks: attemptID, startTime, finishTime, result, hostName,
// shuffleFinished and sortFinished (reduce phases), resourceUsageMetrics
// (cumulativeCpuUsage ms, physicalMemoryUsage), fileBytesRead + Written
// (disk), reduceShuffleBytes (network). The job's bytes are its successful
// attempts' hdfsBytesRead (maps), reduceShuffleBytes and hdfsBytesWritten
// (reduces, or maps when it has none). Jobs whose outcome is not SUCCESS
// are dropped unless kept.

// maxObject bounds one JSON object (one job with its tasks).
const maxObject = 256 << 20

// jsonObjects calls fn with every top-level JSON object of r (or every
// object of a top-level array) and the line it starts on. Text between
// objects that is neither white space nor array punctuation is reported to
// bad and skipped.
func jsonObjects(r io.Reader, fn func(obj []byte, line int64) error, bad func(line int64, msg string) error) (lines int64, err error) {
	br := bufio.NewReaderSize(r, 1<<20)
	sc := jsonScanner{line: 1}
	for {
		c, err := br.ReadByte()
		if err == io.EOF {
			break
		}
		if err != nil {
			return sc.line, err
		}
		if sc.depth == 0 {
			err = sc.between(c, bad)
		} else {
			err = sc.inside(c, fn)
		}
		if err != nil {
			return sc.line, err
		}
	}
	if sc.depth > 0 {
		if e := bad(sc.start, "truncated JSON object (the file ends inside it)"); e != nil {
			return sc.line, e
		}
	} else if sc.junkLine > 0 {
		if e := bad(sc.junkLine, "text after the last JSON object"); e != nil {
			return sc.line, e
		}
	}
	return sc.line, nil
}

// jsonScanner is jsonObjects' state: where it is in the text and the object
// it is collecting.
type jsonScanner struct {
	line       int64  // current line, from 1
	obj        []byte // the object read so far
	depth      int    // nesting depth inside obj; 0 between objects
	inStr, esc bool   // inside a string; after a backslash in one
	start      int64  // line obj starts on
	arrayDepth int    // 1 inside a top-level array
	junkLine   int64  // line of unreported text between objects, or 0
}

// between handles byte c read between top-level objects: an object's
// opening brace (reporting the text before it, if any, to bad), white space,
// array punctuation, or junk.
func (sc *jsonScanner) between(c byte, bad func(line int64, msg string) error) error {
	switch {
	case c == '{':
		sc.depth, sc.obj, sc.start = 1, append(sc.obj[:0], c), sc.line
		if sc.junkLine > 0 {
			if e := bad(sc.junkLine, "text between JSON objects"); e != nil {
				return e
			}
			sc.junkLine = 0
		}
	case c == '\n':
		sc.line++
	case c == ' ' || c == '\t' || c == '\r' || c == ',':
	case c == '[' && sc.arrayDepth == 0:
		sc.arrayDepth = 1
	case c == ']' && sc.arrayDepth == 1:
		sc.arrayDepth = 0
	default:
		if sc.junkLine == 0 {
			sc.junkLine = sc.line
		}
	}
	return nil
}

// inside handles byte c of an object, calling fn when c closes it.
func (sc *jsonScanner) inside(c byte, fn func(obj []byte, line int64) error) error {
	sc.obj = append(sc.obj, c)
	if len(sc.obj) > maxObject {
		return fmt.Errorf("line %d: a JSON object longer than %d bytes", sc.start, maxObject)
	}
	switch {
	case c == '\n':
		sc.line++
	case sc.esc:
		sc.esc = false
	case sc.inStr && c == '\\':
		sc.esc = true
	case c == '"':
		sc.inStr = !sc.inStr
	case sc.inStr:
	case c == '{' || c == '[':
		sc.depth++
	case c == '}' || c == ']':
		sc.depth--
		if sc.depth == 0 {
			return fn(sc.obj, sc.start)
		}
	}
	return nil
}

// jsonNum is a JSON number or a string holding one (SLS traces have both).
type jsonNum struct {
	v  float64
	ok bool
}

func (n *jsonNum) UnmarshalJSON(b []byte) error {
	s := strings.Trim(string(b), `"`)
	if s == "null" || s == "" {
		return nil
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return fmt.Errorf("%q is not a number", s)
	}
	n.v, n.ok = v, true
	return nil
}

type slsTask struct {
	Count    jsonNum `json:"count"`
	Host     string  `json:"container.host"`
	Start    jsonNum `json:"container.start.ms"`
	End      jsonNum `json:"container.end.ms"`
	Duration jsonNum `json:"container.duration.ms"`
	Dur      jsonNum `json:"duration.ms"`
	Type     string  `json:"container.type"`
	Memory   jsonNum `json:"container.memory"`
	Vcores   jsonNum `json:"container.vcores"`
}

type slsJob struct {
	ID    *string   `json:"job.id"`
	User  string    `json:"job.user"`
	Queue any       `json:"job.queue.name"`
	Start jsonNum   `json:"job.start.ms"`
	End   jsonNum   `json:"job.end.ms"`
	Count jsonNum   `json:"job.count"`
	Tasks []slsTask `json:"job.tasks"`
}

// maxCopies bounds SLS's job.count and count fields, and maxJobTasks the
// tasks of one job (its copies included): a corrupt count must not make the
// reader allocate without bound.
const (
	maxCopies   = 1 << 20
	maxJobTasks = 1 << 24
)

// slsTaskRow turns one job.tasks entry into a task and its count; msg (and
// the column col) says what is wrong with it.
func slsTaskRow(t *slsTask, jobStartMS float64) (r data.TaskRow, n int, col, msg string) {
	n = 1
	if t.Count.ok {
		if t.Count.v < 0 || t.Count.v > maxCopies {
			return r, 0, "count", fmt.Sprintf("count %v out of range", t.Count.v)
		}
		n = int(t.Count.v)
	}
	r = data.NewTaskRow()
	r.Stage = strings.ToLower(t.Type)
	r.Node = t.Host
	r.Containers = 1
	switch dur := t.Duration; {
	case t.Start.ok && t.End.ok:
		if t.End.v < t.Start.v || t.Start.v < 0 || t.End.v > 1e15 {
			return r, 0, "container.end.ms", "ends before it starts"
		}
		r.Start, r.Finish = t.Start.v/1e3, t.End.v/1e3
	default:
		if !dur.ok {
			dur = t.Dur
		}
		if !dur.ok || dur.v < 0 || dur.v > 1e15 {
			return r, 0, "container.end.ms", "neither start and end nor a duration"
		}
		// SLS starts such a container when it is allocated; the trace says
		// only how long it runs.
		r.Start = jobStartMS / 1e3
		r.Finish = r.Start + dur.v/1e3
	}
	if t.Memory.ok && t.Memory.v >= 0 && t.Memory.v < 1<<53 {
		r.MemoryMB = int64(t.Memory.v)
	}
	if t.Vcores.ok && t.Vcores.v >= 0 && t.Vcores.v <= 1<<20 {
		r.Vcores = int32(t.Vcores.v)
	}
	return r, n, "", ""
}

func (s *logState) readSLS(r io.Reader, file string) error {
	nameless := 0
	lines, err := jsonObjects(r, func(obj []byte, line int64) error {
		s.Sum.Records++
		var j slsJob
		if err := json.Unmarshal(obj, &j); err != nil {
			return s.Bad(file, line, "", "%v", logread.JSONErr(err))
		}
		if !j.Start.ok || j.Start.v < 0 || j.Start.v > 1e15 {
			return s.Bad(file, line, "job.start.ms", "missing or not a non-negative number")
		}
		id := ""
		if j.ID != nil {
			id = *j.ID
		}
		if id == "" {
			nameless++
			id = "sls_" + strconv.Itoa(nameless)
		}
		copies := 1
		if j.Count.ok {
			if j.Count.v > maxCopies {
				return s.Bad(file, line, "job.count", "%v copies is too many", j.Count.v)
			}
			copies = max(1, int(j.Count.v))
		}
		if len(j.Tasks) == 0 {
			s.Sum.Drop("SLS job without tasks", file, line, id)
			return nil
		}
		var tasks []data.TaskRow
		first := data.NoFloat
		for k := range j.Tasks {
			r, n, col, msg := slsTaskRow(&j.Tasks[k], j.Start.v)
			if msg != "" {
				return s.Bad(file, line, col, "task %d: %s", k, msg)
			}
			if len(tasks)+n > maxJobTasks || copies*(len(tasks)+n) > maxJobTasks {
				return s.Bad(file, line, "count", "more than %d tasks in one job", maxJobTasks)
			}
			first = logread.MinNaN(first, r.Start)
			for c := 0; c < n; c++ {
				tasks = append(tasks, r)
			}
		}
		queue := ""
		if j.Queue != nil {
			queue = fmt.Sprint(j.Queue)
		}
		for c := 0; c < copies; c++ {
			job := data.NewJobRow()
			job.ID = id
			if copies > 1 {
				job.ID = id + "#" + strconv.Itoa(c+1)
			}
			job.User, job.Queue = j.User, queue
			job.Submit, job.Start = j.Start.v/1e3, first
			if j.End.ok && j.End.v >= j.Start.v && j.End.v <= 1e15 {
				job.Finish = j.End.v / 1e3
			}
			s.AddJob(&job)
			for k := range tasks {
				t := tasks[k]
				t.JobID = job.ID
				t.TaskID = strconv.Itoa(k)
				s.Tasks.Add(&t)
			}
		}
		return nil
	}, func(line int64, msg string) error { return s.Bad(file, line, "", "%s", msg) })
	if err != nil {
		return s.streamErr(file, lines, err)
	}
	return nil
}

// streamErr reports a stream that could not be read to its end: an error in
// strict mode (or when it is already an *InputError), else a drop.
func (s *logState) streamErr(file string, line int64, err error) error {
	if _, ok := err.(*data.InputError); ok || s.Opt.Strict {
		if ie, ok := err.(*data.InputError); ok {
			return ie
		}
		return data.InputErrorf(file, int(min(line, 1<<31-1)), "", "%v", err)
	}
	s.Sum.Drop("truncated or corrupt stream (the rest of the file)", file, line, err.Error())
	return nil
}

type rumenAttempt struct {
	AttemptID       string  `json:"attemptID"`
	Start           jsonNum `json:"startTime"`
	Finish          jsonNum `json:"finishTime"`
	Result          string  `json:"result"`
	HostName        string  `json:"hostName"`
	ShuffleFinished jsonNum `json:"shuffleFinished"`
	SortFinished    jsonNum `json:"sortFinished"`
	HDFSRead        jsonNum `json:"hdfsBytesRead"`
	HDFSWritten     jsonNum `json:"hdfsBytesWritten"`
	FileRead        jsonNum `json:"fileBytesRead"`
	FileWritten     jsonNum `json:"fileBytesWritten"`
	ShuffleBytes    jsonNum `json:"reduceShuffleBytes"`
	Usage           *struct {
		CPU jsonNum `json:"cumulativeCpuUsage"`
		Mem jsonNum `json:"physicalMemoryUsage"`
	} `json:"resourceUsageMetrics"`
}

type rumenTask struct {
	TaskID   string         `json:"taskID"`
	Attempts []rumenAttempt `json:"attempts"`
}

type rumenJob struct {
	JobID   string      `json:"jobID"`
	User    string      `json:"user"`
	Queue   string      `json:"queue"`
	Submit  jsonNum     `json:"submitTime"`
	Launch  jsonNum     `json:"launchTime"`
	Finish  jsonNum     `json:"finishTime"`
	Outcome string      `json:"outcome"`
	Maps    []rumenTask `json:"mapTasks"`
	Reduces []rumenTask `json:"reduceTasks"`
}

// pos returns a non-negative whole count from a Rumen field (-1 and
// absent are missing).
func (n jsonNum) pos() (int64, bool) {
	if !n.ok || n.v < 0 || n.v >= 1<<62 {
		return 0, false
	}
	return int64(n.v), true
}

// rumenTaskRow turns a Rumen attempt into a task; ok is false when it has
// no id or no valid start and finish.
func rumenTaskRow(a *rumenAttempt, stage string) (r data.TaskRow, ok bool) {
	st, ok1 := a.Start.pos()
	fi, ok2 := a.Finish.pos()
	if a.AttemptID == "" || !ok1 || !ok2 || fi < st {
		return r, false
	}
	r = data.NewTaskRow()
	r.Stage, r.TaskID, r.Status = stage, a.AttemptID, a.Result
	r.Start, r.Finish = logread.MsToS(st), logread.MsToS(fi)
	r.Containers = 1
	r.Node = a.HostName[strings.LastIndexByte(a.HostName, '/')+1:]
	if sf, ok := a.ShuffleFinished.pos(); ok && sf >= st && sf <= fi {
		r.Shuffle = logread.MsToS(sf - st)
		if so, ok := a.SortFinished.pos(); ok && so >= sf && so <= fi {
			r.Merge, r.Reduce = logread.MsToS(so-sf), logread.MsToS(fi-so)
		}
	}
	if u := a.Usage; u != nil {
		if v, ok := u.CPU.pos(); ok {
			r.CPUSeconds = logread.MsToS(v)
		}
		if v, ok := u.Mem.pos(); ok {
			r.MemBytes = v
		}
	}
	fr, ok1 := a.FileRead.pos()
	fw, ok2 := a.FileWritten.pos()
	if d := data.AddBytes(fr, fw); (ok1 || ok2) && d >= 0 {
		r.DiskBytes = d
	}
	if v, ok := a.ShuffleBytes.pos(); ok {
		r.NetBytes = v
	}
	return r, true
}

func (s *logState) readRumen(r io.Reader, file string) error {
	lines, err := jsonObjects(r, func(obj []byte, line int64) error {
		s.Sum.Records++
		var j rumenJob
		if err := json.Unmarshal(obj, &j); err != nil {
			return s.Bad(file, line, "", "%v", logread.JSONErr(err))
		}
		submit, ok := j.Submit.pos()
		if j.JobID == "" || !ok {
			return s.Bad(file, line, "submitTime", "a Rumen job needs jobID and submitTime")
		}
		if !s.KeepStatus(j.Outcome == "" || j.Outcome == "SUCCESS", file, line, j.JobID, j.Outcome) {
			return nil
		}
		job := data.NewJobRow()
		job.ID, job.User, job.Queue = j.JobID, j.User, j.Queue
		job.Submit = logread.MsToS(submit)
		if v, ok := j.Launch.pos(); ok && v > 0 {
			job.Start = logread.MsToS(v)
		}
		if v, ok := j.Finish.pos(); ok && v > 0 {
			job.Finish = logread.MsToS(v)
		}
		var in, sh, outMap, outRed int64
		var tasks []data.TaskRow
		for _, stage := range []struct {
			name  string
			tasks []rumenTask
		}{{"map", j.Maps}, {"reduce", j.Reduces}} {
			for _, t := range stage.tasks {
				for k := range t.Attempts {
					a := &t.Attempts[k]
					r, ok := rumenTaskRow(a, stage.name)
					if !ok {
						s.Sum.Drop("Rumen attempt without an id or valid start and finish", file, line, a.AttemptID)
						continue
					}
					if data.StatusSucceeded(a.Result) {
						hr, _ := a.HDFSRead.pos()
						hw, _ := a.HDFSWritten.pos()
						rs, _ := a.ShuffleBytes.pos()
						if stage.name == "map" {
							in, outMap = data.AddBytes(in, hr), data.AddBytes(outMap, hw)
						} else {
							sh, outRed = data.AddBytes(sh, rs), data.AddBytes(outRed, hw)
						}
					}
					tasks = append(tasks, r)
				}
			}
		}
		if in < 0 || sh < 0 || outMap < 0 || outRed < 0 { // sums past int64 (addBytes)
			return s.Bad(file, line, "", "byte counts overflow")
		}
		job.InputBytes, job.ShuffleBytes, job.OutputBytes = in, sh, outRed
		if len(j.Reduces) == 0 {
			job.OutputBytes = outMap
		}
		s.AddJob(&job)
		for k := range tasks {
			tasks[k].JobID = job.ID
			s.Tasks.Add(&tasks[k])
		}
		return nil
	}, func(line int64, msg string) error { return s.Bad(file, line, "", "%s", msg) })
	if err != nil {
		return s.streamErr(file, lines, err)
	}
	return nil
}
