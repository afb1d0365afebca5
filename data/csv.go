package data

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/schedplan/schedplan/data/internal/colfile"
	"github.com/schedplan/schedplan/data/internal/csvscan"
)

// CSV job logs have a header row naming the columns (canonical names, or
// others mapped with a Mapping), then one row per job. An empty field is a
// null; a quoted empty field ("") is the empty string in string columns and
// a null in numeric ones. Quoted fields keep every byte, line breaks
// included. Time columns hold numbers in the mapping's unit (seconds by default)
// or RFC 3339 times; integer columns accept whole numbers written as floats.

func readCSV(r io.Reader, name string, opt *ReadOptions) (*Jobs, error) {
	sc := csvscan.New(r)
	header, _, err := sc.Next()
	if err == io.EOF {
		return nil, inputErrorf(name, 0, "", "empty file: no header row")
	}
	if err != nil {
		return nil, CSVError(name, 0, err)
	}
	header = cleanHeader(header)
	cols, err := resolveColumns(name, header, opt.Map)
	if err != nil {
		return nil, err
	}
	p := &csvParser{file: name, header: header, m: opt.Map}
	state := stateColumn(header, opt.Map) // kept for applyColumns
	j := &Jobs{}
	var b csvBuilders
	b.init(cols)
	row := 0
	for {
		rec, quoted, err := sc.Next()
		if err == io.EOF {
			break
		}
		row++
		if err != nil {
			return nil, CSVError(name, row, err)
		}
		if len(rec) < len(header) {
			return nil, inputErrorf(name, row, header[len(rec)], "missing: the row has %d fields, the header %d (truncated file?)", len(rec), len(header))
		}
		if len(rec) > len(header) {
			return nil, inputErrorf(name, row, "", "the row has %d fields, the header only %d", len(rec), len(header))
		}
		if err := p.row(j, &b, rec, quoted, row); err != nil {
			return nil, err
		}
		if state >= 0 {
			j.states = append(j.states, strings.Clone(rec[state]))
		}
	}
	b.finish(j)
	j.Source = name
	return j, nil
}

// readCSVHeader reads a CSV header row with encoding/csv (the tasks table
// and other systems' CSV logs): names cleaned as cleanHeader does; an empty
// file is an error.
func readCSVHeader(cr *csv.Reader, name string) ([]string, error) {
	header, err := cr.Read()
	if err == io.EOF {
		return nil, inputErrorf(name, 0, "", "empty file: no header row")
	}
	if err != nil {
		return nil, CSVError(name, 0, err)
	}
	return cleanHeader(header), nil
}

// cleanHeader returns a copy of a header row with names trimmed and a
// byte-order mark dropped.
func cleanHeader(header []string) []string {
	header = append([]string(nil), header...)
	if len(header) > 0 {
		header[0] = strings.TrimPrefix(header[0], "\ufeff") // byte-order mark
	}
	for k := range header {
		header[k] = strings.TrimSpace(header[k])
	}
	return header
}

// CSVError turns a CSV reading error (the scanner's or encoding/csv's) into
// an InputError.
func CSVError(name string, row int, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return inputErrorf(name, row, "", "malformed CSV at line %d, byte %d: %v", pe.Line, pe.Column, pe.Err)
	}
	return inputErrorf(name, row, "", "%v", err)
}

// csvBuilders accumulates the columns being read, with null rows listed.
type csvBuilders struct {
	idx      [15]int // source field index of each canonical column (in Columns order), -1 absent
	userSeen map[string]int32
	qSeen    map[string]int32
	nulls    [15][]int
	f64      [15][]float64
	i64      [15][]int64
	i32      [15][]int32
}

func (b *csvBuilders) init(cols map[string]int) {
	for k, c := range Columns {
		b.idx[k] = -1
		if i, ok := cols[c]; ok {
			b.idx[k] = i
		}
	}
	b.userSeen = map[string]int32{}
	b.qSeen = map[string]int32{}
}

type csvParser struct {
	file   string
	header []string
	m      Mapping
}

func (p *csvParser) label(canon string, field int) string {
	if p.header[field] == canon {
		return canon
	}
	return p.header[field] + " (" + canon + ")"
}

func (p *csvParser) row(j *Jobs, b *csvBuilders, rec []string, quoted []bool, row int) error {
	for k, canon := range Columns {
		fi := b.idx[k]
		if fi < 0 {
			continue
		}
		s := rec[fi]
		switch canon {
		case ColJobID:
			if s == "" {
				return inputErrorf(p.file, row, p.label(canon, fi), "empty job id")
			}
			j.ID.Append(s)
			continue
		case ColUser, ColQueue:
			d, seen := &j.User, b.userSeen
			if canon == ColQueue {
				d, seen = &j.Queue, b.qSeen
			}
			if s == "" && !quoted[fi] { // "" is the empty string
				d.Codes = append(d.Codes, -1)
				continue
			}
			c, ok := seen[s]
			if !ok {
				c = int32(len(d.Values))
				seen[s] = c
				d.Values = append(d.Values, s)
			}
			d.Codes = append(d.Codes, c)
			continue
		}
		s = strings.TrimSpace(s)
		null := s == ""
		if null && canon == ColSubmit {
			return inputErrorf(p.file, row, p.label(canon, fi), "empty submit time")
		}
		if null {
			b.nulls[k] = append(b.nulls[k], row-1)
		}
		switch canon {
		case ColSubmit, ColStart, ColFinish:
			v := 0.0
			if !null {
				var err error
				if v, err = parseTime(s, p.m.Source(canon).Unit); err != nil {
					return inputErrorf(p.file, row, p.label(canon, fi), "%v", err)
				}
			}
			b.f64[k] = append(b.f64[k], v)
		case ColMapTaskSeconds, ColReduceTaskSeconds, ColSize:
			v := 0.0
			if !null {
				var err error
				if v, err = parseDecimal(s); err != nil {
					return inputErrorf(p.file, row, p.label(canon, fi), "%q is not a number", s)
				}
			}
			b.f64[k] = append(b.f64[k], v)
		case ColInputBytes, ColShuffleBytes, ColOutputBytes:
			var v int64
			if !null {
				var err error
				if v, err = parseInt(s, 64); err != nil {
					return inputErrorf(p.file, row, p.label(canon, fi), "%v", err)
				}
			}
			b.i64[k] = append(b.i64[k], v)
		case ColPriority, ColMapTasks, ColReduceTasks:
			var v int64
			if !null {
				var err error
				if v, err = parseInt(s, 32); err != nil {
					return inputErrorf(p.file, row, p.label(canon, fi), "%v", err)
				}
			}
			b.i32[k] = append(b.i32[k], int32(v))
		}
	}
	return nil
}

func (b *csvBuilders) finish(j *Jobs) {
	for k, canon := range Columns {
		if b.idx[k] < 0 {
			continue
		}
		var valid Bitmap
		n := len(j.ID.Offsets) - 1
		if len(b.nulls[k]) > 0 {
			valid = NewBitmap(n)
			for _, i := range b.nulls[k] {
				valid.SetNull(i)
			}
		}
		f64 := func(c *Column[float64]) { c.Values, c.Valid = orEmpty(b.f64[k]), valid }
		i64 := func(c *Column[int64]) { c.Values, c.Valid = orEmpty(b.i64[k]), valid }
		i32 := func(c *Column[int32]) { c.Values, c.Valid = orEmpty(b.i32[k]), valid }
		switch canon {
		case ColSubmit:
			j.Submit = b.f64[k]
		case ColUser:
			j.User.Codes = orEmpty(j.User.Codes)
		case ColQueue:
			j.Queue.Codes = orEmpty(j.Queue.Codes)
		case ColPriority:
			i32(&j.Priority)
		case ColStart:
			f64(&j.Start)
		case ColFinish:
			f64(&j.Finish)
		case ColMapTasks:
			i32(&j.MapTasks)
		case ColReduceTasks:
			i32(&j.ReduceTasks)
		case ColMapTaskSeconds:
			f64(&j.MapTaskSeconds)
		case ColReduceTaskSeconds:
			f64(&j.ReduceTaskSeconds)
		case ColInputBytes:
			i64(&j.InputBytes)
		case ColShuffleBytes:
			i64(&j.ShuffleBytes)
		case ColOutputBytes:
			i64(&j.OutputBytes)
		case ColSize:
			f64(&j.Size)
		}
	}
}

// orEmpty returns v, or an empty non-nil slice (a present column of a
// table without rows).
func orEmpty[T any](v []T) []T {
	if v == nil {
		return []T{}
	}
	return v
}

// parseTime parses a time: a number in unit u (integers exactly, so large
// epoch values in ns keep their precision up to float64's), or an RFC 3339
// time, as seconds since the Unix epoch. NaN and ±Inf are errors (an
// empty field, not NaN, is a null time).
func parseTime(s string, u TimeUnit) (float64, error) {
	if u != "" && u != Seconds {
		if v, err := strconv.ParseInt(s, 10, 64); err == nil {
			return float64(v) / u.PerSecond(), nil
		}
	}
	if v, err := parseDecimal(s); err == nil {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			// Not a null: a null time is an empty field.
			return 0, fmt.Errorf("%s is not a finite number", s)
		}
		return v / u.PerSecond(), nil
	}
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return 0, fmt.Errorf("%q is neither a number nor an RFC 3339 time", s)
	}
	return float64(t.Unix()) + float64(t.Nanosecond())/1e9, nil
}

// parseDecimal is strconv.ParseFloat without the Go literal forms a CSV
// number does not take: digits separated by underscores (1_000, which
// ParseFloat reads as 1000) and hexadecimal floats (0x1p4).
func parseDecimal(s string) (float64, error) {
	if strings.ContainsAny(s, "_xX") {
		return 0, fmt.Errorf("%q is not a decimal number", s)
	}
	return strconv.ParseFloat(s, 64)
}

// parseInt parses an integer of the given bit size, accepting whole numbers
// written as floats ("3.0", "1e6").
func parseInt(s string, bitSize int) (int64, error) {
	v, err := strconv.ParseInt(s, 10, bitSize)
	if err == nil {
		return v, nil
	}
	if errors.Is(err, strconv.ErrRange) {
		return 0, fmt.Errorf("%s does not fit in int%d", s, bitSize)
	}
	f, ferr := parseDecimal(s)
	if ferr != nil {
		return 0, fmt.Errorf("%q is not an integer", s)
	}
	lim := math.Ldexp(1, bitSize-1)
	if f != math.Trunc(f) || f < -lim || f >= lim {
		return 0, fmt.Errorf("%q is not an integer that fits in int%d", s, bitSize)
	}
	return int64(f), nil
}

// writeCSV writes the canonical columns present in j as CSV with a header
// row. Nulls are empty fields; floats are written by AppendFloat.
func writeCSV(w io.Writer, j *Jobs) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	var present []string
	for _, c := range Columns {
		if j.Present(c) {
			present = append(present, c)
		}
	}
	var line []byte
	for k, c := range present {
		if k > 0 {
			line = append(line, ',')
		}
		line = append(line, c...)
	}
	line = append(line, '\n')
	if _, err := bw.Write(line); err != nil {
		return err
	}
	for i := 0; i < j.Len(); i++ {
		line = line[:0]
		for k, c := range present {
			if k > 0 {
				line = append(line, ',')
			}
			line = appendCSVField(line, j, c, i)
		}
		line = append(line, '\n')
		if _, err := bw.Write(line); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// AppendFloat appends v as text: the shortest decimal that parses back to
// v, or for a v that is exactly a float32 the shortest that parses back to
// that float32 when it is shorter (colfile.AppendFloat).
func AppendFloat(b []byte, v float64) []byte { return colfile.AppendFloat(b, v) }

func appendCSVField(b []byte, j *Jobs, col string, i int) []byte {
	f64 := func(c *Column[float64]) []byte {
		if v, ok := c.At(i); ok {
			return AppendFloat(b, v)
		}
		return b
	}
	i64 := func(c *Column[int64]) []byte {
		if v, ok := c.At(i); ok {
			return strconv.AppendInt(b, v, 10)
		}
		return b
	}
	i32 := func(c *Column[int32]) []byte {
		if v, ok := c.At(i); ok {
			return strconv.AppendInt(b, int64(v), 10)
		}
		return b
	}
	switch col {
	case ColJobID:
		return appendCSVString(b, j.ID.Bytes(i))
	case ColSubmit:
		return AppendFloat(b, j.Submit[i])
	case ColUser:
		if v, ok := j.User.At(i); ok {
			return appendCSVString(b, []byte(v))
		}
		return b
	case ColQueue:
		if v, ok := j.Queue.At(i); ok {
			return appendCSVString(b, []byte(v))
		}
		return b
	case ColPriority:
		return i32(&j.Priority)
	case ColStart:
		return f64(&j.Start)
	case ColFinish:
		return f64(&j.Finish)
	case ColMapTasks:
		return i32(&j.MapTasks)
	case ColReduceTasks:
		return i32(&j.ReduceTasks)
	case ColMapTaskSeconds:
		return f64(&j.MapTaskSeconds)
	case ColReduceTaskSeconds:
		return f64(&j.ReduceTaskSeconds)
	case ColInputBytes:
		return i64(&j.InputBytes)
	case ColShuffleBytes:
		return i64(&j.ShuffleBytes)
	case ColOutputBytes:
		return i64(&j.OutputBytes)
	case ColSize:
		return f64(&j.Size)
	}
	return b
}

// appendCSVString appends s, quoted when it is empty or holds a comma,
// quote or line break, so that readCSV reads back exactly s.
func appendCSVString(b []byte, s []byte) []byte {
	if len(s) > 0 && !bytes.ContainsAny(s, ",\"\r\n") {
		return append(b, s...)
	}
	if len(s) == 0 {
		return append(b, `""`...)
	}
	b = append(b, '"')
	for _, c := range s {
		if c == '"' {
			b = append(b, '"')
		}
		b = append(b, c)
	}
	return append(b, '"')
}
