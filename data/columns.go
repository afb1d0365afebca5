package data

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/ipc"
	"github.com/apache/arrow/go/v17/parquet"
	"github.com/apache/arrow/go/v17/parquet/file"

	"github.com/schedplan/schedplan/data/internal/colfile"
	"github.com/schedplan/schedplan/data/internal/csvscan"
)

// This file says what becomes of every column of a jobs table (CSV,
// Parquet, Arrow, SWIM .tsv): the canonical columns it reads (ColumnSpecs),
// the state column by which failed and killed jobs are dropped unless
// LogOptions.KeepFailed keeps them, and the columns it ignores, each with
// the reason (ColumnReport). docs/formats.md is generated from these tables
// (SchemaMarkdown; TestFormatsDoc checks that they agree).

// ColumnSpec describes a canonical column of the jobs table.
type ColumnSpec struct {
	Name     string
	Type     string // as Parquet/Arrow columns; CSV holds the same as text
	Required bool
	Use      string // what schedplan does with it
}

// ColumnSpecs describes Columns, in table order.
var ColumnSpecs = []ColumnSpec{
	{ColJobID, "string", true, "identifies the job; unique"},
	{ColSubmit, "float64 s (or a timestamp)", true, "arrival time; jobs are sorted by it (--strict refuses unsorted logs)"},
	{ColUser, "string", false, "fair-share user (default: \"default\")"},
	{ColQueue, "string", false, "the YARN queue the job ran in: carried to the emitted configurations' routing"},
	{ColPriority, "int32 ≥ 1", false, "weight (default 1)"},
	{ColStart, "float64 s", false, "observed start: the current scheduler's observed waits (calibration, observed baseline)"},
	{ColFinish, "float64 s", false, "observed finish: the current scheduler's observed responses"},
	{ColMapTasks, "int32", false, "task count of the map stage (task-level simulation)"},
	{ColReduceTasks, "int32", false, "task count of the reduce stage"},
	{ColMapTaskSeconds, "float64 container-s", false, "size: map + reduce task-seconds when there is no size column"},
	{ColReduceTaskSeconds, "float64 container-s", false, "size (with map_task_seconds)"},
	{ColInputBytes, "int64", false, "size from bytes (SWIM's rule) when there is neither size nor task-seconds"},
	{ColShuffleBytes, "int64", false, "size from bytes (with input and output bytes)"},
	{ColOutputBytes, "int64", false, "size from bytes (with input and shuffle bytes)"},
	{ColSize, "float64 container-s", false, "the job's size; overrides task-seconds and bytes"},
}

// StateColumns are the names (compared without case) of the column that
// holds a job's final state, the first the table has; --map state=NAME
// names another. A job whose state is one of FailedStates is dropped and
// counted, unless --keep-failed (LogOptions.KeepFailed) keeps it: by
// default a failed or killed job is not part of the workload to tune for,
// as in the log readers. Any other state, or none, keeps the job.
var StateColumns = []string{"state", "status", "final_status", "final_state", "job_status", "job_state"}

// FailedStates are the states (compared without case) of failed and killed
// jobs: YARN's FAILED and KILLED, MapReduce's and Spark's, Slurm's and
// Kubernetes' words for the same.
var FailedStates = []string{"FAILED", "FAILURE", "FAIL", "KILLED", "ERROR", "CANCELLED", "CANCELED", "ABORTED", "TIMEOUT", "TIMED_OUT", "LOST", "EVICTED", "PREEMPTED", "OUT_OF_MEMORY", "NODE_FAIL"}

// ColState is the canonical name of the state column (for --map state=NAME).
const ColState = "state"

// IgnoredColumn is a column schedplan does not read, with the reason.
type IgnoredColumn struct {
	Name string `json:"name"`
	Why  string `json:"why"`
}

// KnownIgnored lists columns real logs carry that schedplan ignores, by
// name (compared without case), with the reason.
var KnownIgnored = []IgnoredColumn{
	{"memory_mb", "per-job resources are not modelled: jobs are sized in container-seconds of the cluster spec's reference container (--container-mb); a tasks table's memory_mb is read with --tasks"},
	{"memory", "per-job resources are not modelled (see memory_mb)"},
	{"memory_seconds", "per-job resources are not modelled (see memory_mb); give size in container-seconds instead"},
	{"vcores", "per-job resources are not modelled (see memory_mb)"},
	{"vcore_seconds", "per-job resources are not modelled (see memory_mb); give size in container-seconds instead"},
	{"job_name", "names are not used: job_id identifies a job"},
	{"name", "names are not used: job_id identifies a job"},
	{"input_path", "data placement is not modelled"},
	{"output_path", "data placement is not modelled"},
	{"gap", "derived from submit_time"},
	{"duration", "a duration gives neither start nor finish time: give start_time and finish_time"},
	{"runtime", "a duration gives neither start nor finish time: give start_time and finish_time"},
}

// ColumnReport says what became of every column of a jobs table: used (as
// which canonical column, and how), ignored (why), and the state column
// with the failed and killed jobs dropped or kept.
type ColumnReport struct {
	Used    []UsedColumn    `json:"used"`
	Ignored []IgnoredColumn `json:"ignored,omitempty"`
	// State is the state column ("" when the table has none).
	State string `json:"state_column,omitempty"`
	// Failed counts the failed and killed jobs by state; KeptFailed says
	// whether they were kept (--keep-failed) or dropped (the default).
	Failed     map[string]int `json:"failed,omitempty"`
	KeptFailed bool           `json:"kept_failed"`
}

// UsedColumn is a column of the file read as canonical column As.
type UsedColumn struct {
	Name string `json:"name"`
	As   string `json:"as"`
	Use  string `json:"use"`
}

// FailedTotal returns the number of failed and killed jobs.
func (r *ColumnReport) FailedTotal() int {
	n := 0
	for _, c := range r.Failed {
		n += c
	}
	return n
}

// String formats the report on a few lines.
func (r *ColumnReport) String() string {
	var b strings.Builder
	var used []string
	for _, u := range r.Used {
		if u.Name == u.As {
			used = append(used, u.Name)
		} else {
			used = append(used, u.Name+" as "+u.As)
		}
	}
	fmt.Fprintf(&b, "columns used: %s", strings.Join(used, ", "))
	for _, u := range r.Used {
		if strings.HasPrefix(u.Use, "read, but") {
			fmt.Fprintf(&b, "\n  %s: %s", u.Name, u.Use)
		}
	}
	for _, c := range r.Ignored {
		fmt.Fprintf(&b, "\ncolumn ignored: %s: %s", c.Name, c.Why)
	}
	if r.State != "" {
		fmt.Fprintf(&b, "\nstate column %s: %s", r.State, r.failedText())
	}
	return b.String()
}

func (r *ColumnReport) failedText() string {
	n := r.FailedTotal()
	if n == 0 {
		return "no failed or killed jobs"
	}
	var parts []string
	for s, c := range r.Failed {
		parts = append(parts, fmt.Sprintf("%d %s", c, s))
	}
	sort.Strings(parts)
	if r.KeptFailed {
		return fmt.Sprintf("%d failed or killed jobs kept (--keep-failed): %s", n, strings.Join(parts, ", "))
	}
	return fmt.Sprintf("%d failed or killed jobs dropped (the default; --keep-failed keeps them): %s", n, strings.Join(parts, ", "))
}

// isFailedState reports whether state is one of FailedStates.
func isFailedState(state string) bool {
	for _, f := range FailedStates {
		if strings.EqualFold(state, f) {
			return true
		}
	}
	return false
}

// stateColumn returns the index of the state column among names (-1: none).
func stateColumn(names []string, m Mapping) int {
	if sc, ok := m[ColState]; ok {
		for k, n := range names {
			if n == sc.Name {
				return k
			}
		}
		return -1
	}
	for _, want := range StateColumns {
		for k, n := range names {
			if strings.EqualFold(n, want) {
				return k
			}
		}
	}
	return -1
}

// buildColumnReport describes names (the file's columns) given the jobs
// read from them: which canonical column each holds, and whether the size
// comes from it (the rule of estimate.SourceOf: size, else task-seconds,
// else bytes).
func buildColumnReport(names []string, m Mapping, j *Jobs, state int) *ColumnReport {
	r := &ColumnReport{}
	as := map[int]string{}
	if cols, err := resolveColumns("", names, m); err == nil {
		for canon, k := range cols {
			as[k] = canon
		}
	}
	sizeFrom := "bytes"
	switch {
	case j.Size.Present():
		sizeFrom = ColSize
	case j.MapTaskSeconds.Present() || j.ReduceTaskSeconds.Present():
		sizeFrom = "task-seconds"
	}
	for k, name := range names {
		canon, ok := as[k]
		switch {
		case k == state:
			r.State = name
		case ok:
			r.Used = append(r.Used, UsedColumn{Name: name, As: canon, Use: columnUse(canon, sizeFrom)})
		default:
			r.Ignored = append(r.Ignored, IgnoredColumn{Name: name, Why: ignoredWhy(name)})
		}
	}
	return r
}

// columnUse says what the canonical column canon is used for when sizes
// come from sizeFrom.
func columnUse(canon, sizeFrom string) string {
	use := ""
	for _, s := range ColumnSpecs {
		if s.Name == canon {
			use = s.Use
		}
	}
	switch canon {
	case ColMapTaskSeconds, ColReduceTaskSeconds:
		if sizeFrom == ColSize {
			return "read, but not the size: the size column overrides task-seconds"
		}
	case ColInputBytes, ColShuffleBytes, ColOutputBytes:
		if sizeFrom != "bytes" {
			return "read, but not the size: sizes come from " + sizeFrom + " (bytes are the last resort)"
		}
	}
	return use
}

func ignoredWhy(name string) string {
	for _, c := range KnownIgnored {
		if strings.EqualFold(c.Name, name) {
			return c.Why
		}
	}
	return "not a column schedplan reads (docs/formats.md lists them; --map CANONICAL=" + name + " reads it as one)"
}

// tableNames returns the column names of a jobs table of format f, held
// in b or, when b is nil, in the file name.
func tableNames(name string, f Format, b []byte) (names []string, err error) {
	defer colfile.RecoverTo(&err, "decoding")
	var src io.ReaderAt
	var size int64
	if b != nil {
		src, size = bytes.NewReader(b), int64(len(b))
	} else {
		fh, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer fh.Close()
		st, err := fh.Stat()
		if err != nil {
			return nil, err
		}
		src, size = fh, st.Size()
	}
	switch f {
	case FormatCSV, FormatTSV:
		sc := csvscan.New(io.NewSectionReader(src, 0, size))
		if f == FormatTSV {
			line, err := sc.ReadLine()
			if err != nil {
				return nil, err
			}
			n := bytes.Count(bytes.TrimRight(line, "\r\n"), []byte{'\t'}) + 1
			return tsvColumns[:min(max(n, TSVFields), TSVMaxFields-1)], nil
		}
		header, _, err := sc.Next()
		if err != nil {
			return nil, err
		}
		return cleanHeader(header), nil
	case FormatParquet:
		pr, err := file.NewParquetReader(io.NewSectionReader(src, 0, size))
		if err != nil {
			return nil, err
		}
		defer pr.Close()
		fields, err := colfile.ParquetFields(pr)
		if err != nil {
			return nil, err
		}
		return colfile.FieldNames(fields), nil
	case FormatArrow, FormatArrowStream:
		rs := io.NewSectionReader(src, 0, size)
		if fr, err := ipc.NewFileReader(rs); err == nil {
			defer fr.Close()
			return fieldNames(fr.Schema()), nil
		}
		sr, err := ipc.NewReader(io.NewSectionReader(src, 0, size))
		if err != nil {
			return nil, err
		}
		defer sr.Release()
		return fieldNames(sr.Schema()), nil
	}
	return nil, fmt.Errorf("format %q has no columns", f)
}

// stateValues returns the values of the state column (column k) of a
// Parquet or Arrow table, one per row in file order ("" for a null). A CSV
// table's are read with its rows (Jobs.states).
func stateValues(name string, f Format, b []byte, k int) ([]string, error) {
	var tbl arrow.Table
	var err error
	switch {
	case f == FormatParquet: // the column alone
		var src parquet.ReaderAtSeeker = bytes.NewReader(b)
		size := int64(len(b))
		if b == nil { // from the file
			fh, n, err := openInput(name)
			if err != nil {
				return nil, err
			}
			defer fh.Close()
			src, size = fh, n
		}
		only := func([]string) ([]int, error) { return []int{k}, nil }
		tbl, err = colfile.ReadParquet(colfile.NewStoppable(src), size, only)
	case b == nil:
		return nil, fmt.Errorf("%s: no content", name)
	default:
		tbl, err = readArrowBytes(b, f)
	}
	if err != nil {
		return nil, err
	}
	defer tbl.Release()
	col := 0
	if f != FormatParquet {
		col = k
	}
	var out []string
	for _, ch := range tbl.Column(col).Data().Chunks() {
		out = appendStrings(out, ch)
	}
	return out, nil
}

// appendStrings appends the values of a string, large-string, binary or
// dictionary-of-strings array (colfile.StringValue), "" for nulls and for values
// of other types.
func appendStrings(out []string, a arrow.Array) []string {
	bin, isBinary := a.(*array.Binary)
	for i := 0; i < a.Len(); i++ {
		v := ""
		switch {
		case !a.IsValid(i):
		case isBinary:
			v = string(bin.Value(i))
		default:
			v, _ = colfile.StringValue(a, i)
		}
		out = append(out, v)
	}
	return out
}

// applyColumns builds the column report of a jobs table read from name
// (format f, held in b or, when b is nil, in the file) and drops its
// failed and killed jobs unless opt.Log.KeepFailed; opt.Columns receives
// the report. j is in file order.
func applyColumns(j *Jobs, name string, b []byte, opt *ReadOptions) (*Jobs, error) {
	f := opt.Format
	if f != FormatCSV && f != FormatTSV && f != FormatParquet && f != FormatArrow && f != FormatArrowStream {
		return j, nil
	}
	csvStates := j.states
	j.states = nil
	names, err := tableNames(name, f, b)
	if err != nil {
		return j, nil // the reader has read it: a report is not worth an error
	}
	state := -1
	if f != FormatTSV {
		state = stateColumn(names, opt.Map)
	}
	r := buildColumnReport(names, opt.Map, j, state)
	if state >= 0 {
		vals := csvStates
		if f != FormatCSV {
			var err error
			if vals, err = stateValues(name, f, b, state); err != nil {
				return nil, inputErrorf(name, 0, names[state], "reading the state column: %v", err)
			}
		}
		if len(vals) != j.Len() {
			return nil, inputErrorf(name, 0, names[state], "%d states for %d jobs", len(vals), j.Len())
		}
		var keep []int
		r.KeptFailed = opt.Log.KeepFailed
		for i, v := range vals {
			if isFailedState(v) {
				if r.Failed == nil {
					r.Failed = map[string]int{}
				}
				r.Failed[strings.ToUpper(v)]++
				if !opt.Log.KeepFailed {
					continue
				}
			}
			keep = append(keep, i)
		}
		if len(keep) == 0 {
			return nil, inputErrorf(name, 0, names[state], "every job failed or was killed (%s)", r.failedText())
		}
		if len(keep) < j.Len() {
			j = j.Subset(keep)
		}
	}
	if opt.Columns != nil {
		opt.Columns(r)
	} else if n := r.FailedTotal(); n > 0 && !r.KeptFailed {
		opt.warn("%s: %s", Printable(name), r.failedText())
	}
	return j, nil
}
