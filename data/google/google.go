package google

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/data/internal/logread"
)

// Google cluster data 2019 (the "Borg" traces v3; field names and event
// types from Google's ClusterData2019 schema document): the CollectionEvents
// and InstanceEvents tables, as exported from BigQuery to JSON lines (INT64
// values as strings, resource_request nested) or to CSV with a header row
// (nested fields flattened as resource_request.cpus or
// resource_request_cpus). Times are microseconds from 600 s before the
// trace window; 0 means before the window and 2^63−1 after it. Event type
// is a number or its name: 0 SUBMIT, 1 QUEUE, 2 ENABLE, 3 SCHEDULE, 4 EVICT,
// 5 FAIL, 6 FINISH, 7 KILL, 8 LOST, 9 UPDATE_PENDING, 10 UPDATE_RUNNING.
//
// The path is a CollectionEvents file, or a directory whose files named
// collection_events* and instance_events* (any extension, gzip allowed;
// shards read in name order) hold the two tables. Collections of type 0
// (jobs; alloc sets are skipped) become jobs: job_id = collection_id,
// submit = first SUBMIT, start = first SCHEDULE, finish = the terminal
// event (FINISH; FAIL, KILL and LOST jobs are dropped unless kept), user,
// priority (the trace's priority + 1, clamped to 1..10000, since a
// schedplan priority is a weight of at least 1). Instances become tasks, one per run (SCHEDULE to EVICT, FAIL,
// FINISH, KILL or LOST; events of one instance must be in time order, as
// they are within the trace's shards): task_id = instance_index (with
// /run for later runs), node = machine_id, status = the ending event. The
// normalised resource_request (fractions of the largest machine) has no
// place in vcores or megabytes and is not read.

var googleEventTypes = []string{"SUBMIT", "QUEUE", "ENABLE", "SCHEDULE", "EVICT", "FAIL", "FINISH", "KILL", "LOST", "UPDATE_PENDING", "UPDATE_RUNNING"}

const (
	gSubmit   = 0
	gSchedule = 3
	gEvict    = 4
	gFail     = 5
	gFinish   = 6
	gKill     = 7
	gLost     = 8
)

// googleTimeMax marks an event after the trace window.
const googleTimeMax = math.MaxInt64

// googleJob aggregates one collection's events.
type googleJob struct {
	submit, schedule, end int64 // µs; -1 none
	endType               int
	user                  string
	priority              int64
	isJob                 bool
	line                  int64
	file                  string
}

type googleReader struct {
	s     *logState
	jobs  map[int64]*googleJob
	order []int64
	runs  map[[2]int64]*googleRun // running instances
}

type googleRun struct {
	start int64
	n     int
	node  string
}

// googleRecords reads JSON lines or CSV with a header and calls fn with a
// field getter for each record.
func googleRecords(r io.Reader, file string, s *logState, fn func(get func(string) (string, bool), line int64) error) error {
	br, err := logread.Decompress(r, file)
	if err != nil {
		return err
	}
	bb, ok := br.(*bufio.Reader)
	if !ok {
		bb = bufio.NewReader(br)
	}
	head, _ := bb.Peek(64)
	if t := bytes.TrimLeft(head, " \t\r\n"); len(t) > 0 && t[0] == '{' {
		return s.EachLine(bb, file, func(line []byte, ln int64) error {
			var m map[string]any
			if err := json.Unmarshal(line, &m); err != nil {
				return s.Bad(file, ln, "", "%v", logread.JSONErr(err))
			}
			get := func(name string) (string, bool) {
				v, ok := m[name]
				if !ok {
					if a, b, nested := strings.Cut(name, "."); nested {
						if o, ok := m[a].(map[string]any); ok {
							v = o[b]
						}
					}
				}
				switch x := v.(type) {
				case string:
					return x, true
				case float64:
					return strconv.FormatFloat(x, 'f', -1, 64), true
				case bool:
					return strconv.FormatBool(x), true
				}
				return "", false
			}
			return fn(get, ln)
		})
	}
	br = bb
	cr := csv.NewReader(br)
	cr.ReuseRecord = true
	cr.FieldsPerRecord = -1
	header, err := cr.Read()
	if err == io.EOF {
		return nil
	}
	if err != nil {
		return data.CSVError(file, 0, err)
	}
	idx := map[string]int{}
	for k, h := range header {
		h = strings.TrimSpace(strings.TrimPrefix(h, "\ufeff"))
		idx[h] = k
		idx[strings.ReplaceAll(h, "_cpus", ".cpus")] = k
	}
	row := int64(1)
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		row++
		s.Sum.Records++
		if err != nil {
			if e := s.Bad(file, row, "", "malformed CSV: %v", err); e != nil {
				return e
			}
			continue
		}
		get := func(name string) (string, bool) {
			k, ok := idx[name]
			if !ok || k >= len(rec) || rec[k] == "" {
				return "", false
			}
			return rec[k], true
		}
		if err := fn(get, row); err != nil {
			return err
		}
	}
	return nil
}

func googleInt(get func(string) (string, bool), name string) (int64, bool) {
	v, ok := get(name)
	if !ok {
		return 0, false
	}
	x, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	return x, err == nil
}

func googleType(get func(string) (string, bool)) (int, bool) {
	v, ok := get("type")
	if !ok {
		return 0, false
	}
	v = strings.TrimSpace(v)
	if n, err := strconv.Atoi(v); err == nil && n >= 0 && n < len(googleEventTypes) {
		return n, true
	}
	for k, name := range googleEventTypes {
		if strings.EqualFold(v, name) {
			return k, true
		}
	}
	return 0, false
}

func (s *logState) readGoogleCollections(r io.Reader, file string) error {
	g := &googleReader{s: s, jobs: map[int64]*googleJob{}}
	if err := g.collections(r, file); err != nil {
		return err
	}
	g.finishJobs()
	return nil
}

func (s *logState) readGooglePath(path string, dir bool) error {
	if !dir {
		return s.ReadFile(path, false, s.readGoogleCollections)
	}
	files, err := data.LogFiles(path, false)
	if err != nil {
		return err
	}
	var coll, inst []string
	for _, f := range files {
		switch b := filepath.Base(f); {
		case strings.HasPrefix(b, "collection_events"):
			coll = append(coll, f)
		case strings.HasPrefix(b, "instance_events"):
			inst = append(inst, f)
		}
	}
	if len(coll) == 0 {
		return data.InputErrorf(path, 0, "", "no collection_events* files in the directory")
	}
	g := &googleReader{s: s, jobs: map[int64]*googleJob{}, runs: map[[2]int64]*googleRun{}}
	for _, f := range coll {
		if err := g.file(f, g.collections); err != nil {
			return err
		}
	}
	kept := g.finishJobs()
	for _, f := range inst {
		if err := g.file(f, func(r io.Reader, file string) error { return g.instances(r, file, kept) }); err != nil {
			return err
		}
	}
	return nil
}

func (g *googleReader) file(path string, read func(io.Reader, string) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	g.s.Sum.Files++
	return read(f, path)
}

func (g *googleReader) collections(r io.Reader, file string) error {
	s := g.s
	return googleRecords(r, file, s, func(get func(string) (string, bool), line int64) error {
		id, ok1 := googleInt(get, "collection_id")
		t, ok2 := googleInt(get, "time")
		typ, ok3 := googleType(get)
		switch {
		case !ok1:
			return s.Bad(file, line, "collection_id", "missing or not an integer")
		case !ok2 || t < 0:
			return s.Bad(file, line, "time", "missing or not a non-negative integer (µs)")
		case !ok3:
			return s.Bad(file, line, "type", "missing or not an event type (0-10 or SUBMIT, SCHEDULE, ...)")
		}
		j, seen := g.jobs[id]
		if !seen {
			j = &googleJob{submit: -1, schedule: -1, end: -1, endType: -1, line: line, file: file}
			g.jobs[id] = j
			g.order = append(g.order, id)
		}
		if ct, ok := googleInt(get, "collection_type"); ok {
			j.isJob = ct == 0
		} else if !seen {
			j.isJob = true // a table without the column: all jobs
		}
		if u, ok := get("user"); ok {
			j.user = u
		}
		if p, ok := googleInt(get, "priority"); ok && p >= math.MinInt32+1 && p <= math.MaxInt32 {
			j.priority = p
		}
		first := func(dst *int64) {
			if *dst < 0 || t < *dst {
				*dst = t
			}
		}
		switch typ {
		case gSubmit:
			first(&j.submit)
		case gSchedule:
			first(&j.schedule)
		case gFinish, gFail, gKill, gLost:
			if t >= j.end {
				j.end, j.endType = t, typ
			}
		}
		return nil
	})
}

// finishJobs adds the kept jobs and returns their ids.
func (g *googleReader) finishJobs() map[int64]bool {
	s := g.s
	kept := map[int64]bool{}
	us := func(t int64) float64 {
		if t < 0 || t == googleTimeMax {
			return data.NoFloat
		}
		return float64(t) / 1e6
	}
	for _, id := range g.order {
		j := g.jobs[id]
		name := strconv.FormatInt(id, 10)
		switch {
		case !j.isJob:
			s.Sum.Drop("alloc set (collection_type 1), not a job", j.file, j.line, name)
			continue
		case j.submit < 0 || j.submit == googleTimeMax:
			s.Sum.Drop("collection without a SUBMIT event in the trace window", j.file, j.line, name)
			continue
		case j.end < 0 || j.end == googleTimeMax:
			s.Sum.Drop("collection still running at the end of the trace", j.file, j.line, name)
			continue
		}
		if !s.KeepStatus(j.endType == gFinish, j.file, j.line, name, googleEventTypes[j.endType]) {
			continue
		}
		r := data.NewJobRow()
		r.ID, r.User = name, j.user
		r.Submit, r.Start, r.Finish = us(j.submit), us(j.schedule), us(j.end)
		// Google's priorities run from 0 (free tier) to about 450; a
		// schedplan priority is a weight of at least 1, so the trace's
		// priority p becomes p+1, clamped to the valid range.
		r.Priority = int32(min(max(j.priority+1, 1), 10000))
		s.AddJob(&r)
		kept[id] = true
	}
	g.jobs = nil
	return kept
}

func (g *googleReader) instances(r io.Reader, file string, kept map[int64]bool) error {
	s := g.s
	return googleRecords(r, file, s, func(get func(string) (string, bool), line int64) error {
		id, ok1 := googleInt(get, "collection_id")
		idx, ok2 := googleInt(get, "instance_index")
		t, ok3 := googleInt(get, "time")
		typ, ok4 := googleType(get)
		switch {
		case !ok1 || !ok2:
			return s.Bad(file, line, "instance_index", "an instance event needs collection_id and instance_index")
		case !ok3 || t < 0:
			return s.Bad(file, line, "time", "missing or not a non-negative integer (µs)")
		case !ok4:
			return s.Bad(file, line, "type", "missing or not an event type")
		}
		if !kept[id] {
			return nil
		}
		key := [2]int64{id, idx}
		switch typ {
		case gSchedule:
			run := g.runs[key]
			if run == nil {
				run = &googleRun{}
				g.runs[key] = run
			}
			run.start = t
			run.node, _ = get("machine_id")
		case gEvict, gFail, gFinish, gKill, gLost:
			run := g.runs[key]
			if run == nil || run.start < 0 || t < run.start || t == googleTimeMax || run.start == 0 {
				return nil // never scheduled in the window
			}
			tr := data.NewTaskRow()
			tr.JobID = strconv.FormatInt(id, 10)
			tr.TaskID = strconv.FormatInt(idx, 10)
			if run.n > 0 {
				tr.TaskID += "/" + strconv.Itoa(run.n)
			}
			tr.Start, tr.Finish = float64(run.start)/1e6, float64(t)/1e6
			tr.Status = googleEventTypes[typ]
			tr.Containers = 1
			tr.Node = run.node
			s.Tasks.Add(&tr)
			run.n++
			run.start = -1
			if typ != gEvict {
				delete(g.runs, key)
			}
		}
		return nil
	})
}
