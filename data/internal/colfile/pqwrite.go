package colfile

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"io"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/ipc"
	"github.com/apache/arrow/go/v17/parquet"
	"github.com/apache/arrow/go/v17/parquet/file"
	"github.com/apache/arrow/go/v17/parquet/metadata"
	"github.com/apache/arrow/go/v17/parquet/schema"
)

// This file writes Arrow records as Parquet on arrow-go's parquet/file
// column writers, as pqarrow's FileWriter does for the flat columns
// schedplan writes (same Parquet schema, same stored Arrow schema), without
// linking pqarrow and through it Arrow Flight, gRPC and protobuf.

// arrowParquetWriter writes records of one Arrow schema to a Parquet file.
type arrowParquetWriter struct {
	fw     *file.Writer
	schema *arrow.Schema
}

// newArrowParquetWriter starts a Parquet file on w for records of schema
// sch; the Arrow schema is stored in the file's metadata ("ARROW:schema")
// so that types such as dictionaries survive a round trip.
func newArrowParquetWriter(sch *arrow.Schema, w io.Writer, props *parquet.WriterProperties) (*arrowParquetWriter, error) {
	nodes := make(schema.FieldList, 0, sch.NumFields())
	for _, f := range sch.Fields() {
		n, err := parquetNode(f.Name, f.Type, f.Nullable)
		if err != nil {
			return nil, fmt.Errorf("column %q: %w", f.Name, err)
		}
		nodes = append(nodes, n)
	}
	root, err := schema.NewGroupNode(props.RootName(), props.RootRepetition(), nodes, -1)
	if err != nil {
		return nil, err
	}
	meta := metadata.NewKeyValueMetadata()
	md := sch.Metadata()
	for k := 0; k < md.Len(); k++ {
		if err := meta.Append(md.Keys()[k], md.Values()[k]); err != nil {
			return nil, err
		}
	}
	if err := meta.Append("ARROW:schema", base64.StdEncoding.EncodeToString(serializeSchema(sch))); err != nil {
		return nil, err
	}
	fw := file.NewParquetWriter(w, root, file.WithWriterProps(props), file.WithWriteMetadata(meta))
	return &arrowParquetWriter{fw: fw, schema: sch}, nil
}

// serializeSchema is sch as an Arrow IPC stream holding only its schema
// message, which is what readers expect in "ARROW:schema".
func serializeSchema(sch *arrow.Schema) []byte {
	var buf bytes.Buffer
	w := ipc.NewWriter(&buf, ipc.WithSchema(sch))
	w.Close()
	return buf.Bytes()
}

// parquetNode is the Parquet schema node of a flat Arrow field (pqarrow's
// fieldToNode for Parquet format 2.6).
func parquetNode(name string, dt arrow.DataType, nullable bool) (schema.Node, error) {
	rep := parquet.Repetitions.Required
	if nullable {
		rep = parquet.Repetitions.Optional
	}
	var logical schema.LogicalType = schema.NoLogicalType{}
	var typ parquet.Type
	switch dt.ID() {
	case arrow.BOOL:
		typ = parquet.Types.Boolean
	case arrow.INT8, arrow.UINT8, arrow.INT16, arrow.UINT16, arrow.INT32, arrow.UINT32:
		typ = parquet.Types.Int32
		logical = schema.NewIntLogicalType(int8(dt.(arrow.FixedWidthDataType).BitWidth()), isSigned(dt.ID()))
	case arrow.INT64, arrow.UINT64:
		typ = parquet.Types.Int64
		logical = schema.NewIntLogicalType(64, dt.ID() == arrow.INT64)
	case arrow.FLOAT32:
		typ = parquet.Types.Float
	case arrow.FLOAT64:
		typ = parquet.Types.Double
	case arrow.STRING, arrow.LARGE_STRING:
		typ, logical = parquet.Types.ByteArray, schema.StringLogicalType{}
	case arrow.BINARY, arrow.LARGE_BINARY:
		typ = parquet.Types.ByteArray
	case arrow.DATE32:
		typ, logical = parquet.Types.Int32, schema.DateLogicalType{}
	case arrow.TIMESTAMP:
		ts := dt.(*arrow.TimestampType)
		typ = parquet.Types.Int64
		unit := map[arrow.TimeUnit]schema.TimeUnitType{arrow.Second: schema.TimeUnitMillis, arrow.Millisecond: schema.TimeUnitMillis,
			arrow.Microsecond: schema.TimeUnitMicros, arrow.Nanosecond: schema.TimeUnitNanos}[ts.Unit]
		logical = schema.NewTimestampLogicalTypeForce(ts.TimeZone != "", unit)
	case arrow.DICTIONARY:
		return parquetNode(name, dt.(*arrow.DictionaryType).ValueType, nullable)
	default:
		return nil, fmt.Errorf("the Arrow type %s is not written to Parquet by schedplan", dt)
	}
	return schema.NewPrimitiveNodeLogical(name, rep, logical, typ, -1, -1)
}

func isSigned(id arrow.Type) bool {
	return id == arrow.INT8 || id == arrow.INT16 || id == arrow.INT32
}

// write appends rec's rows as row groups of at most the writer
// properties' MaxRowGroupLength rows (one empty row group for no rows).
func (p *arrowParquetWriter) write(rec arrow.Record) error {
	if !rec.Schema().Equal(p.schema) {
		return fmt.Errorf("record schema %s does not match the file's %s", rec.Schema(), p.schema)
	}
	per := p.fw.Properties().MaxRowGroupLength()
	for off := int64(0); off == 0 || off < rec.NumRows(); off += per {
		part := rec.NewSlice(off, off+min(per, rec.NumRows()-off))
		err := p.writeGroup(part)
		part.Release()
		if err != nil {
			return err
		}
	}
	return nil
}

func (p *arrowParquetWriter) writeGroup(rec arrow.Record) error {
	rgw := p.fw.AppendRowGroup()
	for k, col := range rec.Columns() {
		cw, err := rgw.NextColumn()
		if err != nil {
			return err
		}
		if err := writeColumn(cw, col); err != nil {
			return fmt.Errorf("column %q: %w", p.schema.Field(k).Name, err)
		}
	}
	return nil // closed by the next row group or the footer, as pqarrow does
}

// close writes the file's footer (and closes w if it is an io.Closer).
func (p *arrowParquetWriter) close() error { return p.fw.Close() }

// batchWriter is a typed column chunk writer of parquet/file.
type batchWriter[T any] interface {
	WriteBatch(values []T, defLevels, repLevels []int16) (int64, error)
	WriteBatchSpaced(values []T, defLevels, repLevels []int16, validBits []byte, validBitsOffset int64)
}

// writeValues writes data (one value per row of a, nulls included) with
// a's validity.
func writeValues[T any](w batchWriter[T], data []T, a arrow.Array, def []int16) error {
	if def != nil && a.NullN() > 0 {
		w.WriteBatchSpaced(data, def, nil, a.NullBitmapBytes(), int64(a.Data().Offset()))
		return nil
	}
	_, err := w.WriteBatch(data, def, nil)
	return err
}

// writeColumn writes a (a column of a row group) to cw.
func writeColumn(cw file.ColumnChunkWriter, a arrow.Array) error {
	var def []int16
	if cw.Descr().MaxDefinitionLevel() > 0 {
		def = make([]int16, a.Len())
		for i := range def {
			if a.IsValid(i) {
				def[i] = 1
			}
		}
	}
	switch w := cw.(type) {
	case *file.BooleanColumnChunkWriter:
		b := a.(*array.Boolean)
		data := make([]bool, a.Len())
		for i := range data {
			data[i] = b.Value(i)
		}
		return writeValues(w, data, a, def)
	case *file.Int32ColumnChunkWriter:
		data, err := int32Values(a)
		if err != nil {
			return err
		}
		return writeValues(w, data, a, def)
	case *file.Int64ColumnChunkWriter:
		data, err := int64Values(a)
		if err != nil {
			return err
		}
		return writeValues(w, data, a, def)
	case *file.Float32ColumnChunkWriter:
		return writeValues(w, a.(*array.Float32).Float32Values(), a, def)
	case *file.Float64ColumnChunkWriter:
		return writeValues(w, a.(*array.Float64).Float64Values(), a, def)
	case *file.ByteArrayColumnChunkWriter:
		data, err := byteArrays(a)
		if err != nil {
			return err
		}
		return writeValues(w, data, a, def)
	}
	return fmt.Errorf("no Parquet writer for %s", a.DataType())
}

func int32Values(a arrow.Array) ([]int32, error) {
	switch v := a.(type) {
	case *array.Int32:
		return v.Int32Values(), nil
	case *array.Uint32:
		return arrow.Int32Traits.CastFromBytes(arrow.Uint32Traits.CastToBytes(v.Uint32Values())), nil
	case *array.Date32:
		return arrow.Int32Traits.CastFromBytes(arrow.Date32Traits.CastToBytes(v.Date32Values())), nil
	case *array.Int8:
		return widen(v.Int8Values()), nil
	case *array.Uint8:
		return widen(v.Uint8Values()), nil
	case *array.Int16:
		return widen(v.Int16Values()), nil
	case *array.Uint16:
		return widen(v.Uint16Values()), nil
	}
	return nil, fmt.Errorf("no INT32 column for %s", a.DataType())
}

func widen[T int8 | uint8 | int16 | uint16](v []T) []int32 {
	out := make([]int32, len(v))
	for i, x := range v {
		out[i] = int32(x)
	}
	return out
}

func int64Values(a arrow.Array) ([]int64, error) {
	switch v := a.(type) {
	case *array.Int64:
		return v.Int64Values(), nil
	case *array.Uint64:
		return arrow.Int64Traits.CastFromBytes(arrow.Uint64Traits.CastToBytes(v.Uint64Values())), nil
	case *array.Timestamp:
		data := arrow.Int64Traits.CastFromBytes(arrow.TimestampTraits.CastToBytes(v.TimestampValues()))
		if v.DataType().(*arrow.TimestampType).Unit == arrow.Second { // Parquet has no seconds: milliseconds
			ms := make([]int64, len(data))
			for i, x := range data {
				ms[i] = x * 1000
			}
			data = ms
		}
		return data, nil
	}
	return nil, fmt.Errorf("no INT64 column for %s", a.DataType())
}

// byteArrays returns the values of a string, binary or dictionary-of-string
// array as Parquet byte arrays sharing a's memory ("" under nulls).
func byteArrays(a arrow.Array) ([]parquet.ByteArray, error) {
	type offsetArray interface {
		ValueOffsets() []int32
		ValueBytes() []byte
	}
	type offsetArray64 interface {
		ValueOffsets() []int64
		ValueBytes() []byte
	}
	data := make([]parquet.ByteArray, a.Len())
	switch v := a.(type) {
	case *array.Dictionary:
		vals, err := byteArrays(v.Dictionary())
		if err != nil {
			return nil, err
		}
		for i := range data {
			if v.IsValid(i) {
				data[i] = vals[v.GetValueIndex(i)]
			}
		}
	case offsetArray:
		off, b := v.ValueOffsets(), v.ValueBytes()
		base := off[0]
		for i := range data {
			data[i] = b[off[i]-base : off[i+1]-base]
		}
	case offsetArray64:
		off, b := v.ValueOffsets(), v.ValueBytes()
		base := off[0]
		for i := range data {
			data[i] = b[off[i]-base : off[i+1]-base]
		}
	default:
		return nil, fmt.Errorf("no BYTE_ARRAY column for %s", a.DataType())
	}
	return data, nil
}
