package rmsummary

import (
	"bytes"
	"io"
	"strconv"

	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/data/internal/logread"
)

// YARN ResourceManager application summaries: one line per finished
// application, logged by RMAppManager.ApplicationSummary (usually to its own
// file through log4j's RMSUMMARY appender):
//
//	... RMAppManager$ApplicationSummary: appId=application_1_0001,name=word count,user=alice,queue=default,state=FINISHED,trackingUrl=...,appMasterHost=...,submitTime=1445...,startTime=...,finishTime=...,finalStatus=SUCCEEDED,memorySeconds=...,vcoreSeconds=...,...
//
// Fields are key=value pairs separated by commas; commas and backslashes
// inside values are escaped with a backslash (StringUtils.escapeString).
// Lines without "appId=" are other log lines and are skipped.
//
// A job: job_id = appId, user, queue, submit/start/finish times (ms),
// map_task_seconds = vcoreSeconds (the vcore-seconds the application held,
// which are container-seconds for one-vcore containers; logs before Hadoop
// 2.6 lack it and their jobs have no size). finalStatus FAILED or KILLED
// jobs are dropped unless kept.

func (s *logState) readRMSummary(r io.Reader, file string) error {
	lr := logread.NewLineReader(r)
	key := []byte("appId=")
	var val []byte
	for {
		line, ok := lr.Next()
		if !ok {
			break
		}
		s.Sum.Records++
		k := bytes.Index(line, key)
		if k < 0 {
			continue
		}
		var job data.JobRow
		var final, bad string
		var vcoreS float64
		job, final, vcoreS, bad, val = parseRMSummary(line[k:], val)
		if bad != "" {
			if err := s.Bad(file, lr.Line, bad, "not a non-negative integer"); err != nil {
				return err
			}
			continue
		}
		if job.ID == "" || job.Submit != job.Submit {
			if err := s.Bad(file, lr.Line, "appId", "an application summary needs appId and submitTime"); err != nil {
				return err
			}
			continue
		}
		if job.Start == 0 { // never started (killed while accepted)
			job.Start = data.NoFloat
		}
		if job.Finish == 0 {
			job.Finish = data.NoFloat
		}
		if !s.KeepStatus(final == "" || final == "SUCCEEDED" || final == "UNDEFINED", file, lr.Line, job.ID, final) {
			continue
		}
		if vcoreS != vcoreS {
			s.Sum.Drop(data.DropNoSize, file, lr.Line, job.ID+" (no vcoreSeconds)")
			continue
		}
		job.MapTaskSeconds = vcoreS
		s.AddJob(&job)
	}
	return s.ReadErr(file, lr)
}

// parseRMSummary parses one application summary record, the key=value pairs
// from "appId=" on, into a job row, its finalStatus and its vcoreSeconds
// (noFloat if absent). bad names the first field whose value is not a
// non-negative integer ("" if none); parsing stops there. val is scratch
// space for unescaped values, returned for reuse.
func parseRMSummary(rec, val []byte) (job data.JobRow, final string, vcoreS float64, bad string, _ []byte) {
	job = data.NewJobRow()
	vcoreS = data.NoFloat
	for len(rec) > 0 && bad == "" {
		var name []byte
		var ok bool
		name, val, rec, ok = nextRMPair(rec, val)
		if !ok {
			break
		}
		switch string(name) {
		case "appId":
			job.ID = string(val)
		case "user":
			job.User = string(val)
		case "queue":
			job.Queue = string(val)
		case "submitTime":
			bad = rmMillis(val, "submitTime", &job.Submit)
		case "startTime":
			bad = rmMillis(val, "startTime", &job.Start)
		case "finishTime":
			bad = rmMillis(val, "finishTime", &job.Finish)
		case "finalStatus":
			final = string(val)
		case "vcoreSeconds":
			v, err := strconv.ParseInt(string(val), 10, 64)
			if err != nil || v < 0 {
				bad = "vcoreSeconds"
			}
			vcoreS = float64(v)
		}
	}
	return job, final, vcoreS, bad, val
}

// nextRMPair splits one key=value pair, up to an unescaped comma, off rec:
// it returns the key, the unescaped value (in val's storage) and the rest of
// the record. ok is false when rec does not start with a key and '='.
func nextRMPair(rec, val []byte) (name, value, rest []byte, ok bool) {
	eq := bytes.IndexByte(rec, '=')
	if eq <= 0 {
		return nil, val, rec, false
	}
	name = rec[:eq]
	after := rec[eq+1:]
	val = val[:0]
	i := 0
	for ; i < len(after); i++ {
		c := after[i]
		if c == '\\' && i+1 < len(after) {
			i++
			val = append(val, after[i])
			continue
		}
		if c == ',' {
			break
		}
		val = append(val, c)
	}
	if i < len(after) {
		return name, val, after[i+1:], true
	}
	return name, val, nil, true
}

// rmMillis parses val, a non-negative time in milliseconds, into *dst in
// seconds. It returns col if val is not a non-negative integer (leaving
// *dst alone), "" otherwise.
func rmMillis(val []byte, col string, dst *float64) string {
	v, err := strconv.ParseInt(string(val), 10, 64)
	if err != nil || v < 0 {
		return col
	}
	*dst = logread.MsToS(v)
	return ""
}
