package spark

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/data/internal/logread"
)

// Spark event logs: one JSON object per line, written by Spark's
// EventLoggingListener through JsonProtocol (org.apache.spark.util.
// JsonProtocol): {"Event":"SparkListenerApplicationStart","App Name":...}.
// A log is one file per application (plain, or compressed with the codec of
// spark.eventLog.compression.codec: lz4, snappy, zstd — see compress.go),
// or a rolling directory eventlog_v2_APPID holding events_N_APPID[.codec]
// files read in order of N (from the last ".compact" file on, when Spark
// compacted the log; its appstatus_APPID[.inprogress] file is not needed:
// an application without ApplicationEnd is incomplete), or Spark 1.0–1.2's
// directory APPID/ of EVENT_LOG_N files and marker files
// (sparkLegacyPrefix). The codec is told by the stream's magic bytes, lzf
// included (compress.go). A directory of such logs (spark.eventLog.dir) is read
// application by application; of several attempts of one application the
// last is kept (sparkattempt.go). Lines are JSON however spaced or ordered
// (sparkEventName).
//
// Events read: SparkListenerApplicationStart/End (App ID, user, times),
// SparkListenerEnvironmentUpdate (spark.yarn.queue, spark.task.cpus),
// SparkListenerJobStart/End (Job ID, Stage IDs, Submission/Completion
// Time, Job Result, spark.scheduler.pool), SparkListenerStageSubmitted/
// Completed (submission and completion times) and SparkListenerTaskEnd
// (Task Info: Task ID, Executor ID, Host, Launch and Finish Time; Task
// Metrics: Executor Run Time, Executor CPU Time, Peak Execution Memory,
// input, output and shuffle bytes; Task End Reason).
//
// A schedplan job is a Spark application (LogOptions.Spark ==
// SparkApplication, the default: submitted at ApplicationStart, finished at
// ApplicationEnd; an application without ApplicationEnd is incomplete and
// dropped) or a Spark job (SparkJob: submitted and completed at JobStart and
// JobEnd, or at its first stage's submission and last task's finish in logs
// from Spark < 1.3 that lack those times; failed jobs dropped unless kept).
// Every TaskEnd becomes a task: job, stage (the Stage ID), task_id (the Task
// ID, unique in the application), launch and finish times, status (the end
// reason: Success, ExceptionFailure, TaskKilled, ...), node (Host), vcores
// (spark.task.cpus), cpu_seconds (Executor CPU Time), mem_bytes (Peak
// Execution Memory), disk_bytes (input bytes read + output bytes written +
// shuffle bytes written) and net_bytes (remote shuffle bytes read).
//
// A job's task counts and task-seconds are Spark's own: successful
// ShuffleMapTasks are map tasks, ResultTasks reduce tasks, and their seconds
// are Executor Run Time (what the Spark UI calls a task's duration), so the
// table keeps the log's totals exactly. Input, shuffle (written) and output
// bytes are summed over successful tasks.

// sparkCodecExts are the extensions Spark gives compressed event logs.
var sparkCodecExts = []string{".lz4", ".snappy", ".zstd", ".zst", ".lzf", ".gz"}

// sparkLogName is an event log's name (a file or rolling directory)
// without the rolling prefix, ".inprogress" and the codec's extension:
// APP_ID, or APP_ID_ATTEMPT for an attempt in YARN cluster mode.
func sparkLogName(name string) string {
	name = strings.TrimPrefix(name, sparkRollingPrefix)
	name = strings.TrimSuffix(name, ".inprogress")
	for _, ext := range sparkCodecExts {
		name = strings.TrimSuffix(name, ext)
	}
	return name
}

// sparkRollingPrefix names a rolling event-log directory.
const sparkRollingPrefix = "eventlog_v2_"

// sparkApp is the state of one application being read.
type sparkApp struct {
	s        *logState
	file     string // the file (or rolling directory) the app came from
	id       string
	attempt  string // App Attempt ID ("" outside YARN cluster mode)
	user     string
	queue    string
	taskCPUs int32
	start    float64 // ApplicationStart, s (NaN if absent)
	end      float64
	endFile  string
	endLine  int64

	firstLaunch float64
	agg         sparkAgg // application totals
	jobs        map[int64]*sparkJob
	jobOrder    []int64
	stageJob    map[int64]int64   // stage id → the job that runs it
	stageSubmit map[int64]float64 // stage id → submission time, s
	pendingTask []data.TaskRow    // tasks whose job is known only at the end (application mode: none)
	sawEvent    bool
}

// sparkAgg sums what the jobs table takes from a job's tasks.
type sparkAgg struct {
	mapN, redN        int32
	mapMS, redMS      int64 // executor run time, ms (summed exactly)
	in, shuffle, out  int64
	firstLaunch, last float64
}

func newSparkAgg() sparkAgg { return sparkAgg{firstLaunch: data.NoFloat, last: data.NoFloat} }

type sparkJob struct {
	id             int64
	submit, finish float64
	pool           string
	failed         bool
	result         string
	ended          bool
	line           int64
	file           string
	name           string // APP_ID/JOB_ID, once a task needed it
	agg            sparkAgg
}

func (s *logState) newSparkApp(file string) *sparkApp {
	return &sparkApp{
		s: s, file: file, start: data.NoFloat, end: data.NoFloat, firstLaunch: data.NoFloat,
		agg: newSparkAgg(), jobs: map[int64]*sparkJob{},
		stageJob: map[int64]int64{}, stageSubmit: map[int64]float64{},
	}
}

// readSparkStream reads one application from one stream.
func (s *logState) readSparkStream(r io.Reader, file string) error {
	app := s.newSparkApp(file)
	if err := app.read(r, file); err != nil {
		return err
	}
	if err := app.finish(); err != nil {
		return err
	}
	s.flushSpark()
	return nil
}

// readSparkPath reads an event-log file, a rolling event-log directory or a
// directory of event logs.
func (s *logState) readSparkPath(path string, dir bool) error {
	if err := s.readSparkPaths(path, dir); err != nil {
		return err
	}
	s.flushSpark()
	return nil
}

func (s *logState) readSparkPaths(path string, dir bool) error {
	if !dir {
		return s.readSparkFiles(path, []string{path})
	}
	if strings.HasPrefix(filepath.Base(path), sparkRollingPrefix) {
		files, err := sparkRollingFiles(path)
		if err != nil {
			return err
		}
		return s.readSparkFiles(path, files)
	}
	if files, err := sparkLegacyFiles(path); err != nil || len(files) > 0 {
		if err != nil {
			return err
		}
		return s.readSparkFiles(path, files)
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return err
	}
	sortSparkEntries(entries)
	apps := 0
	for _, e := range entries {
		name := e.Name()
		p := filepath.Join(path, name)
		switch {
		case strings.HasPrefix(name, ".") || strings.HasSuffix(name, ".crc"):
			continue
		case e.IsDir() && strings.HasPrefix(name, sparkRollingPrefix):
			files, err := sparkRollingFiles(p)
			if err != nil {
				return err
			}
			if err := s.readSparkFiles(p, files); err != nil {
				return err
			}
			apps++
		case e.IsDir():
			files, err := sparkLegacyFiles(p)
			if err != nil {
				return err
			}
			if len(files) == 0 {
				s.Sum.Drop("not a Spark event log (directory skipped)", p, 0, "")
				continue
			}
			if err := s.readSparkFiles(p, files); err != nil {
				return err
			}
			apps++
		case e.Type().IsRegular():
			if head, err := data.ReadHead(p); err != nil || !isSparkEventLine(head.Trim) {
				s.Sum.Drop("not a Spark event log (file skipped)", p, 0, "")
				continue
			}
			if err := s.readSparkFiles(p, []string{p}); err != nil {
				return err
			}
			apps++
		}
	}
	if apps == 0 {
		return data.InputErrorf(path, 0, "", "no Spark event logs in the directory (files, or %s* directories)", sparkRollingPrefix)
	}
	return nil
}

// readSparkFiles reads one application from its files, in order.
func (s *logState) readSparkFiles(name string, files []string) error {
	app := s.newSparkApp(name)
	for _, p := range files {
		r, c, err := logread.Open(p)
		if err != nil {
			return err
		}
		s.Sum.Files++
		d, err := logread.Decompress(r, p)
		if err == nil {
			err = app.read(d, p)
		}
		c.Close()
		if err != nil {
			return err
		}
	}
	return app.finish()
}

// sparkRollingFiles lists a rolling event-log directory's event files in
// order of their index, from the last compacted file on.
func sparkRollingFiles(dir string) ([]string, error) {
	files, err := numberedFiles(dir, func(e os.DirEntry) (int64, bool) {
		name := e.Name()
		if !strings.HasPrefix(name, "events_") || strings.HasSuffix(name, ".crc") {
			return 0, false
		}
		rest := strings.TrimPrefix(name, "events_")
		k := strings.IndexByte(rest, '_')
		if k <= 0 {
			return 0, false
		}
		n, err := strconv.ParseInt(rest[:k], 10, 64)
		return n, err == nil
	})
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, data.InputErrorf(dir, 0, "", "a rolling event-log directory without events_N_... files")
	}
	from := 0
	for k, f := range files {
		if strings.HasSuffix(f, ".compact") {
			from = k
		}
	}
	return files[from:], nil
}

// numberedFiles returns the paths of dir's entries that number gives a
// number, in order of that number.
func numberedFiles(dir string, number func(os.DirEntry) (int64, bool)) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	type ev struct {
		n    int64
		name string
	}
	var evs []ev
	for _, e := range entries {
		if n, ok := number(e); ok {
			evs = append(evs, ev{n, e.Name()})
		}
	}
	sort.SliceStable(evs, func(a, b int) bool { return evs[a].n < evs[b].n })
	out := make([]string, len(evs))
	for k, e := range evs {
		out[k] = filepath.Join(dir, e.name)
	}
	return out, nil
}

// sparkLegacyPrefix names the event files of Spark 1.0–1.2's log
// directories (EventLoggingListener's LOG_PREFIX): a directory per
// application holding EVENT_LOG_1 (and EVENT_LOG_2, … when it rolled)
// beside empty marker files SPARK_VERSION_x, COMPRESSION_CODEC_y (the
// codec the event files are compressed with) and APPLICATION_COMPLETE
// (absent while the application runs).
const sparkLegacyPrefix = "EVENT_LOG_"

// sparkLegacyFiles lists a Spark 1.x log directory's event files in order
// of their number (none: dir is not such a directory).
func sparkLegacyFiles(dir string) ([]string, error) {
	return numberedFiles(dir, func(e os.DirEntry) (int64, bool) {
		name := e.Name()
		n, err := strconv.ParseInt(strings.TrimPrefix(name, sparkLegacyPrefix), 10, 64)
		return n, strings.HasPrefix(name, sparkLegacyPrefix) && err == nil && e.Type().IsRegular()
	})
}

// sparkEvent holds the fields read from any event; each event type fills
// its own.
type sparkEvent struct {
	Event      string            `json:"Event"`
	AppID      *string           `json:"App ID"`
	AttemptID  string            `json:"App Attempt ID"`
	AppName    string            `json:"App Name"`
	User       string            `json:"User"`
	Timestamp  *int64            `json:"Timestamp"`
	SparkProps map[string]string `json:"Spark Properties"`
	JobID      *int64            `json:"Job ID"`
	Submission *int64            `json:"Submission Time"`
	Completion *int64            `json:"Completion Time"`
	StageIDs   []int64           `json:"Stage IDs"`
	Properties map[string]string `json:"Properties"`
	JobResult  *struct {
		Result string `json:"Result"`
	} `json:"Job Result"`
	StageInfo *struct {
		StageID    int64  `json:"Stage ID"`
		Submission *int64 `json:"Submission Time"`
	} `json:"Stage Info"`
	StageID   *int64 `json:"Stage ID"`
	TaskType  string `json:"Task Type"`
	EndReason *struct {
		Reason string `json:"Reason"`
	} `json:"Task End Reason"`
	TaskInfo *struct {
		TaskID     *int64 `json:"Task ID"`
		Attempt    int64  `json:"Attempt"`
		Launch     *int64 `json:"Launch Time"`
		ExecutorID string `json:"Executor ID"`
		Host       string `json:"Host"`
		Finish     *int64 `json:"Finish Time"`
		Failed     bool   `json:"Failed"`
		Killed     bool   `json:"Killed"`
	} `json:"Task Info"`
	Metrics *struct {
		RunTime     *int64 `json:"Executor Run Time"`
		CPUTime     *int64 `json:"Executor CPU Time"`
		PeakMemory  *int64 `json:"Peak Execution Memory"`
		ShuffleRead *struct {
			Remote int64 `json:"Remote Bytes Read"`
		} `json:"Shuffle Read Metrics"`
		ShuffleWrite *struct {
			Written int64 `json:"Shuffle Bytes Written"`
		} `json:"Shuffle Write Metrics"`
		Input *struct {
			Read int64 `json:"Bytes Read"`
		} `json:"Input Metrics"`
		Output *struct {
			Written int64 `json:"Bytes Written"`
		} `json:"Output Metrics"`
	} `json:"Task Metrics"`
}

// sparkEventsRead are the events decoded; others are only counted.
var sparkEventsRead = map[string]bool{
	"SparkListenerApplicationStart": true, "SparkListenerApplicationEnd": true,
	"SparkListenerEnvironmentUpdate": true, "SparkListenerJobStart": true,
	"SparkListenerJobEnd": true, "SparkListenerStageSubmitted": true,
	"SparkListenerStageCompleted": true, "SparkListenerTaskEnd": true,
}

// sparkEventName returns a line's event name: from the bytes "Event":" in
// the line's first 64 bytes when Spark's JsonProtocol wrote it (the fast
// path, which decodes nothing), else by decoding the line as JSON, so that
// a log re-saved by Python, jq or any other JSON tool (spaces after colons,
// keys in another order) reads the same.
func sparkEventName(line []byte) (string, bool) {
	const key = `"Event":"`
	if k := bytes.Index(line, []byte(key)); k >= 0 && k <= 64 {
		rest := line[k+len(key):]
		if e := bytes.IndexByte(rest, '"'); e >= 0 && bytes.IndexByte(rest[:e], '\\') < 0 {
			return logread.UnsafeString(rest[:e]), true
		}
	}
	var ev struct {
		Event *string `json:"Event"`
	}
	if json.Unmarshal(line, &ev) != nil || ev.Event == nil {
		return "", false
	}
	return *ev.Event, true
}

func (a *sparkApp) read(r io.Reader, file string) error {
	s := a.s
	return s.EachLine(r, file, func(line []byte, ln int64) error {
		name, ok := sparkEventName(line)
		if !ok {
			return s.Bad(file, ln, "Event", "not a Spark event (a JSON object with an \"Event\" field)")
		}
		a.sawEvent = true
		if !sparkEventsRead[name] {
			if !json.Valid(line) {
				if err := s.Bad(file, ln, "", "malformed JSON"); err != nil {
					return err
				}
			}
			return nil
		}
		var ev sparkEvent
		if err := json.Unmarshal(line, &ev); err != nil {
			return s.Bad(file, ln, "", "%s: %v", name, logread.JSONErr(err))
		}
		if err := a.event(&ev, file, ln); err != nil {
			return err
		}
		return nil
	})
}

func (a *sparkApp) event(ev *sparkEvent, file string, line int64) error {
	s := a.s
	switch ev.Event {
	case "SparkListenerApplicationStart":
		if ev.AppID != nil && *ev.AppID != "" {
			a.id = *ev.AppID
		}
		a.user = ev.User
		a.attempt = ev.AttemptID
		if ev.Timestamp != nil {
			a.start = logread.MsToS(*ev.Timestamp)
		}
	case "SparkListenerApplicationEnd":
		if ev.Timestamp != nil {
			a.end = logread.MsToS(*ev.Timestamp)
			a.endFile, a.endLine = file, line
		}
	case "SparkListenerEnvironmentUpdate":
		if q := ev.SparkProps["spark.yarn.queue"]; q != "" {
			a.queue = q
		}
		if c, err := strconv.ParseInt(ev.SparkProps["spark.task.cpus"], 10, 32); err == nil && c > 0 {
			a.taskCPUs = int32(c)
		}
	case "SparkListenerJobStart":
		if ev.JobID == nil {
			return s.Bad(file, line, "Job ID", "SparkListenerJobStart without a job id")
		}
		j := &sparkJob{id: *ev.JobID, submit: data.NoFloat, finish: data.NoFloat, file: file, line: line, agg: newSparkAgg()}
		if ev.Submission != nil {
			j.submit = logread.MsToS(*ev.Submission)
		}
		j.pool = ev.Properties["spark.scheduler.pool"]
		if _, dup := a.jobs[j.id]; !dup {
			a.jobOrder = append(a.jobOrder, j.id)
		}
		a.jobs[j.id] = j
		for _, st := range ev.StageIDs {
			if _, ok := a.stageJob[st]; !ok {
				a.stageJob[st] = j.id
			}
		}
	case "SparkListenerJobEnd":
		if ev.JobID == nil {
			return s.Bad(file, line, "Job ID", "SparkListenerJobEnd without a job id")
		}
		j, ok := a.jobs[*ev.JobID]
		if !ok {
			return s.Bad(file, line, "Job ID", "SparkListenerJobEnd for job %d, which never started", *ev.JobID)
		}
		j.ended = true
		if ev.Completion != nil {
			j.finish = logread.MsToS(*ev.Completion)
		}
		if ev.JobResult != nil {
			j.result = ev.JobResult.Result
			j.failed = ev.JobResult.Result != "" && ev.JobResult.Result != "JobSucceeded"
		}
	case "SparkListenerStageSubmitted", "SparkListenerStageCompleted":
		// Spark < 1.3 gives the submission time only at completion.
		if ev.StageInfo != nil && ev.StageInfo.Submission != nil {
			if _, ok := a.stageSubmit[ev.StageInfo.StageID]; !ok {
				a.stageSubmit[ev.StageInfo.StageID] = logread.MsToS(*ev.StageInfo.Submission)
			}
		}
	case "SparkListenerTaskEnd":
		return a.taskEnd(ev, file, line)
	}
	return nil
}

func (a *sparkApp) taskEnd(ev *sparkEvent, file string, line int64) error {
	s := a.s
	ti := ev.TaskInfo
	if ti == nil || ti.TaskID == nil || ev.StageID == nil {
		return s.Bad(file, line, "Task Info", "SparkListenerTaskEnd without a task id or stage id")
	}
	if ti.Launch == nil || ti.Finish == nil || *ti.Finish < *ti.Launch || *ti.Launch < 0 {
		return s.Bad(file, line, "Launch Time", "a task without launch and finish times (or finishing before it launched)")
	}
	r := data.NewTaskRow()
	r.Stage = strconv.FormatInt(*ev.StageID, 10)
	r.TaskID = strconv.FormatInt(*ti.TaskID, 10)
	r.Start, r.Finish = logread.MsToS(*ti.Launch), logread.MsToS(*ti.Finish)
	reason := "Success"
	if ev.EndReason != nil && ev.EndReason.Reason != "" {
		reason = ev.EndReason.Reason
	}
	ok := reason == "Success" && !ti.Failed && !ti.Killed
	r.Status = reason
	r.Containers = 1
	if a.taskCPUs > 0 {
		r.Vcores = a.taskCPUs
	}
	r.Node = ti.Host
	runMS, in, shWrite, out := sparkTaskMetrics(ev, &r)
	agg, known := a.taskAgg(ev, &r, file, line)
	if !known {
		return nil
	}
	if ok {
		isMap := ev.TaskType == "ShuffleMapTask"
		if isMap {
			agg.mapN++
			agg.mapMS += runMS
		} else {
			agg.redN++
			agg.redMS += runMS
		}
		agg.in, agg.shuffle, agg.out = data.AddBytes(agg.in, in), data.AddBytes(agg.shuffle, shWrite), data.AddBytes(agg.out, out)
	}
	agg.firstLaunch = logread.MinNaN(agg.firstLaunch, r.Start)
	agg.last = logread.MaxNaN(agg.last, r.Finish)
	a.pendingTask = append(a.pendingTask, r)
	return nil
}

// sparkTaskMetrics copies a task's CPU seconds, peak memory, disk and
// network bytes from ev's metrics into r, and returns its run time in ms and
// its input, shuffle-write and output bytes (0 for absent or negative
// values).
func sparkTaskMetrics(ev *sparkEvent, r *data.TaskRow) (runMS, in, shWrite, out int64) {
	m := ev.Metrics
	if m == nil {
		return 0, 0, 0, 0
	}
	if m.RunTime != nil && *m.RunTime >= 0 && *m.RunTime < 1<<40 {
		runMS = *m.RunTime
	}
	if m.CPUTime != nil && *m.CPUTime >= 0 {
		r.CPUSeconds = float64(*m.CPUTime) / 1e9
	}
	if m.PeakMemory != nil && *m.PeakMemory >= 0 {
		r.MemBytes = *m.PeakMemory
	}
	if m.Input != nil {
		in = max(m.Input.Read, 0)
	}
	if m.Output != nil {
		out = max(m.Output.Written, 0)
	}
	if m.ShuffleWrite != nil {
		shWrite = max(m.ShuffleWrite.Written, 0)
	}
	if d := data.AddBytes(data.AddBytes(in, out), shWrite); d > 0 {
		r.DiskBytes = d
	}
	if m.ShuffleRead != nil && m.ShuffleRead.Remote >= 0 {
		r.NetBytes = m.ShuffleRead.Remote
	}
	return runMS, in, shWrite, out
}

// taskAgg returns the totals a task of ev counts into (its job's when the
// unit is SparkJob, else the application's) and sets r.JobID. It returns
// false, having dropped the task, when no job names the task's stage.
func (a *sparkApp) taskAgg(ev *sparkEvent, r *data.TaskRow, file string, line int64) (*sparkAgg, bool) {
	agg := &a.agg
	if a.unit() == data.SparkJob {
		jid, known := a.stageJob[*ev.StageID]
		if !known {
			a.s.Sum.Drop("Spark task of a stage no job names", file, line, "stage "+r.Stage)
			return nil, false
		}
		j := a.jobs[jid]
		agg = &j.agg
		if j.name == "" {
			j.name = a.appID() + "/" + strconv.FormatInt(jid, 10)
		}
		r.JobID = j.name
	} else {
		r.JobID = a.appID()
	}
	return agg, true
}

func (a *sparkApp) unit() data.SparkUnit {
	if a.s.Opt.Log.Spark == data.SparkJob {
		return data.SparkJob
	}
	return data.SparkApplication
}

// appID is the application id, or the file's name for logs that lack one
// (Spark < 1.3).
func (a *sparkApp) appID() string {
	if a.id != "" {
		return a.id
	}
	a.id = sparkLogName(filepath.Base(a.file))
	return a.id
}

// finish turns the application (or its jobs) into jobs and its tasks into
// tasks.
func (a *sparkApp) finish() error {
	s := a.s
	if !a.sawEvent {
		return nil
	}
	id := a.appID()
	out := &sparkOutput{app: id, attempt: a.attempt, file: a.file}
	// The tasks' job ids were fixed when they were read (the application
	// id may have been learnt later only in malformed logs).
	keepJob := map[string]bool{}
	row := func(jid string, submit, finish float64, queue string, g *sparkAgg) data.JobRow {
		r := data.NewJobRow()
		r.ID, r.User, r.Queue = jid, a.user, queue
		r.Submit, r.Finish = submit, finish
		r.Start = g.firstLaunch
		r.MapTasks, r.ReduceTasks = g.mapN, g.redN
		r.MapTaskSeconds, r.ReduceTaskSeconds = logread.MsToS(g.mapMS), logread.MsToS(g.redMS)
		r.InputBytes, r.ShuffleBytes, r.OutputBytes = g.in, g.shuffle, g.out
		if g.in < 0 || g.shuffle < 0 || g.out < 0 { // past int64 (addBytes): unknown
			r.InputBytes, r.ShuffleBytes, r.OutputBytes = data.NoInt64, data.NoInt64, data.NoInt64
		}
		return r
	}
	if a.unit() == data.SparkApplication {
		switch {
		case a.start != a.start:
			s.Sum.Drop("Spark application without SparkListenerApplicationStart", a.file, 0, id)
		case a.end != a.end:
			s.Sum.Drop("incomplete Spark application (no SparkListenerApplicationEnd)", a.file, 0, id)
		default:
			r := row(id, a.start, a.end, a.queue, &a.agg)
			if r.Submit < 0 {
				return s.Bad(a.endFile, a.endLine, "Timestamp", "negative application start time")
			}
			out.jobs = append(out.jobs, r)
			keepJob[id] = true
		}
	} else {
		for _, jid := range a.jobOrder {
			j := a.jobs[jid]
			name := id + "/" + strconv.FormatInt(jid, 10)
			if !j.ended {
				s.Sum.Drop("incomplete Spark job (no SparkListenerJobEnd)", j.file, j.line, name)
				continue
			}
			if j.failed && !s.KeepStatus(false, j.file, j.line, name, j.result) {
				continue
			}
			submit := j.submit
			if submit != submit { // Spark < 1.3: the first stage's submission
				for st, sj := range a.stageJob {
					if sj == jid {
						if t, ok := a.stageSubmit[st]; ok {
							submit = logread.MinNaN(submit, t)
						}
					}
				}
			}
			if submit != submit {
				submit = j.agg.firstLaunch
			}
			finish := j.finish
			if finish != finish {
				finish = j.agg.last
			}
			if submit != submit || submit < 0 {
				s.Sum.Drop("Spark job without a submission time", j.file, j.line, name)
				continue
			}
			// The YARN queue is what YARN routes by; a pool of Spark's
			// own fair scheduler inside the application names the queue
			// only when the log gives no YARN queue (standalone pools).
			queue := a.queue
			if queue == "" {
				queue = j.pool
			}
			r := row(name, submit, finish, queue, &j.agg)
			out.jobs = append(out.jobs, r)
			keepJob[name] = true
		}
	}
	for k := range a.pendingTask {
		if keepJob[a.pendingTask[k].JobID] {
			out.tasks = append(out.tasks, a.pendingTask[k])
		}
	}
	a.pendingTask = nil
	s.holdSpark(out)
	return nil
}
