package data

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// This file holds what the readers of other systems' logs share: the format
// names, the options, the summary of what was dropped and why, line reading
// with file and line numbers, decompression, and the dispatch from a path
// (file or directory) to the reader of its format, by name or by content.

// Log formats: logs of other systems that schedplan converts to its jobs
// (and tasks) tables. Each reader streams its input.
const (
	FormatSparkEventLog Format = "spark-eventlog" // Spark event logs (JSON lines; plain, lz4, lzf, snappy, zstd; rolling and Spark 1.x directories)
	FormatJHist         Format = "jhist"          // MapReduce job history files (.jhist, Avro-JSON events)
	FormatRMAppSummary  Format = "rm-app-summary" // YARN ResourceManager application summary log lines
	FormatSLS           Format = "sls"            // YARN Scheduler Load Simulator JSON trace
	FormatRumen         Format = "rumen"          // Hadoop Rumen JSON job trace
	FormatGoogle2019    Format = "google-2019"    // Google cluster data 2019: CollectionEvents (+ InstanceEvents), CSV or JSON lines
	FormatAlibaba2018   Format = "alibaba-2018"   // Alibaba cluster-trace-v2018 batch_task (+ batch_instance) CSV
	FormatSWF           Format = "swf"            // Standard Workload Format (Parallel Workloads Archive)
	FormatSWIMFull      Format = "swim-full"      // full-format SWIM trace (durations and task-seconds)
)

// LogFormats lists the log formats, in the order the README shows them.
var LogFormats = []Format{
	FormatSparkEventLog, FormatJHist, FormatRMAppSummary, FormatSLS, FormatRumen,
	FormatGoogle2019, FormatAlibaba2018, FormatSWF, FormatSWIMFull,
}

// IsLogFormat reports whether f is one of LogFormats.
func IsLogFormat(f Format) bool {
	for _, g := range LogFormats {
		if f == g {
			return true
		}
	}
	return false
}

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

func (s *LogSummary) drop(reason, file string, line int64, detail string) {
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

// Reasons for dropping, shared by the readers.
const (
	dropMalformed = "unparseable record"
	dropFailed    = "failed or killed job (keep with --keep-failed)"
	dropNoSize    = "no size information (no tasks, task-seconds or bytes)"
	dropDuplicate = "duplicate job id (the first is kept)"
)

// SoftMemoryLimit is the soft memory limit (runtime/debug.SetMemoryLimit)
// under which `schedplan convert` reads and writes logs, 900 MiB: without
// it Go's collector lets the heap grow to twice the live table before it
// collects, and a ten-million-job log would peak at about 1.2 GiB instead of
// about 0.85 GiB (BenchmarkConvertSWF10M).
const SoftMemoryLimit = 900 << 20

// Log is what a log reader produces.
type Log struct {
	Jobs    *Jobs
	Tasks   *Tasks // nil when the source has no tasks
	Summary LogSummary
}

// logState is the state of one read: options, summary, the tables being
// built.
type logState struct {
	opt   *ReadOptions
	sum   LogSummary
	jobs  jobBuilder
	tasks taskBuilder
	// sparkHeld is the Spark application read last, held back until the
	// next one shows whether it is an earlier attempt (sparkattempt.go).
	sparkHeld *sparkOutput
}

func newLogState(f Format, opt *ReadOptions) *logState {
	return &logState{opt: opt, sum: LogSummary{Format: f}}
}

// bad records an unparseable record: an error (naming file and line) in
// strict mode, else a drop.
func (s *logState) bad(file string, line int64, col, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	if s.opt.Strict {
		e := inputErrorf(file, int(min(line, 1<<31-1)), col, "%s", msg)
		return e
	}
	if col != "" {
		msg = fmt.Sprintf("%s: %s", col, msg)
	}
	s.sum.drop(dropMalformed, file, line, msg)
	return nil
}

// addJob adds a job. Duplicate ids are dropped after the read (dedupe),
// not here: a set of ten million ids would cost more than the table.
func (s *logState) addJob(r *jobRow) {
	s.jobs.add(r)
}

// keepStatus reports whether a job with this final status is kept, and
// records the drop otherwise.
func (s *logState) keepStatus(ok bool, file string, line int64, id, status string) bool {
	if ok || s.opt.Log.KeepFailed {
		return true
	}
	s.sum.drop(dropFailed, file, line, id+" "+status)
	return false
}

// lineReader reads lines of any length up to maxLine, counting them.
type lineReader struct {
	r    *bufio.Reader
	line int64
	buf  []byte
	err  error
}

// eachLine calls fn with every non-blank line of r and its number,
// counting the lines read in the summary; a read error ends the file
// (readErr).
func (s *logState) eachLine(r io.Reader, file string, fn func(line []byte, ln int64) error) error {
	lr := newLineReader(r)
	for {
		line, ok := lr.next()
		if !ok {
			break
		}
		s.sum.Records++
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if err := fn(line, lr.line); err != nil {
			return err
		}
	}
	return s.readErr(file, lr)
}

// maxLine bounds one line (Spark's environment events are the longest real
// lines: hundreds of kilobytes).
const maxLine = 256 << 20

func newLineReader(r io.Reader) *lineReader {
	// A reader that is buffered already (decompress's) is read as it is:
	// next joins lines longer than its buffer, and a small log then costs
	// no 1 MiB allocation.
	if b, ok := r.(*bufio.Reader); ok {
		return &lineReader{r: b}
	}
	return &lineReader{r: bufio.NewReaderSize(r, 1<<20)}
}

// next returns the next line without its line break, valid until the next
// call; ok is false at the end or on an error (see err).
func (l *lineReader) next() (line []byte, ok bool) {
	l.buf = l.buf[:0]
	for {
		frag, err := l.r.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			if len(l.buf)+len(frag) > maxLine {
				l.err = fmt.Errorf("line %d is longer than %d bytes", l.line+1, maxLine)
				return nil, false
			}
			l.buf = append(l.buf, frag...)
			continue
		}
		if len(l.buf) > 0 {
			l.buf = append(l.buf, frag...)
			frag = l.buf
		}
		if err != nil && err != io.EOF {
			l.err = err
			return nil, false
		}
		if len(frag) == 0 && err == io.EOF {
			return nil, false
		}
		l.line++
		frag = bytes.TrimSuffix(frag, []byte{'\n'})
		frag = bytes.TrimSuffix(frag, []byte{'\r'})
		return frag, true
	}
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
// file's content, named path). The jobs are not yet sorted.
func readLog(path string, src io.Reader, opt *ReadOptions) (*Log, error) {
	s := newLogState(opt.Format, opt)
	var err error
	if src != nil {
		s.sum.Files = 1
		err = s.readStream(opt.Format, src, path)
	} else {
		err = s.readPath(path)
	}
	if err != nil {
		return nil, err
	}
	lg := &Log{Jobs: s.jobs.jobs(path), Tasks: s.tasks.tasks(path)}
	s.dedupe(lg)
	if lg.Tasks != nil {
		if err := ValidateTasks(lg.Tasks); err != nil {
			return nil, err
		}
		lg.Jobs.FillFromTasks(lg.Tasks)
	}
	s.dropSizeless(lg)
	lg.Summary = s.sum
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
		if len(s.sum.Dropped) > 0 {
			d := s.sum.Dropped[0]
			msg += fmt.Sprintf(" (dropped %d: %s, first at %s)", s.sum.DroppedTotal(), d.Reason, d.First)
		}
		return nil, inputErrorf(path, 0, "", "%s", msg)
	}
	return lg, nil
}

// dedupe drops every job whose id an earlier job has (the first is kept).
func (s *logState) dedupe(lg *Log) {
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
			s.sum.drop(dropDuplicate, j.Source, 0, j.ID.At(d[1]))
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
func (s *logState) dropSizeless(lg *Log) {
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
		s.sum.drop(dropNoSize, j.Source, 0, j.ID.At(i))
	}
	if keep != nil {
		checked := j.idsChecked
		lg.Jobs = j.Subset(keep)
		lg.Jobs.idsChecked = checked
	}
}

// readPath reads a file or directory in the format s.opt.Format.
func (s *logState) readPath(path string) error {
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	f := s.opt.Format
	switch f {
	case FormatSparkEventLog:
		return s.readSparkPath(path, st.IsDir())
	case FormatAlibaba2018:
		return s.readAlibabaPath(path, st.IsDir())
	case FormatGoogle2019:
		return s.readGooglePath(path, st.IsDir())
	}
	files := []string{path}
	if st.IsDir() {
		if files, err = logFiles(path, f == FormatJHist); err != nil {
			return err
		}
		if f == FormatJHist {
			files = filterSuffix(files, ".jhist")
		}
		if len(files) == 0 {
			return inputErrorf(path, 0, "", "no %s files in the directory", f)
		}
	}
	for _, p := range files {
		if err := s.readFile(f, p); err != nil {
			return err
		}
	}
	return nil
}

// readFile opens one file (decompressing it) and reads it as format f.
func (s *logState) readFile(f Format, path string) error {
	r, closer, err := openLog(path)
	if err != nil {
		return err
	}
	defer closer.Close()
	s.sum.Files++
	if f == FormatSWF || f == FormatSWIMFull || f == FormatRMAppSummary {
		// One line is at most one job: reserve the columns up front.
		if n, ok := countLines(path); ok {
			s.jobs.reserve(s.jobs.len() + n)
		}
	}
	return s.readStream(f, r, path)
}

// readStream reads one stream of format f, named file in messages.
func (s *logState) readStream(f Format, r io.Reader, file string) error {
	r, err := decompress(r, file)
	if err != nil {
		return err
	}
	switch f {
	case FormatSWF:
		return s.readSWF(r, file)
	case FormatSWIMFull:
		return s.readSWIMFull(r, file)
	case FormatRMAppSummary:
		return s.readRMSummary(r, file)
	case FormatJHist:
		return s.readJHist(r, file)
	case FormatSparkEventLog:
		return s.readSparkStream(r, file)
	case FormatSLS:
		return s.readSLS(r, file)
	case FormatRumen:
		return s.readRumen(r, file)
	case FormatGoogle2019:
		return s.readGoogleCollections(r, file)
	case FormatAlibaba2018:
		return s.readAlibabaTasks(r, file)
	}
	return fmt.Errorf("%s: format %q is not a log format", file, f)
}

// logFiles lists the regular files under dir (recursively when deep), in
// name order, skipping hidden files and checksum files.
func logFiles(dir string, deep bool) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if p != dir && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			if p != dir && !deep {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(name, ".crc") || !d.Type().IsRegular() {
			return nil
		}
		out = append(out, p)
		return nil
	})
	sort.Strings(out)
	return out, err
}

func filterSuffix(files []string, suffix string) []string {
	var out []string
	for _, f := range files {
		if strings.HasSuffix(f, suffix) {
			out = append(out, f)
		}
	}
	return out
}

// errNotDetected is returned by DetectFormat for content it cannot place.
var errNotDetected = errors.New("cannot tell the log format from the content")

// DetectFormat tells a job log's format: the canonical formats from the
// file name (FormatOf), the log formats from the file name or the first
// kilobytes of the content (decompressed), and for a directory from the
// names and content of its files.
func DetectFormat(path string) (Format, error) {
	st, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	if st.IsDir() {
		return detectDir(path)
	}
	byName, nameErr := FormatOf(path)
	switch strings.ToLower(filepath.Ext(path)) {
	case ".jhist":
		return FormatJHist, nil
	case ".swf":
		return FormatSWF, nil
	case ".parquet", ".pq", ".arrow", ".ipc", ".feather", ".arrows":
		return byName, nil
	}
	head, err := readHead(path)
	if err != nil {
		return "", err
	}
	if f := sniff(head); f != "" {
		return f, nil
	}
	if nameErr == nil {
		return byName, nil
	}
	return "", fmt.Errorf("%s: %w; pass --format (one of %s)", path, errNotDetected, formatList())
}

func formatList() string {
	names := []string{string(FormatParquet), string(FormatArrow), string(FormatCSV), string(FormatTSV)}
	for _, f := range LogFormats {
		names = append(names, string(f))
	}
	return strings.Join(names, ", ")
}

func detectDir(dir string) (Format, error) {
	base := filepath.Base(dir)
	if strings.HasPrefix(base, sparkRollingPrefix) {
		return FormatSparkEventLog, nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", err
	}
	for _, e := range entries {
		n := e.Name()
		switch {
		case strings.HasPrefix(n, sparkRollingPrefix), strings.HasPrefix(n, sparkLegacyPrefix):
			return FormatSparkEventLog, nil
		case strings.HasSuffix(n, ".jhist"):
			return FormatJHist, nil
		case strings.HasPrefix(n, "batch_task"):
			return FormatAlibaba2018, nil
		case strings.HasPrefix(n, "collection_events"), strings.HasPrefix(n, "instance_events"):
			return FormatGoogle2019, nil
		}
	}
	files, err := logFiles(dir, true)
	if err != nil {
		return "", err
	}
	for _, p := range files {
		if strings.HasSuffix(p, ".jhist") {
			return FormatJHist, nil
		}
	}
	for _, p := range files {
		head, err := readHead(p)
		if err != nil {
			continue
		}
		if f := sniff(head); f != "" {
			return f, nil
		}
	}
	return "", fmt.Errorf("%s: %w of any file in the directory; pass --format (one of %s)", dir, errNotDetected, formatList())
}

// readHead returns up to the first 64 KiB of a file, decompressed.
func readHead(path string) ([]byte, error) {
	r, c, err := openLog(path)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	d, err := decompress(r, path)
	if err != nil {
		return nil, err
	}
	head := make([]byte, 64<<10)
	n, err := io.ReadFull(d, head)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return head[:n], nil // a damaged compressed tail: judge by what was read
	}
	return head[:n], nil
}

// sniff tells a log format from the start of its content, "" when unsure.
func sniff(head []byte) Format {
	head = bytes.TrimPrefix(head, []byte("\ufeff"))
	trim := bytes.TrimLeft(head, " \t\r\n")
	switch {
	case bytes.HasPrefix(trim, []byte("Avro-Json")):
		return FormatJHist
	case isSparkEventLine(trim):
		return FormatSparkEventLog
	case bytes.Contains(head, []byte("appId=")) && bytes.Contains(head, []byte("submitTime=")):
		return FormatRMAppSummary
	case len(trim) > 0 && (trim[0] == '{' || trim[0] == '['):
		switch {
		case bytes.Contains(head, []byte(`"job.start.ms"`)) || bytes.Contains(head, []byte(`"job.tasks"`)):
			return FormatSLS
		case bytes.Contains(head, []byte(`"jobID"`)):
			return FormatRumen
		case bytes.Contains(head, []byte(`"collection_id"`)):
			return FormatGoogle2019
		}
		return ""
	}
	first, _, _ := bytes.Cut(trim, []byte{'\n'})
	first = bytes.TrimRight(first, "\r")
	switch {
	case bytes.HasPrefix(trim, []byte(";")):
		return FormatSWF
	case bytes.Contains(first, []byte("collection_id")) && bytes.Contains(first, []byte("time")):
		return FormatGoogle2019
	}
	if f := bytes.Split(first, []byte{'\t'}); len(f) >= swimFullMinFields {
		return FormatSWIMFull
	} else if len(f) >= tsvFields && len(f) <= tsvMaxFields && allNumeric(f[1:tsvFields]) {
		return FormatTSV
	}
	if len(bytes.Fields(first)) == swfFields && allNumeric(bytes.Fields(first)) {
		return FormatSWF
	}
	if f := bytes.Split(first, []byte{','}); len(f) == len(alibabaTaskColumns) && alibabaStatus(string(f[4])) {
		return FormatAlibaba2018
	}
	return ""
}

// isSparkEventLine reports whether the first line of b is a Spark event: a
// JSON object whose "Event" names a SparkListener event, however a JSON
// tool spaced or ordered it.
func isSparkEventLine(b []byte) bool {
	if bytes.HasPrefix(b, []byte(`{"Event":`)) {
		return true
	}
	if len(b) == 0 || b[0] != '{' {
		return false
	}
	first, _, _ := bytes.Cut(b, []byte{'\n'})
	name, ok := sparkEventName(first)
	return ok && strings.Contains(name, "SparkListener")
}

func allNumeric(fields [][]byte) bool {
	for _, f := range fields {
		if _, ok := parseFloatBytes(f); !ok {
			return false
		}
	}
	return true
}

// readLogHook is ReadFile's entry to the log readers: it reads path as a
// log when opt.Format is a log format, or when the format is not given and
// the content (or a directory) shows a log format. ok is false when path is
// not a log, and ReadFile goes on as before.
func readLogHook(path string, opt *ReadOptions) (j *Jobs, ok bool, err error) {
	f := opt.Format
	if f == "" {
		byName, nameErr := FormatOf(path)
		if nameErr == nil && byName != FormatCSV && byName != FormatTSV {
			return nil, false, nil // Parquet and Arrow are never logs
		}
		d, err := DetectFormat(path)
		if err != nil || !IsLogFormat(d) {
			return nil, false, nil
		}
		f = d
	}
	if !IsLogFormat(f) {
		return nil, false, nil
	}
	o := *opt
	o.Format = f
	lg, err := ReadLog(path, o)
	if err != nil {
		return nil, true, err
	}
	return lg.Jobs, true, nil
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

// countLines estimates the lines of an uncompressed file from its size and
// the mean length of the lines in its first MiB, with a quarter to spare
// (ok false for a compressed file or on any error): it lets a reader size
// its columns once. Capacity that is never written costs address space,
// not memory.
func countLines(path string) (int, bool) {
	f, err := os.Open(path)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return 0, false
	}
	buf := make([]byte, 1<<20)
	k, _ := io.ReadFull(f, buf)
	buf = buf[:k]
	for _, m := range [][]byte{magicGzip, magicZstd, magicLZ4Frame, magicLZ4Block, magicXerial, magicSnappyFrm} {
		if bytes.HasPrefix(buf, m) {
			return 0, false
		}
	}
	if isLZF(buf) {
		return 0, false
	}
	lines := bytes.Count(buf, []byte{'\n'})
	if lines == 0 || int64(k) == st.Size() {
		return lines + 1, true
	}
	est := float64(st.Size()) / (float64(k) / float64(lines)) * 1.25
	if est > 1<<31 {
		return 0, false
	}
	return int(est) + 1024, true
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
