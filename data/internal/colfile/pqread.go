package colfile

import (
	"cmp"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync/atomic"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/parquet"
	"github.com/apache/arrow/go/v17/parquet/file"

	"github.com/schedplan/schedplan/internal/par"
	"github.com/schedplan/schedplan/internal/sysmem"
)

// This file decodes Parquet files into Arrow tables on arrow-go's
// parquet/file column readers (not pqarrow, which links Arrow Flight,
// gRPC and protobuf into every binary that imports it): one column chunk
// (a field in a row group) at a time, the chunks of all fields and row
// groups decoded in parallel on GOMAXPROCS goroutines, each chunk's
// buffers handed to its Arrow array without a copy.

// ReadParquet decodes the Parquet file of size bytes that r reads into an
// arrow.Table holding the fields choose picks from the file's top-level field
// names (all when choose is nil), in file order; fields nobody wants are
// never decoded. Each row group of a field is a chunk of its column. A
// decoder panic on a corrupt file is recovered into an error. Flat
// fixed-width columns in BYTE_STREAM_SPLIT, which arrow-go v17 does not
// decode, go through DecodeFixedWidth; a column in any other encoding no
// decoder reads is a *ColumnError naming the encoding.
func ReadParquet(r parquet.ReaderAtSeeker, size int64, choose func(names []string) ([]int, error)) (tbl arrow.Table, err error) {
	return ReadParquetGroups(r, size, choose, nil)
}

// ErrSplitInGroups is ReadParquetGroups' refusal of a BYTE_STREAM_SPLIT
// column, which it decodes only whole.
var ErrSplitInGroups = errors.New("BYTE_STREAM_SPLIT column read by row groups")

// errSplitPages is readChunk's report of BYTE_STREAM_SPLIT pages in a
// column chunk whose metadata does not list the encoding.
var errSplitPages = errors.New("BYTE_STREAM_SPLIT pages")

// OpenParquet opens the Parquet file of size bytes r reads for decoding:
// its frame checked, an allocator bounded by its size (and stopped with r
// when r is a StoppableReader), column chunks read through a buffer rather
// than whole, so that a corrupt chunk length costs no allocation and every
// read reaches r. The caller closes the reader.
func OpenParquet(r parquet.ReaderAtSeeker, size int64) (*file.Reader, *BoundedAllocator, error) {
	if err := CheckParquetFrame(r, size); err != nil {
		return nil, nil, err
	}
	mem := NewBoundedAllocator(int(min(size, 1<<40)))
	if s, ok := r.(*StoppableReader); ok {
		mem.stop = &s.stop
	}
	props := parquet.NewReaderProperties(mem)
	// No chunk is longer than the file, so a small file gets a small
	// buffer: 1 MiB per column made a 2 KB file cost ~9 ms to read.
	props.BufferedStreamEnabled, props.BufferSize = true, min(max(size, 4<<10), 256<<10)
	pr, err := file.NewParquetReader(r, file.WithReadProps(props))
	if err != nil {
		return nil, nil, err
	}
	return pr, mem, nil
}

// ReadParquetGroups is ReadParquet for the given row groups only (nil: all).
func ReadParquetGroups(r parquet.ReaderAtSeeker, size int64, choose func(names []string) ([]int, error), groups []int) (tbl arrow.Table, err error) {
	defer RecoverTo(&err, "decoding Parquet")
	pr, mem, err := OpenParquet(r, size)
	if err != nil {
		return nil, err
	}
	defer pr.Close()
	_, fields, err := ChooseParquetFields(pr, choose)
	if err != nil {
		return nil, err
	}
	var leaves []int
	for _, f := range fields {
		leaves = append(leaves, f.Leaves...)
	}
	if err := sysmem.Check(ParquetMemory(pr, leaves), fmt.Sprintf("%d columns of %d rows", len(fields), pr.NumRows())); err != nil {
		return nil, err
	}
	rowGroups, nrows, err := selectRowGroups(pr, groups)
	if err != nil {
		return nil, err
	}
	split := make([]bool, len(fields))
	for i, f := range fields {
		if split[i], err = checkParquetField(pr, f); err != nil {
			return nil, &ColumnError{f.Name, err}
		}
		if split[i] && groups != nil {
			return nil, ErrSplitInGroups
		}
	}
	chunks, err := readChunks(r, pr, mem, fields, split, rowGroups)
	for tries := 0; errors.Is(err, errSplitPages) && tries < len(fields); tries++ {
		// A BYTE_STREAM_SPLIT page the chunk metadata does not list.
		if groups != nil {
			return nil, ErrSplitInGroups
		}
		var ce *ColumnError
		errors.As(err, &ce)
		for i := range fields {
			split[i] = split[i] || fields[i].Name == ce.Col
		}
		chunks, err = readChunks(r, pr, mem, fields, split, rowGroups)
	}
	if err != nil {
		return nil, err
	}
	cols := make([]arrow.Column, len(fields))
	outFields := make([]arrow.Field, len(fields))
	defer func() {
		for k := range cols {
			cols[k].Release()
		}
	}()
	for i, f := range fields {
		outFields[i] = arrow.Field{Name: f.Name, Type: f.Type, Nullable: f.Nullable}
		if split[i] {
			a, err := DecodeFixedWidth(pr, f.Leaves[0], f.Type, mem)
			if err != nil {
				return nil, &ColumnError{f.Name, err}
			}
			chunks[i] = []arrow.Array{a}
		}
		ch := arrow.NewChunked(f.Type, chunks[i])
		for _, a := range chunks[i] {
			a.Release()
		}
		cols[i] = *arrow.NewColumn(outFields[i], ch)
		ch.Release()
	}
	return array.NewTable(arrow.NewSchema(outFields, nil), cols, nrows), nil
}

// checkParquetField refuses a field no decoder here reads (naming the encoding
// of a column in one), and reports whether it needs DecodeFixedWidth.
func checkParquetField(pr *file.Reader, f ParquetField) (split bool, err error) {
	dt := f.Type
	if dt == nil {
		dt = arrow.Null
	}
	for _, leaf := range f.Leaves {
		s, err := checkEncodings(pr, leaf, dt, false)
		if err != nil {
			return false, err
		}
		split = split || s
	}
	if f.Err != nil {
		return false, f.Err
	}
	if f.Type == nil {
		return false, errors.New("a nested Parquet column (list, struct or map): schedplan reads flat columns only")
	}
	return split, nil
}

// ChooseFields returns the fields choose picks among names (nil: all), in
// order.
func ChooseFields(names []string, choose func(names []string) ([]int, error)) ([]int, error) {
	var fields []int
	if choose == nil {
		for k := range names {
			fields = append(fields, k)
		}
		return fields, nil
	}
	fields, err := choose(names)
	if err != nil {
		return nil, err
	}
	for _, k := range fields {
		if k < 0 || k >= len(names) {
			return nil, fmt.Errorf("field %d of %d", k, len(names))
		}
	}
	slices.Sort(fields)
	return fields, nil
}

// selectRowGroups returns the row groups to read (nil: all) and their rows
// (the row groups', which a corrupt footer's total may contradict).
func selectRowGroups(pr *file.Reader, groups []int) ([]int, int64, error) {
	if groups == nil {
		groups = make([]int, pr.NumRowGroups())
		for k := range groups {
			groups[k] = k
		}
	}
	var rows int64
	for _, g := range groups {
		if g < 0 || g >= pr.NumRowGroups() {
			return nil, 0, fmt.Errorf("row group %d of %d", g, pr.NumRowGroups())
		}
		n := pr.MetaData().RowGroup(g).NumRows()
		if n < 0 || rows+n < rows {
			return nil, 0, fmt.Errorf("corrupt Parquet footer: row group %d declares %d rows", g, n)
		}
		rows += n
	}
	return groups, rows, nil
}

// readChunks decodes every row group of every field not split, in
// parallel: out[i] holds field i's chunks, one per row group in order.
// The error is that of the first failing chunk in (field, row group)
// order, so that it does not depend on scheduling.
func readChunks(r parquet.ReaderAtSeeker, pr *file.Reader, mem *BoundedAllocator, fields []ParquetField, split []bool, rowGroups []int) ([][]arrow.Array, error) {
	type task struct{ field, rg int }
	var tasks []task
	for i := range fields {
		if !split[i] {
			for _, g := range rowGroups {
				tasks = append(tasks, task{i, g})
			}
		}
	}
	out := make([][]arrow.Array, len(fields))
	for i := range fields {
		if !split[i] {
			out[i] = make([]arrow.Array, 0, len(rowGroups))
		}
	}
	results := make([][]arrow.Array, len(tasks))
	errs := make([]error, len(tasks))
	var failed atomic.Bool
	parallel(len(tasks), func(t int) {
		if failed.Load() {
			return
		}
		f := fields[tasks[t].field]
		results[t], errs[t] = readChunk(r, pr, mem, f, tasks[t].rg)
		if errs[t] != nil {
			failed.Store(true)
		}
	})
	var first error
	for t, tk := range tasks {
		if errs[t] != nil && first == nil {
			first = &ColumnError{fields[tk.field].Name, fmt.Errorf("row group %d: %w", tk.rg, errs[t])}
		}
		out[tk.field] = append(out[tk.field], results[t]...)
	}
	if first != nil {
		for _, c := range out {
			for _, a := range c {
				a.Release()
			}
		}
		return nil, first
	}
	return out, nil
}

// parallel calls do(0..n-1) on up to GOMAXPROCS goroutines.
func parallel(n int, do func(i int)) { par.For(n, runtime.GOMAXPROCS(0), do) }

// readChunk decodes row group rg of the flat field f. A decoder panic is
// recovered here, on the goroutine that decodes.
func readChunk(r parquet.ReaderAtSeeker, pr *file.Reader, mem *BoundedAllocator, f ParquetField, rg int) (chunks []arrow.Array, err error) {
	defer RecoverTo(&err, "decoding")
	leaf := f.Leaves[0]
	if err := verifyPageCRCs(r, pr, leaf, []int{rg}); err != nil {
		return nil, err
	}
	rows := pr.MetaData().RowGroup(rg).NumRows()
	rr, err := newRecordReader(pr, mem, f, rg)
	if err != nil {
		return nil, err
	}
	defer rr.Release()
	read, err := readRecords(rr, rows)
	if err != nil {
		return nil, err
	}
	if read != rows {
		// The column reader drops page errors: find what failed.
		if s, err := checkEncodings(pr, leaf, f.Type, true); err != nil || s {
			return nil, cmp.Or(err, errSplitPages)
		}
		return nil, fmt.Errorf("%d values for %d rows (truncated or corrupt file)", read, rows)
	}
	return toArrow(rr, f.Type, int(rows))
}
