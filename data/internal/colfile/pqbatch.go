package colfile

import (
	"cmp"
	"fmt"
	"io"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/parquet"
	"github.com/apache/arrow/go/v17/parquet/file"
)

// ParquetBatches reads the chosen fields of one row group of a Parquet file
// a batch of rows at a time, for a caller that aggregates: its memory is
// one batch's, not the row group's (1 Mi rows in the files schedplan
// writes). The fields of a batch are decoded in parallel.
type ParquetBatches struct {
	src    parquet.ReaderAtSeeker
	pr     *file.Reader
	fields []ParquetField
	rrs    []file.RecordReader
	plain  []*plainStrings // a field's PLAIN strings reader, used instead of its record reader
	group  int
	rows   int64 // in the row group
	read   int64 // rows returned so far
	batch  int64
}

// NewParquetBatches opens row group group of the Parquet file of size bytes
// that r reads, for batches of up to batch rows of the fields choose picks
// (all when nil). A field in BYTE_STREAM_SPLIT, which only
// DecodeFixedWidth reads (whole), is ErrSplitInGroups. Close releases it.
func NewParquetBatches(r parquet.ReaderAtSeeker, size int64, choose func(names []string) ([]int, error), group int, batch int64) (b *ParquetBatches, err error) {
	defer RecoverTo(&err, "decoding Parquet")
	pr, mem, err := OpenParquet(r, size)
	if err != nil {
		return nil, err
	}
	b = &ParquetBatches{src: r, pr: pr, group: group, batch: max(batch, 1)}
	defer func() {
		if err != nil {
			b.Close()
			b = nil
		}
	}()
	if group < 0 || group >= pr.NumRowGroups() {
		return nil, fmt.Errorf("row group %d of %d", group, pr.NumRowGroups())
	}
	b.rows = pr.MetaData().RowGroup(group).NumRows()
	_, chosen, err := ChooseParquetFields(pr, choose)
	if err != nil {
		return nil, err
	}
	for _, f := range chosen {
		split, err := checkParquetField(pr, f)
		if err != nil {
			return nil, &ColumnError{f.Name, err}
		}
		if split {
			return nil, ErrSplitInGroups
		}
		if err := verifyPageCRCs(r, pr, f.Leaves[0], []int{group}); err != nil {
			return nil, &ColumnError{f.Name, err}
		}
		ps, err := newPlainStrings(pr, f, group)
		var rr file.RecordReader
		if err == nil && ps == nil {
			rr, err = newRecordReader(pr, mem, f, group)
		}
		if err != nil {
			return nil, &ColumnError{f.Name, fmt.Errorf("row group %d: %w", group, err)}
		}
		b.fields = append(b.fields, f)
		b.rrs = append(b.rrs, rr)
		b.plain = append(b.plain, ps)
	}
	return b, nil
}

// newRecordReader returns a record reader of the flat field f's column
// chunk in row group rg.
func newRecordReader(pr *file.Reader, mem *BoundedAllocator, f ParquetField, rg int) (file.RecordReader, error) {
	leaf := f.Leaves[0]
	descr := pr.MetaData().Schema.Column(leaf)
	pgr, err := pr.RowGroup(rg).GetColumnPageReader(leaf)
	if err != nil {
		return nil, err
	}
	info := file.LevelInfo{NullSlotUsage: 1}
	info.Increment(descr.SchemaNode())
	readAs := f.Type
	if readAs.ID() != arrow.DICTIONARY && readAs.ID() != arrow.STRING {
		readAs = arrow.BinaryTypes.Binary // byte arrays of any other type: binary first
	}
	rr := file.NewRecordReader(descr, info, readAs, mem, pr.BufferPool())
	rr.SetPageReader(pgr)
	return rr, nil
}

// maxReserve is the most rows readRecords reserves room for, and asks the
// record reader for, at a time (which reserves room for as many): the row
// count comes from the file's metadata, which a corrupt file may inflate;
// past it the decoder grows its buffers as values come.
const maxReserve = 1 << 20

// readRecords decodes the next n rows of rr's column chunk (after any it
// decoded before and has not been Reset of), returning how many it found.
func readRecords(rr file.RecordReader, n int64) (int64, error) {
	if err := rr.Reserve(min(n, maxReserve)); err != nil {
		return 0, err
	}
	var read int64
	for read < n {
		k, err := rr.ReadRecords(min(n-read, maxReserve))
		if err != nil {
			return read, err
		}
		if k == 0 {
			break
		}
		read += k
	}
	return read, nil
}

// Names returns the names of the fields read, in file order.
func (b *ParquetBatches) Names() []string { return FieldNames(b.fields) }

// Next returns the next batch of rows as a table (which the caller must
// Release), or io.EOF after the row group's last row.
func (b *ParquetBatches) Next() (tbl arrow.Table, err error) {
	defer RecoverTo(&err, "decoding Parquet")
	n := min(b.batch, b.rows-b.read)
	if n <= 0 {
		return nil, io.EOF
	}
	chunks := make([][]arrow.Array, len(b.fields))
	errs := make([]error, len(b.fields))
	parallel(len(b.fields), func(i int) {
		chunks[i], errs[i] = b.readField(i, n)
	})
	defer func() {
		for _, c := range chunks {
			for _, a := range c {
				a.Release()
			}
		}
	}()
	for i, e := range errs {
		if e != nil {
			return nil, &ColumnError{b.fields[i].Name, fmt.Errorf("row group %d, rows %d to %d: %w", b.group, b.read+1, b.read+n, e)}
		}
	}
	cols := make([]arrow.Column, len(b.fields))
	fields := make([]arrow.Field, len(b.fields))
	for i, f := range b.fields {
		fields[i] = arrow.Field{Name: f.Name, Type: f.Type, Nullable: f.Nullable}
		ch := arrow.NewChunked(f.Type, chunks[i])
		cols[i] = *arrow.NewColumn(fields[i], ch)
		ch.Release()
	}
	defer func() {
		for k := range cols {
			cols[k].Release()
		}
	}()
	b.read += n
	return array.NewTable(arrow.NewSchema(fields, nil), cols, n), nil
}

// readField decodes the next n rows of field i.
func (b *ParquetBatches) readField(i int, n int64) (chunks []arrow.Array, err error) {
	defer RecoverTo(&err, "decoding")
	if p := b.plain[i]; p != nil {
		a, err := p.read(int(n))
		if err != nil {
			return nil, err
		}
		return []arrow.Array{a}, nil
	}
	rr := b.rrs[i]
	rr.Reset()
	read, err := readRecords(rr, n)
	if err != nil {
		return nil, err
	}
	if read != n {
		if s, err := checkEncodings(b.pr, b.fields[i].Leaves[0], b.fields[i].Type, true); err != nil || s {
			return nil, cmp.Or(err, ErrSplitInGroups)
		}
		return nil, fmt.Errorf("%d values for %d rows (truncated or corrupt file)", read, n)
	}
	return toArrow(rr, b.fields[i].Type, int(n))
}

// Close releases the decoders and the file reader (not the source).
func (b *ParquetBatches) Close() {
	for _, rr := range b.rrs {
		if rr != nil {
			rr.Release()
		}
	}
	b.rrs = nil
	if b.pr != nil {
		b.pr.Close()
		b.pr = nil
	}
}
