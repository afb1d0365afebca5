package data

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"

	"github.com/schedplan/schedplan/data/internal/colfile"
)

// This file reads and writes the tasks table: Parquet and Arrow IPC (the
// same codecs as the jobs table), and CSV with a header row. Columns are
// found by name through a Mapping (ParseTaskMapping), as for jobs.

// WriteTasks writes t to w as Parquet, an Arrow IPC file or stream, or CSV
// with a header row (nulls are empty fields).
func WriteTasks(w io.Writer, t *Tasks, f Format) error {
	switch f {
	case FormatCSV:
		return writeTasksCSV(w, t)
	case FormatParquet, FormatArrow, FormatArrowStream:
		rec := t.record()
		defer rec.Release()
		if f == FormatParquet {
			return colfile.WriteParquet(w, rec, []string{ColStage, ColStatus, ColNode, ColNodeType})
		}
		return colfile.WriteArrow(w, rec, f == FormatArrowStream)
	}
	return fmt.Errorf("writing a tasks table as %q is not supported (parquet, arrow, arrow-stream, csv)", f)
}

// WriteTasksFile writes t to path atomically, in the format of path's
// extension.
func WriteTasksFile(path string, force bool, t *Tasks) error {
	f, err := FormatOf(path)
	if err != nil {
		return err
	}
	return WriteFileAtomic(path, force, func(w io.Writer) error { return WriteTasks(w, t, f) })
}

// record returns t as an arrow.Record of its present columns; numeric
// columns share memory with t.
func (t *Tasks) record() arrow.Record {
	n := t.Len()
	var fields []arrow.Field
	var arrs []arrow.Array
	for _, c := range t.cols() {
		if !c.present() {
			continue
		}
		var a arrow.Array
		switch p := c.ptr.(type) {
		case *Strings:
			a = stringsArray(p, n)
		case *Dict:
			a = dictArray(p)
		case *Column[float64]:
			a = colfile.PrimitiveArray(arrow.PrimitiveTypes.Float64, n, arrow.Float64Traits.CastToBytes(p.Values), bitmapBytes(p.Valid, n))
		case *Column[int64]:
			a = colfile.PrimitiveArray(arrow.PrimitiveTypes.Int64, n, arrow.Int64Traits.CastToBytes(p.Values), bitmapBytes(p.Valid, n))
		case *Column[int32]:
			a = colfile.PrimitiveArray(arrow.PrimitiveTypes.Int32, n, arrow.Int32Traits.CastToBytes(p.Values), bitmapBytes(p.Valid, n))
		}
		_, required := c.ptr.(*Strings)
		fields = append(fields, arrow.Field{Name: c.name, Type: a.DataType(), Nullable: !required})
		arrs = append(arrs, a)
	}
	rec := array.NewRecord(arrow.NewSchema(fields, nil), arrs, int64(n))
	for _, a := range arrs {
		a.Release()
	}
	return rec
}

// ReadTasksFile reads a tasks table (Parquet, Arrow IPC or CSV; the format
// from opt.Format or the file name) and validates it. opt.Map maps task
// columns (ParseTaskMapping).
func ReadTasksFile(path string, opt ReadOptions) (*Tasks, error) {
	f := opt.Format
	if f == "" {
		var err error
		if f, err = FormatOf(path); err != nil {
			return nil, err
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	opt.Format = f
	return ReadTasksBytes(b, path, opt)
}

// ReadTasksBytes reads a tasks table held in memory; name is used in
// messages and opt.Format must be set.
func ReadTasksBytes(b []byte, name string, opt ReadOptions) (t *Tasks, err error) {
	defer func() {
		if r := recover(); r != nil {
			t, err = nil, inputErrorf(name, 0, "", "cannot decode (corrupt or truncated file?): %v", r)
		}
	}()
	switch opt.Format {
	case FormatCSV:
		t, err = readTasksCSV(bytes.NewReader(b), name, opt.Map)
	case FormatParquet, FormatArrow, FormatArrowStream:
		if len(b) == 0 {
			return nil, inputErrorf(name, 0, "", "empty file")
		}
		var choose chooser
		if opt.Format == FormatParquet {
			choose = parquetColumnsOf(name, opt.Map, TaskColumns, ColJobID, ColTaskID)
		}
		tbl, derr := decodeColumnar(name, opt.Format, int64(len(b)), colfile.NewStoppable(bytes.NewReader(b)), b, choose)
		if derr != nil {
			return nil, derr
		}
		t, err = tasksFromArrow(tbl, name, opt.Map)
		tbl.Release()
	default:
		return nil, fmt.Errorf("%s: reading a tasks table as %q is not supported (parquet, arrow, csv)", name, opt.Format)
	}
	if err != nil {
		return nil, err
	}
	t.Source = name
	if t.Len() == 0 {
		return nil, inputErrorf(name, 0, "", "no tasks: the file has no data rows")
	}
	if err := ValidateTasks(t); err != nil {
		return nil, err
	}
	return t, nil
}

func tasksFromArrow(tbl arrow.Table, name string, m Mapping) (*Tasks, error) {
	sch := tbl.Schema()
	n := int(tbl.NumRows())
	cols, err := resolveColumnsOf(name, fieldNames(sch), m, TaskColumns, ColJobID, ColTaskID)
	if err != nil {
		return nil, err
	}
	t := &Tasks{Source: name}
	for _, tc := range t.cols() {
		k, ok := cols[tc.name]
		if !ok {
			continue
		}
		c := &arrowCol{file: name, canon: tc.name, src: sch.Field(k).Name, chunks: tbl.Column(k).Data().Chunks(), n: n,
			unit: m.Source(tc.name).Unit}
		var err error
		switch p := tc.ptr.(type) {
		case *Strings:
			err = c.strings(p)
		case *Dict:
			err = c.dict(p)
		case *Column[float64]:
			if tc.time {
				err = c.times(p)
			} else {
				err = c.float64s(p)
			}
		case *Column[int64]:
			err = c.int64s(p)
		case *Column[int32]:
			err = c.int32s(p)
		}
		if err != nil {
			return nil, err
		}
	}
	return t, nil
}

// readTasksCSV reads a tasks table from CSV with a header row; an empty
// field (or NaN in a seconds column) is a null; a NaN or infinite time
// is an error naming the row and column.
func readTasksCSV(r io.Reader, name string, m Mapping) (*Tasks, error) {
	cr := csv.NewReader(bufio.NewReaderSize(r, 1<<16))
	cr.ReuseRecord = true
	cr.FieldsPerRecord = -1
	header, err := readCSVHeader(cr, name)
	if err != nil {
		return nil, err
	}
	cols, err := resolveColumnsOf(name, header, m, TaskColumns, ColJobID, ColTaskID)
	if err != nil {
		return nil, err
	}
	var b TaskBuilder
	b.force = map[string]bool{}
	for c := range cols {
		b.force[c] = true
	}
	label := func(canon string) string {
		src := header[cols[canon]]
		if src == canon {
			return canon
		}
		return src + " (" + canon + ")"
	}
	row := 0
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		row++
		if err != nil {
			return nil, CSVError(name, row, err)
		}
		if len(rec) != len(header) {
			return nil, inputErrorf(name, row, "", "the row has %d fields, the header %d", len(rec), len(header))
		}
		r := NewTaskRow()
		field := func(canon string) (string, bool) {
			k, ok := cols[canon]
			if !ok {
				return "", false
			}
			s := strings.TrimSpace(rec[k])
			return s, s != ""
		}
		str := func(canon string, dst *string) {
			if k, ok := cols[canon]; ok {
				*dst = rec[k]
			}
		}
		var perr error
		flt := func(canon string, dst *float64, isTime bool) {
			s, ok := field(canon)
			if !ok || perr != nil {
				return
			}
			var v float64
			var err error
			if isTime {
				v, err = parseTime(s, m.Source(canon).Unit)
			} else if v, err = parseDecimal(s); err != nil {
				err = fmt.Errorf("%q is not a number", s)
			}
			if err != nil {
				perr = inputErrorf(name, row, label(canon), "%v", err)
			}
			*dst = v
		}
		i64 := func(canon string, dst *int64) {
			s, ok := field(canon)
			if !ok || perr != nil {
				return
			}
			v, err := parseInt(s, 64)
			if err != nil {
				perr = inputErrorf(name, row, label(canon), "%v", err)
			}
			*dst = v
		}
		i32 := func(canon string, dst *int32) {
			s, ok := field(canon)
			if !ok || perr != nil {
				return
			}
			v, err := parseInt(s, 32)
			if err != nil {
				perr = inputErrorf(name, row, label(canon), "%v", err)
			}
			*dst = int32(v)
		}
		str(ColJobID, &r.JobID)
		str(ColTaskID, &r.TaskID)
		if r.JobID == "" {
			return nil, inputErrorf(name, row, label(ColJobID), "empty job id")
		}
		if r.TaskID == "" {
			return nil, inputErrorf(name, row, label(ColTaskID), "empty task id")
		}
		str(ColStage, &r.Stage)
		str(ColStatus, &r.Status)
		str(ColNode, &r.Node)
		str(ColNodeType, &r.NodeType)
		flt(ColStart, &r.Start, true)
		flt(ColFinish, &r.Finish, true)
		i32(ColContainers, &r.Containers)
		i64(ColMemoryMB, &r.MemoryMB)
		i32(ColVcores, &r.Vcores)
		flt(ColMapSeconds, &r.Map, false)
		flt(ColShuffleSeconds, &r.Shuffle, false)
		flt(ColMergeSeconds, &r.Merge, false)
		flt(ColSortSeconds, &r.Sort, false)
		flt(ColReduceSeconds, &r.Reduce, false)
		flt(ColCPUSeconds, &r.CPUSeconds, false)
		i64(ColMemBytes, &r.MemBytes)
		i64(ColDiskBytes, &r.DiskBytes)
		i64(ColNetBytes, &r.NetBytes)
		if perr != nil {
			return nil, perr
		}
		b.Add(&r)
	}
	t := b.Tasks(name)
	if t == nil {
		t = &Tasks{}
	}
	return t, nil
}

// writeTasksCSV writes the present columns of t as CSV with a header row.
func writeTasksCSV(w io.Writer, t *Tasks) error {
	bw := bufio.NewWriterSize(w, 1<<16)
	var cols []taskCol
	for _, c := range t.cols() {
		if c.present() {
			cols = append(cols, c)
		}
	}
	var line []byte
	for k, c := range cols {
		if k > 0 {
			line = append(line, ',')
		}
		line = append(line, c.name...)
	}
	line = append(line, '\n')
	if _, err := bw.Write(line); err != nil {
		return err
	}
	for i := 0; i < t.Len(); i++ {
		line = line[:0]
		for k, c := range cols {
			if k > 0 {
				line = append(line, ',')
			}
			switch p := c.ptr.(type) {
			case *Strings:
				line = appendCSVString(line, p.Bytes(i))
			case *Dict:
				if v, ok := p.At(i); ok {
					line = appendCSVString(line, []byte(v))
				}
			case *Column[float64]:
				if v, ok := p.At(i); ok {
					line = AppendFloat(line, v)
				}
			case *Column[int64]:
				if v, ok := p.At(i); ok {
					line = strconv.AppendInt(line, v, 10)
				}
			case *Column[int32]:
				if v, ok := p.At(i); ok {
					line = strconv.AppendInt(line, int64(v), 10)
				}
			}
		}
		line = append(line, '\n')
		if _, err := bw.Write(line); err != nil {
			return err
		}
	}
	return bw.Flush()
}
