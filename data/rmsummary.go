package data

import (
	"bytes"
	"io"
	"strconv"
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
	lr := newLineReader(r)
	key := []byte("appId=")
	var val []byte
	for {
		line, ok := lr.next()
		if !ok {
			break
		}
		s.sum.Records++
		k := bytes.Index(line, key)
		if k < 0 {
			continue
		}
		rec := line[k:]
		job := newJobRow()
		var final string
		var vcoreS float64 = noFloat
		bad := ""
		for len(rec) > 0 && bad == "" {
			// One key=value pair, up to an unescaped comma.
			eq := bytes.IndexByte(rec, '=')
			if eq <= 0 {
				break
			}
			name := rec[:eq]
			rest := rec[eq+1:]
			val = val[:0]
			i := 0
			for ; i < len(rest); i++ {
				c := rest[i]
				if c == '\\' && i+1 < len(rest) {
					i++
					val = append(val, rest[i])
					continue
				}
				if c == ',' {
					break
				}
				val = append(val, c)
			}
			if i < len(rest) {
				rec = rest[i+1:]
			} else {
				rec = nil
			}
			ms := func(col string, dst *float64) {
				v, err := strconv.ParseInt(string(val), 10, 64)
				if err != nil || v < 0 {
					bad = col
					return
				}
				*dst = msToS(v)
			}
			switch string(name) {
			case "appId":
				job.ID = string(val)
			case "user":
				job.User = string(val)
			case "queue":
				job.Queue = string(val)
			case "submitTime":
				ms("submitTime", &job.Submit)
			case "startTime":
				ms("startTime", &job.Start)
			case "finishTime":
				ms("finishTime", &job.Finish)
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
		if bad != "" {
			if err := s.bad(file, lr.line, bad, "not a non-negative integer"); err != nil {
				return err
			}
			continue
		}
		if job.ID == "" || job.Submit != job.Submit {
			if err := s.bad(file, lr.line, "appId", "an application summary needs appId and submitTime"); err != nil {
				return err
			}
			continue
		}
		if job.Start == 0 { // never started (killed while accepted)
			job.Start = noFloat
		}
		if job.Finish == 0 {
			job.Finish = noFloat
		}
		if !s.keepStatus(final == "" || final == "SUCCEEDED" || final == "UNDEFINED", file, lr.line, job.ID, final) {
			continue
		}
		if vcoreS != vcoreS {
			s.sum.drop(dropNoSize, file, lr.line, job.ID+" (no vcoreSeconds)")
			continue
		}
		job.MapTaskSeconds = vcoreS
		s.addJob(&job)
	}
	return s.readErr(file, lr)
}
