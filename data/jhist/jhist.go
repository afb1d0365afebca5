package jhist

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"

	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/data/internal/logread"
)

// MapReduce job history files (.jhist), as the MapReduce ApplicationMaster
// writes them (org.apache.hadoop.mapreduce.jobhistory.EventWriter, schema
// Events.avpr): the line "Avro-Json", the schema on one line, then one event
// per line, {"type":"JOB_SUBMITTED","event":{"org.apache.hadoop.mapreduce.
// jobhistory.JobSubmitted":{...}}}. One file is one job; a directory (the
// history server's done directory) is read recursively for *.jhist files.
//
// A job: JOB_SUBMITTED (jobid, userName, jobQueueName, submitTime),
// JOB_INITED (launchTime: the start time), JOB_FINISHED (finishTime, and
// totalCounters: HDFS_BYTES_READ, REDUCE_SHUFFLE_BYTES and
// HDFS_BYTES_WRITTEN as input, shuffle and output bytes) or JOB_FAILED /
// JOB_KILLED (dropped unless kept). A job that never finished is dropped.
// Tasks are attempts: MAP_ATTEMPT_STARTED / REDUCE_ATTEMPT_STARTED give the
// start, MAP_ATTEMPT_FINISHED and REDUCE_ATTEMPT_FINISHED the finish, the
// host, the phase times (map: map_seconds up to mapFinishTime, sort_seconds
// after; reduce: shuffle_seconds up to shuffleFinishTime, merge_seconds up
// to sortFinishTime, reduce_seconds after — the Shuffle, Merge and Reduce
// times of the history server's UI) and counters (CPU_MILLISECONDS,
// PHYSICAL_MEMORY_BYTES, FILE_BYTES_READ + FILE_BYTES_WRITTEN as disk bytes,
// REDUCE_SHUFFLE_BYTES as network bytes); *_ATTEMPT_FAILED and _KILLED give
// failed attempts. Setup and cleanup attempts are not tasks. The job's task
// counts and task-seconds come from its successful attempts
// (Jobs.FillFromTasks).

// avroString is a string in Avro's JSON encoding: "x", or {"string":"x"}
// for a ["null","string"] union, or null.
type avroString string

func (a *avroString) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if bytes.Equal(b, []byte("null")) {
		*a = ""
		return nil
	}
	if len(b) > 0 && b[0] == '{' {
		var u map[string]string
		if err := json.Unmarshal(b, &u); err != nil {
			return err
		}
		*a = avroString(u["string"])
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	*a = avroString(s)
	return nil
}

// jhCounters is Events.avpr's JhCounters.
type jhCounters struct {
	Groups []struct {
		Counts []struct {
			Name  string `json:"name"`
			Value int64  `json:"value"`
		} `json:"counts"`
	} `json:"groups"`
}

// get returns the counter named name (in any group) and whether it exists.
func (c *jhCounters) get(name string) (int64, bool) {
	if c == nil {
		return 0, false
	}
	for _, g := range c.Groups {
		for _, k := range g.Counts {
			if k.Name == name {
				return k.Value, true
			}
		}
	}
	return 0, false
}

// jhEvent holds the fields of every event type read.
type jhEvent struct {
	JobID        avroString  `json:"jobid"`
	UserName     avroString  `json:"userName"`
	Queue        avroString  `json:"jobQueueName"`
	SubmitTime   *int64      `json:"submitTime"`
	LaunchTime   *int64      `json:"launchTime"`
	FinishTime   *int64      `json:"finishTime"`
	JobStatus    avroString  `json:"jobStatus"`
	TotalCounter *jhCounters `json:"totalCounters"`
	TaskID       avroString  `json:"taskid"`
	TaskType     avroString  `json:"taskType"`
	AttemptID    avroString  `json:"attemptId"`
	StartTime    *int64      `json:"startTime"`
	TaskStatus   avroString  `json:"taskStatus"`
	Status       avroString  `json:"status"`
	Hostname     avroString  `json:"hostname"`
	MapFinish    *int64      `json:"mapFinishTime"`
	ShuffleFin   *int64      `json:"shuffleFinishTime"`
	SortFin      *int64      `json:"sortFinishTime"`
	Counters     *jhCounters `json:"counters"`
}

// errNotJHist stops reading a file that is not job history.
var errNotJHist = errors.New("not a job history file")

type jhLine struct {
	Type  string                     `json:"type"`
	Event map[string]json.RawMessage `json:"event"`
}

// jhJob is the job a job history file describes, as its events arrive.
type jhJob struct {
	row      data.JobRow
	status   string
	line     int64 // the line of JOB_SUBMITTED, then of the final event
	finished bool
}

// event applies a job-level event (JOB_SUBMITTED, JOB_INITED, JOB_FINISHED,
// JOB_FAILED, ...).
func (jj *jhJob) event(typ string, ev *jhEvent, ln int64) {
	job := &jj.row
	switch typ {
	case "JOB_SUBMITTED":
		job.ID, job.User, job.Queue = string(ev.JobID), string(ev.UserName), string(ev.Queue)
		if ev.SubmitTime != nil {
			job.Submit = logread.MsToS(*ev.SubmitTime)
		}
		jj.line = ln
	case "JOB_INITED", "JOB_INFO_CHANGED":
		if ev.LaunchTime != nil && *ev.LaunchTime > 0 {
			job.Start = logread.MsToS(*ev.LaunchTime)
		}
	default: // JOB_FINISHED, JOB_FAILED, JOB_KILLED, JOB_ERROR
		jj.finished = true
		jj.status = strings.TrimPrefix(typ, "JOB_")
		if ev.JobStatus != "" {
			jj.status = string(ev.JobStatus)
		}
		if ev.FinishTime != nil {
			job.Finish = logread.MsToS(*ev.FinishTime)
		}
		for _, c := range []struct {
			name string
			dst  *int64
		}{{"HDFS_BYTES_READ", &job.InputBytes}, {"REDUCE_SHUFFLE_BYTES", &job.ShuffleBytes}, {"HDFS_BYTES_WRITTEN", &job.OutputBytes}} {
			if v, ok := ev.TotalCounter.get(c.name); ok && v >= 0 {
				*c.dst = v
			}
		}
		jj.line = ln
	}
}

func (s *logState) readJHist(r io.Reader, file string) error {
	jj := &jhJob{row: data.NewJobRow()}
	starts := map[string]int64{} // attempt → start, ms
	var tasks []data.TaskRow
	header := 0 // header lines read: "Avro-Json", then the schema
	err := s.EachLine(r, file, func(line []byte, ln int64) error {
		switch header {
		case 0:
			header++
			if ln != 1 || string(bytes.TrimSpace(line)) != "Avro-Json" {
				return errNotJHist
			}
			return nil
		case 1:
			header++
			return nil
		}
		var l jhLine
		if err := json.Unmarshal(line, &l); err != nil {
			return s.Bad(file, ln, "", "%v", logread.JSONErr(err))
		}
		if len(l.Event) != 1 {
			return s.Bad(file, ln, "event", "an event holds one record, this one %d", len(l.Event))
		}
		var ev jhEvent
		for _, raw := range l.Event {
			if err := json.Unmarshal(raw, &ev); err != nil {
				if err := s.Bad(file, ln, "", "%s: %v", l.Type, logread.JSONErr(err)); err != nil {
					return err
				}
				ev.JobID = "\x00bad"
			}
		}
		if ev.JobID == "\x00bad" {
			return nil
		}
		switch l.Type {
		case "JOB_SUBMITTED", "JOB_INITED", "JOB_INFO_CHANGED", "JOB_FINISHED", "JOB_FAILED", "JOB_KILLED", "JOB_ERROR":
			jj.event(l.Type, &ev, ln)
		case "MAP_ATTEMPT_STARTED", "REDUCE_ATTEMPT_STARTED":
			if ev.StartTime != nil && ev.AttemptID != "" {
				starts[string(ev.AttemptID)] = *ev.StartTime
			}
		case "MAP_ATTEMPT_FINISHED", "REDUCE_ATTEMPT_FINISHED",
			"MAP_ATTEMPT_FAILED", "MAP_ATTEMPT_KILLED", "REDUCE_ATTEMPT_FAILED", "REDUCE_ATTEMPT_KILLED":
			t, ok, err := s.jhTask(&ev, l.Type, starts, file, ln)
			if err != nil {
				return err
			}
			if ok {
				tasks = append(tasks, t)
			}
		}
		return nil
	})
	if err == errNotJHist {
		return s.Bad(file, 1, "", `not a job history file: the first line is not "Avro-Json"`)
	}
	if err != nil {
		return err
	}
	if header < 2 {
		return s.Bad(file, 1, "", "truncated job history file: no schema line")
	}
	job, jobLine := &jj.row, jj.line
	switch {
	case job.ID == "":
		s.Sum.Drop("job history without JOB_SUBMITTED", file, 0, "")
		return nil
	case !jj.finished:
		s.Sum.Drop("unfinished job (no JOB_FINISHED, JOB_FAILED or JOB_KILLED)", file, jobLine, job.ID)
		return nil
	case job.Submit != job.Submit || job.Submit < 0:
		return s.Bad(file, jobLine, "submitTime", "no valid submit time")
	}
	if !s.KeepStatus(data.StatusSucceeded(jj.status), file, jobLine, job.ID, jj.status) {
		return nil
	}
	s.AddJob(job)
	for k := range tasks {
		tasks[k].JobID = job.ID
		s.Tasks.Add(&tasks[k])
	}
	return nil
}

// jhTask turns an attempt's end event into a task.
func (s *logState) jhTask(ev *jhEvent, typ string, starts map[string]int64, file string, line int64) (data.TaskRow, bool, error) {
	r := data.NewTaskRow()
	if ev.AttemptID == "" || ev.FinishTime == nil {
		return r, false, s.Bad(file, line, "attemptId", "%s without an attempt id or finish time", typ)
	}
	startMS, ok := starts[string(ev.AttemptID)]
	if !ok {
		s.Sum.Drop("task attempt that never started (no *_ATTEMPT_STARTED)", file, line, string(ev.AttemptID))
		return r, false, nil
	}
	finishMS := *ev.FinishTime
	if finishMS < startMS {
		return r, false, s.Bad(file, line, "finishTime", "attempt %s finishes before it starts", ev.AttemptID)
	}
	r.TaskID = string(ev.AttemptID)
	r.Stage = strings.ToLower(string(ev.TaskType))
	if r.Stage == "" {
		r.Stage = strings.ToLower(strings.SplitN(typ, "_", 2)[0])
	}
	r.Start, r.Finish = logread.MsToS(startMS), logread.MsToS(finishMS)
	r.Status = string(ev.TaskStatus)
	if r.Status == "" {
		r.Status = string(ev.Status)
	}
	if r.Status == "" {
		r.Status = strings.TrimPrefix(strings.TrimPrefix(typ, "MAP_ATTEMPT_"), "REDUCE_ATTEMPT_")
	}
	r.Containers = 1
	r.Node = string(ev.Hostname)
	// Phases in ms, exactly, then seconds.
	phase := func(from, to int64) float64 {
		if to < from || from < startMS || to > finishMS {
			return data.NoFloat
		}
		return logread.MsToS(to - from)
	}
	if ev.MapFinish != nil {
		mf := *ev.MapFinish
		r.Map, r.Sort = phase(startMS, mf), phase(mf, finishMS)
	}
	if ev.ShuffleFin != nil && ev.SortFin != nil {
		sh, so := *ev.ShuffleFin, *ev.SortFin
		r.Shuffle, r.Merge, r.Reduce = phase(startMS, sh), phase(sh, so), phase(so, finishMS)
	}
	c := ev.Counters
	if v, ok := c.get("CPU_MILLISECONDS"); ok && v >= 0 {
		r.CPUSeconds = logread.MsToS(v)
	}
	if v, ok := c.get("PHYSICAL_MEMORY_BYTES"); ok && v >= 0 {
		r.MemBytes = v
	}
	rd, ok1 := c.get("FILE_BYTES_READ")
	wr, ok2 := c.get("FILE_BYTES_WRITTEN")
	if d := data.AddBytes(max(rd, 0), max(wr, 0)); (ok1 || ok2) && d >= 0 {
		r.DiskBytes = d
	}
	if v, ok := c.get("REDUCE_SHUFFLE_BYTES"); ok && v >= 0 {
		r.NetBytes = v
	}
	return r, true, nil
}
