package colfile

import (
	"fmt"
	"io"

	"github.com/apache/arrow/go/v17/arrow"
)

// ParquetWriter writes a results table to a Parquet file a part at a time,
// each part (a Table with the same columns) as its own row groups, so that a
// table larger than memory can be written: only the part being written is
// held. The file is what WriteTable writes for the parts concatenated, up to
// how the rows are cut into row groups, and ReadTable reads it back whole.
type ParquetWriter struct {
	fw     *arrowParquetWriter
	schema *arrow.Schema
	rows   int64
}

// NewParquetWriter starts a Parquet file on w whose columns are those of
// schema (a Table whose columns may be empty: only their names and types
// count); dictCols are dictionary-encoded (Table.DictColumns).
func NewParquetWriter(w io.Writer, schema *Table, dictCols []string) (pw *ParquetWriter, err error) {
	defer RecoverTo(&err, "writing Parquet")
	if err := schema.Check(); err != nil {
		return nil, err
	}
	rec := schema.Record()
	defer rec.Release()
	fw, err := newArrowParquetWriter(rec.Schema(), NoCloser{W: w}, ParquetProps(dictCols))
	if err != nil {
		return nil, err
	}
	return &ParquetWriter{fw: fw, schema: rec.Schema()}, nil
}

// Write appends t's rows as one or more row groups (up to 1 Mi rows each).
// t must have the writer's columns, in order and of the same types; a table
// without rows writes nothing.
func (p *ParquetWriter) Write(t *Table) (err error) {
	defer RecoverTo(&err, "writing Parquet")
	if err := t.Check(); err != nil {
		return err
	}
	if t.Len() == 0 {
		return nil
	}
	rec := t.Record()
	defer rec.Release()
	if !rec.Schema().Equal(p.schema) {
		return fmt.Errorf("writing Parquet: part's columns %v differ from the file's %v", rec.Schema(), p.schema)
	}
	p.rows += rec.NumRows()
	return p.fw.write(rec)
}

// Rows returns the number of rows written so far.
func (p *ParquetWriter) Rows() int64 { return p.rows }

// Close writes the file's footer. The underlying writer is not closed.
func (p *ParquetWriter) Close() (err error) {
	defer RecoverTo(&err, "writing Parquet")
	return p.fw.close()
}
