package data

import (
	"fmt"
	"io"

	"github.com/schedplan/schedplan/data/internal/colfile"
)

// TableFormat versions how WriteTable encodes a table, so that files
// written by an older encoding are known stale (pipeline stage keys hash
// it). 2: a NaN is written as NULL and float columns are nullable.
const TableFormat = 2

// Table is a generic columnar table for results files (per-job results,
// classes, sweeps). Cols[k] is the column named Names[k]; each column is a
// []float64, []int64, []int32, []string or []bool, and all have the same
// length. Its methods (Len, Col, Add, Clone, AppendTable, SortStableBy,
// Permute) are package colfile's, which holds its encoding.
type Table = colfile.Table

// ParquetWriter writes a results table to a Parquet file a part at a time
// (NewParquetWriter).
type ParquetWriter = colfile.ParquetWriter

// NewParquetWriter starts a Parquet file on w whose columns are those of
// schema (a Table whose columns may be empty: only their names and types
// count). Its string columns but job ids are dictionary-encoded, as
// WriteTable's.
func NewParquetWriter(w io.Writer, schema *Table) (*ParquetWriter, error) {
	return colfile.NewParquetWriter(w, schema, schema.DictColumns(ColJobID))
}

// WriteTable writes t to w as Parquet (Snappy pages), an Arrow IPC file or
// stream (FormatArrow, FormatArrowStream), CSV with a header row, or TSV with
// a header row. Floats are written to CSV/TSV by AppendFloat. A NaN in a float column means the value
// does not exist: it is written as NULL (an empty CSV/TSV field).
func WriteTable(w io.Writer, t *Table, f Format) error {
	if err := t.Check(); err != nil {
		return err
	}
	switch f {
	case FormatParquet, FormatArrow, FormatArrowStream:
		rec := t.Record()
		defer rec.Release()
		if f == FormatParquet {
			return colfile.WriteParquet(w, rec, t.DictColumns(ColJobID))
		}
		return colfile.WriteArrow(w, rec, f == FormatArrowStream)
	case FormatCSV, FormatTSV:
		return t.WriteText(w, f == FormatTSV)
	}
	return fmt.Errorf("writing a table as %q is not supported", f)
}

// ReadTable reads a table that WriteTable wrote as Parquet or Arrow IPC
// (file or stream, told apart by magic bytes). Column types map back as
// WriteTable wrote them; Arrow dictionary and large-string columns of
// strings read as []string, float32 as []float64, smaller integers as
// []int32. Nulls read as NaN in float columns and as the zero value
// elsewhere.
func ReadTable(path string, f Format) (*Table, error) {
	if f == "" {
		var err error
		if f, err = FormatOf(path); err != nil {
			return nil, err
		}
	}
	if f != FormatParquet && f != FormatArrow && f != FormatArrowStream {
		return nil, fmt.Errorf("%s: reading a table as %q is not supported (Parquet or Arrow only)", Printable(path), f)
	}
	tbl, err := readTableFile(path, f)
	if err != nil {
		return nil, err
	}
	defer tbl.Release()
	return colfile.FromArrow(tbl, Printable(path))
}

// WriteTableFile writes t to path atomically (WriteFileAtomic), in the format
// path's extension names.
func WriteTableFile(path string, force bool, t *Table) error {
	f, err := FormatOf(path)
	if err != nil {
		return err
	}
	return WriteFileAtomic(path, force, func(w io.Writer) error { return WriteTable(w, t, f) })
}
