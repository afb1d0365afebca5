package data

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/schedplan/schedplan/data/internal/colfile"
)

// Format names a job-log file format.
type Format string

// Supported formats.
const (
	FormatParquet Format = "parquet"
	FormatArrow   Format = "arrow" // Arrow IPC file or stream (told apart by magic bytes when reading; a file when writing)
	// FormatArrowStream is the Arrow IPC stream format. Readers accept it as
	// a synonym of FormatArrow; writers write a stream instead of a file.
	FormatArrowStream Format = "arrow-stream"
	FormatTSV         Format = "tsv" // SWIM .tsv: six tab-separated columns, no header
	FormatCSV         Format = "csv" // CSV with a header row
)

// FormatOf guesses a file's format from its name.
func FormatOf(path string) (Format, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".parquet", ".pq":
		return FormatParquet, nil
	case ".arrow", ".ipc", ".feather":
		return FormatArrow, nil
	case ".arrows":
		return FormatArrowStream, nil
	case ".tsv":
		return FormatTSV, nil
	case ".csv":
		return FormatCSV, nil
	}
	return "", fmt.Errorf("%s: cannot tell the format from the file name; use one of .parquet, .arrow, .tsv, .csv or set the format explicitly", Printable(path))
}

// ReadOptions control how a job log is read.
type ReadOptions struct {
	// Format overrides the guess from the file name.
	Format Format
	// Map maps canonical column names to the names used in the file
	// (see ParseMapping).
	Map Mapping
	// Strict rejects unsorted submit times instead of sorting them.
	Strict bool
	// Warn receives warnings (for example, that rows were sorted). nil drops them.
	Warn func(msg string)
	// Log holds the options of the log readers (logs.go); KeepFailed
	// also keeps the failed jobs of a jobs table with a state column.
	Log LogOptions
	// Columns, when set, receives the report of what became of a jobs
	// table's columns (columns.go); without it, dropped failed jobs are
	// a warning.
	Columns func(*ColumnReport)
}

func (o *ReadOptions) warn(format string, args ...any) {
	if o.Warn != nil {
		o.Warn(fmt.Sprintf(format, args...))
	}
}

// ReadFile reads a job log from path. The file is opened read-only and never
// modified. It is checked before it is read: a Parquet or Arrow file by its
// magic bytes (and a Parquet file by its footer length), and any file by an
// estimate of the memory reading it needs, which must not exceed the memory
// available; CSV and .tsv files are read as a stream.
func ReadFile(path string, opt ReadOptions) (*Jobs, error) {
	if opt.Format == "" {
		f, err := resolveFormat(path)
		if err != nil {
			return nil, err
		}
		opt.Format = f
	}
	if IsLogFormat(opt.Format) { // other systems' logs (logs.go), streamed
		lg, err := ReadLog(path, opt)
		if err != nil {
			return nil, err
		}
		return lg.Jobs, nil
	}
	return readFile(path, opt)
}

// ReadBytes reads a job log held in memory; name is used in messages.
// opt.Format must be set. Parquet and Arrow tables are read column by column,
// copying whole buffers into the Jobs columns; nothing of the decoder is
// kept.
func ReadBytes(b []byte, name string, opt ReadOptions) (j *Jobs, err error) {
	defer func() {
		if r := recover(); r != nil { // a decoder bug must not take the process down
			j, err = nil, inputErrorf(name, 0, "", "cannot decode (corrupt or truncated file?): %v", r)
		}
	}()
	switch opt.Format {
	case FormatTSV, FormatCSV:
		j, err = readText(bytes.NewReader(b), name, &opt)
	case FormatParquet, FormatArrow, FormatArrowStream:
		if len(b) == 0 {
			return nil, inputErrorf(name, 0, "", "empty file")
		}
		j, err = readColumnar(name, &opt, int64(len(b)), colfile.NewStoppable(bytes.NewReader(b)), b)
	default:
		if IsLogFormat(opt.Format) { // other systems' logs (logs.go)
			j, err = readLogBytes(b, name, &opt)
			break
		}
		return nil, fmt.Errorf("%s: format %q is not supported", Printable(name), opt.Format)
	}
	return finishRead(j, err, name, b, &opt)
}

// finishRead completes a read that returned j and err, of a file named
// name held in b (nil: read from the file): the column report, failed jobs
// dropped, validation.
func finishRead(j *Jobs, err error, name string, b []byte, opt *ReadOptions) (*Jobs, error) {
	if err != nil {
		return nil, err
	}
	if j, err = applyColumns(j, name, b, opt); err != nil {
		return nil, err
	}
	j.Source = name
	if err := finish(j, opt); err != nil {
		return nil, err
	}
	return j, nil
}

// decodeError turns an error of a columnar decoder into an *InputError
// naming the file and, when known, the column.
func decodeError(name string, err error) error {
	var ie *InputError
	if errors.As(err, &ie) {
		return ie
	}
	var ce *colfile.ColumnError
	if errors.As(err, &ce) {
		return inputErrorf(name, 0, ce.Col, "%v", ce.Err)
	}
	return inputErrorf(name, 0, "", "%v", err)
}

// finish validates a freshly read table and sorts it by submit time unless
// the options forbid it.
func finish(j *Jobs, opt *ReadOptions) error {
	if j.Len() == 0 {
		return inputErrorf(j.Source, 0, "", "no jobs: the file has no data rows")
	}
	if err := Validate(j); err != nil {
		var ie *InputError
		if errors.As(err, &ie) && ie.Column != "" { // name the column as the file does
			if sc := opt.Map.Source(ie.Column); sc.Name != ie.Column && opt.Format != FormatTSV {
				ie.Column = sc.Name + " (" + ie.Column + ")"
			}
		}
		return err
	}
	if !j.SortedBySubmit() {
		if opt.Strict {
			row := 0
			for i := 1; i < j.Len(); i++ {
				if j.Submit[i] < j.Submit[i-1] {
					row = i + 1
					break
				}
			}
			return inputErrorf(j.Source, row, ColSubmit, "submit times are not sorted (strict mode)")
		}
		opt.warn("%s: submit times are not sorted; sorted them", Printable(j.Source))
		j.SortBySubmit()
	}
	return nil
}

// Write writes j to w in the given format: Parquet (Snappy pages, users
// and queues dictionary encoded), an Arrow IPC file (FormatArrow) or stream
// (FormatArrowStream), CSV with a header row, or SWIM .tsv (which holds only
// job id, submit time and the three byte counts; nulls become 0).
// Use WriteFileAtomic to write a file.
func Write(w io.Writer, j *Jobs, f Format) error {
	if j.Kept() {
		return fmt.Errorf("%s: rows of the table were dropped (Jobs.KeepRows): it cannot be written", j.Source)
	}
	switch f {
	case FormatTSV:
		return writeTSV(w, j)
	case FormatCSV:
		return writeCSV(w, j)
	case FormatParquet, FormatArrow, FormatArrowStream:
		rec := j.record()
		defer rec.Release()
		if f == FormatParquet {
			return colfile.WriteParquet(w, rec, []string{ColUser, ColQueue})
		}
		return colfile.WriteArrow(w, rec, f == FormatArrowStream)
	}
	return fmt.Errorf("writing format %q is not supported", f)
}
