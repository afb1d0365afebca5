package csvscan

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// Scanner reads CSV records (RFC 4180: fields separated by commas,
// records by "\n" or "\r\n", fields optionally enclosed in double quotes
// with "" for a quote inside). Unlike encoding/csv it keeps every byte of a
// quoted field, "\r\n" included, and tells a quoted empty field ("", the
// empty string) from an empty one (a null). Blank lines are skipped; a "\r"
// just before the end of the file ends the record like "\r\n".
type Scanner struct {
	r       *bufio.Reader
	line    int    // physical lines read so far
	long    []byte // a line longer than r's buffer
	buf     []byte // field bytes of the current record
	ends    []int  // end offset in buf of each field
	quoted  []bool // whether each field was quoted
	fields  []string
	maxSize int // longest record accepted, in bytes
}

// MaxRecord is the longest CSV line and record accepted (a job is a few
// hundred bytes): a file that is not CSV, or a quote that is never closed,
// would otherwise take the rest of the file into one field.
const MaxRecord = 1 << 20

// SyntaxError is a malformed record; Line and Byte (1-based) locate it.
type SyntaxError struct {
	Line, Byte int
	Msg        string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("malformed CSV at line %d, byte %d: %s", e.Line, e.Byte, e.Msg)
}

// New returns a Scanner of r.
func New(r io.Reader) *Scanner {
	return &Scanner{r: bufio.NewReaderSize(r, 1<<16), maxSize: MaxRecord}
}

// ReadLine returns the next physical line with its "\n" (none at the end of
// the file), or nil at the end of the file. The line is valid until the next
// call.
func (s *Scanner) ReadLine() ([]byte, error) {
	line, err := s.r.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		s.long = append(s.long[:0], line...)
		for errors.Is(err, bufio.ErrBufferFull) {
			line, err = s.r.ReadSlice('\n')
			if len(s.long)+len(line) > s.maxSize {
				return nil, &SyntaxError{s.line + 1, 1, fmt.Sprintf("line longer than %d MiB (not a CSV file?)", s.maxSize>>20)}
			}
			s.long = append(s.long, line...)
		}
		line = s.long
	}
	if err != nil && err != io.EOF {
		return nil, err
	}
	if len(line) == 0 {
		return nil, nil
	}
	s.line++
	return line, nil
}

// Next reads the next record. It returns io.EOF after the last one. The
// fields are valid until the next call; quoted[k] tells whether field k was
// enclosed in quotes.
func (s *Scanner) Next() (fields []string, quoted []bool, err error) {
	var line []byte
	for { // skip blank lines
		if line, err = s.ReadLine(); err != nil {
			return nil, nil, err
		}
		if line == nil {
			return nil, nil, io.EOF
		}
		if !isBlankLine(line) {
			break
		}
	}
	s.buf, s.ends, s.quoted = s.buf[:0], s.ends[:0], s.quoted[:0]
	pos := 0
	for {
		if pos < len(line) && line[pos] == '"' { // quoted field
			openLine, openByte := s.line, pos+1
			pos++
			for {
				i := bytes.IndexByte(line[pos:], '"')
				if i < 0 { // the field goes on on the next line
					s.buf = append(s.buf, line[pos:]...)
					if len(s.buf) > s.maxSize {
						return nil, nil, &SyntaxError{openLine, openByte, fmt.Sprintf("quoted field longer than %d MiB (a quote not closed?)", s.maxSize>>20)}
					}
					if line, err = s.ReadLine(); err != nil {
						return nil, nil, err
					}
					if line == nil {
						return nil, nil, &SyntaxError{openLine, openByte, "quoted field not closed before the end of the file"}
					}
					pos = 0
					continue
				}
				s.buf = append(s.buf, line[pos:pos+i]...)
				pos += i + 1
				if pos < len(line) && line[pos] == '"' { // "" is a quote
					s.buf = append(s.buf, '"')
					pos++
					continue
				}
				break
			}
			s.endField(true)
			switch rest := line[pos:]; {
			case len(rest) > 0 && rest[0] == ',':
				pos++
				continue
			case isLineEnd(rest):
				return s.record(), s.quoted, nil
			default:
				return nil, nil, &SyntaxError{s.line, pos + 1, `extraneous or missing " in a quoted field`}
			}
		}
		// unquoted field: up to the next comma or the end of the line
		end := pos
	scan:
		for ; end < len(line); end++ {
			switch line[end] {
			case ',', '\n':
				break scan
			case '\r':
				if isLineEnd(line[end:]) {
					break scan
				}
			case '"':
				return nil, nil, &SyntaxError{s.line, end + 1, `bare " in a field that is not quoted`}
			}
		}
		s.buf = append(s.buf, line[pos:end]...)
		s.endField(false)
		if end == len(line) || line[end] != ',' {
			return s.record(), s.quoted, nil
		}
		pos = end + 1
	}
}

func (s *Scanner) endField(quoted bool) {
	s.ends = append(s.ends, len(s.buf))
	s.quoted = append(s.quoted, quoted)
}

// record returns the fields of the current record as strings sharing one
// allocation.
func (s *Scanner) record() []string {
	all := string(s.buf)
	s.fields = s.fields[:0]
	start := 0
	for _, e := range s.ends {
		s.fields = append(s.fields, all[start:e])
		start = e
	}
	return s.fields
}

// isLineEnd reports whether b is what ends a record: nothing (the end of the
// file), "\n", "\r\n", or a "\r" that is the last byte of the file.
func isLineEnd(b []byte) bool {
	switch len(b) {
	case 0:
		return true
	case 1:
		return b[0] == '\n' || b[0] == '\r'
	case 2:
		return b[0] == '\r' && b[1] == '\n'
	}
	return false
}

// isBlankLine reports whether a physical line holds no field at all.
func isBlankLine(line []byte) bool { return isLineEnd(line) }
