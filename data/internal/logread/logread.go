package logread

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"unsafe"

	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/data/internal/compress"
)

// Reasons for dropping, shared by the readers.
const (
	dropMalformed = "unparseable record"
	dropFailed    = "failed or killed job (keep with --keep-failed)"
)

// State is the state of one read: options, summary, the tables being
// built.
type State struct {
	Opt   *data.ReadOptions
	Sum   data.LogSummary
	Jobs  data.JobBuilder
	Tasks data.TaskBuilder
}

// New returns the state of a read of a log of format f.
func New(f data.Format, opt *data.ReadOptions) *State {
	return &State{Opt: opt, Sum: data.LogSummary{Format: f}}
}

// StreamFunc reads one (decompressed) stream of a log, named file in
// messages.
type StreamFunc func(r io.Reader, file string) error

// Read reads path with readPath (told whether path is a directory), or src
// when it is not nil (one file's content, named path) with stream once
// decompressed, and returns the log as read (data.LogFormat's Read).
func (s *State) Read(path string, src io.Reader, readPath func(path string, dir bool) error, stream StreamFunc) (*data.Log, error) {
	var err error
	if src != nil {
		s.Sum.Files = 1
		err = s.Stream(src, path, stream)
	} else {
		var st os.FileInfo
		if st, err = os.Stat(path); err == nil {
			err = readPath(path, st.IsDir())
		}
	}
	if err != nil {
		return nil, err
	}
	return &data.Log{Jobs: s.Jobs.Jobs(path), Tasks: s.Tasks.Tasks(path), Summary: s.Sum}, nil
}

// ReadAll is Read for a format whose files are read one by one (ReadFiles
// with o).
func (s *State) ReadAll(path string, src io.Reader, o Files, stream StreamFunc) (*data.Log, error) {
	return s.Read(path, src, func(path string, dir bool) error {
		return s.ReadFiles(path, dir, o, stream)
	}, stream)
}

// Files says how ReadFiles reads a directory: Deep walks its
// subdirectories too, Suffix keeps only the files so named ("" keeps
// all), Reserve sizes the jobs table from each file's line count (a
// format of at most one job a line).
type Files struct {
	Deep    bool
	Suffix  string
	Reserve bool
}

// ReadFiles reads path, a file or (dir) a directory of files, each with
// stream.
func (s *State) ReadFiles(path string, dir bool, o Files, stream StreamFunc) error {
	files := []string{path}
	if dir {
		var err error
		if files, err = data.LogFiles(path, o.Deep); err != nil {
			return err
		}
		if o.Suffix != "" {
			files = filterSuffix(files, o.Suffix)
		}
		if len(files) == 0 {
			return data.InputErrorf(path, 0, "", "no %s files in the directory", s.Sum.Format)
		}
	}
	for _, p := range files {
		if err := s.ReadFile(p, o.Reserve, stream); err != nil {
			return err
		}
	}
	return nil
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

// ReadFile opens one file (decompressing it) and reads it with stream;
// reserve sizes the jobs table from its line count.
func (s *State) ReadFile(path string, reserve bool, stream StreamFunc) error {
	r, closer, err := compress.Open(path)
	if err != nil {
		return err
	}
	defer closer.Close()
	s.Sum.Files++
	if reserve {
		// One line is at most one job: reserve the columns up front.
		if n, ok := countLines(path); ok {
			s.Jobs.Reserve(s.Jobs.Len() + n)
		}
	}
	return s.Stream(r, path, stream)
}

// Stream reads r, named file, with stream once decompressed.
func (s *State) Stream(r io.Reader, file string, stream StreamFunc) error {
	r, err := Decompress(r, file)
	if err != nil {
		return err
	}
	return stream(r, file)
}

// Decompress returns r decompressed (compress.Decompress), with an error
// that names file.
func Decompress(r io.Reader, file string) (io.Reader, error) {
	d, err := compress.Decompress(r, file)
	if err != nil {
		return nil, data.InputErrorf(file, 0, "", "%v", err)
	}
	return d, nil
}

// Open opens a file for reading (compress.Open).
func Open(path string) (io.Reader, io.Closer, error) { return compress.Open(path) }

// Bad records an unparseable record: an error (naming file, line and
// column) in strict mode, else a drop.
func (s *State) Bad(file string, line int64, col, format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	if s.Opt.Strict {
		e := data.InputErrorf(file, int(min(line, 1<<31-1)), col, "%s", msg)
		return e
	}
	if col != "" {
		msg = fmt.Sprintf("%s: %s", col, msg)
	}
	s.Sum.Drop(dropMalformed, file, line, msg)
	return nil
}

// AddJob adds a job. Duplicate ids are dropped after the read
// (data.ReadLog), not here: a set of ten million ids would cost more than
// the table.
func (s *State) AddJob(r *data.JobRow) {
	s.Jobs.Add(r)
}

// KeepStatus reports whether a job with this final status is kept, and
// records the drop otherwise.
func (s *State) KeepStatus(ok bool, file string, line int64, id, status string) bool {
	if ok || s.Opt.Log.KeepFailed {
		return true
	}
	s.Sum.Drop(dropFailed, file, line, id+" "+status)
	return false
}

// LineReader reads lines of any length up to maxLine, counting them.
type LineReader struct {
	r    *bufio.Reader
	Line int64 // lines read so far: the number of the last
	buf  []byte
	Err  error // what ended the reading, nil at the end of the input
}

// EachLine calls fn with every non-blank line of r and its number,
// counting the lines read in the summary; a read error ends the file
// (ReadErr).
func (s *State) EachLine(r io.Reader, file string, fn func(line []byte, ln int64) error) error {
	lr := NewLineReader(r)
	for {
		line, ok := lr.Next()
		if !ok {
			break
		}
		s.Sum.Records++
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if err := fn(line, lr.Line); err != nil {
			return err
		}
	}
	return s.ReadErr(file, lr)
}

// ReadErr turns a line reader's error into a drop (a truncated or corrupt
// stream ends the file; what was read is kept) or, in strict mode, an error.
func (s *State) ReadErr(file string, lr *LineReader) error {
	if lr.Err == nil {
		return nil
	}
	if s.Opt.Strict {
		return data.InputErrorf(file, int(min(lr.Line+1, 1<<31-1)), "", "%v", lr.Err)
	}
	s.Sum.Drop("truncated or corrupt stream (the rest of the file)", file, lr.Line+1, lr.Err.Error())
	return nil
}

// maxLine bounds one line (Spark's environment events are the longest real
// lines: hundreds of kilobytes).
const maxLine = 256 << 20

// NewLineReader returns a LineReader of r.
func NewLineReader(r io.Reader) *LineReader {
	// A reader that is buffered already (decompress's) is read as it is:
	// next joins lines longer than its buffer, and a small log then costs
	// no 1 MiB allocation.
	if b, ok := r.(*bufio.Reader); ok {
		return &LineReader{r: b}
	}
	return &LineReader{r: bufio.NewReaderSize(r, 1<<20)}
}

// Next returns the next line without its line break, valid until the next
// call; ok is false at the end or on an error (see Err).
func (l *LineReader) Next() (line []byte, ok bool) {
	l.buf = l.buf[:0]
	for {
		frag, err := l.r.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			if len(l.buf)+len(frag) > maxLine {
				l.Err = fmt.Errorf("line %d is longer than %d bytes", l.Line+1, maxLine)
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
			l.Err = err
			return nil, false
		}
		if len(frag) == 0 && err == io.EOF {
			return nil, false
		}
		l.Line++
		frag = bytes.TrimSuffix(frag, []byte{'\n'})
		frag = bytes.TrimSuffix(frag, []byte{'\r'})
		return frag, true
	}
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
	if compress.Compressed(buf) {
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

// ParseFloatBytes parses a decimal number; integers of up to 15 digits
// take a fast path.
func ParseFloatBytes(b []byte) (float64, bool) {
	if len(b) == 0 {
		return 0, false
	}
	neg := false
	d := b
	if d[0] == '-' {
		neg, d = true, d[1:]
	}
	if len(d) > 0 && len(d) <= 15 {
		var x int64
		ok := true
		for _, c := range d {
			if c < '0' || c > '9' {
				ok = false
				break
			}
			x = x*10 + int64(c-'0')
		}
		if ok {
			if neg {
				x = -x
			}
			return float64(x), true
		}
	}
	x, err := strconv.ParseFloat(UnsafeString(b), 64)
	if err != nil {
		return 0, false
	}
	return x, true
}

// UnsafeString views b as a string without copying; the string must not
// outlive b's contents (the builders copy what they keep).
func UnsafeString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// JSONErr shortens encoding/json's messages.
func JSONErr(err error) string {
	msg := err.Error()
	return strings.TrimPrefix(msg, "json: ")
}

// MsToS converts milliseconds to seconds.
func MsToS(ms int64) float64 { return float64(ms) / 1e3 }

// MinNaN returns the lesser of a and b, b when a is NaN (a null).
func MinNaN(a, b float64) float64 {
	if a != a || b < a {
		return b
	}
	return a
}

// MaxNaN returns the greater of a and b, b when a is NaN (a null).
func MaxNaN(a, b float64) float64 {
	if a != a || b > a {
		return b
	}
	return a
}
