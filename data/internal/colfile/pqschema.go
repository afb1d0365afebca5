package colfile

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/decimal128"
	"github.com/apache/arrow/go/v17/arrow/ipc"
	"github.com/apache/arrow/go/v17/parquet"
	"github.com/apache/arrow/go/v17/parquet/file"
	"github.com/apache/arrow/go/v17/parquet/schema"
)

// This file says what Arrow type each top-level field of a Parquet file
// reads as: the type its Parquet logical type gives (as arrow-go's pqarrow
// maps them), refined by the Arrow schema a writer may have stored in the
// file ("ARROW:schema": dictionary strings, time zones).

// ParquetField is a top-level field of a Parquet file.
type ParquetField struct {
	Name string
	// Leaves are the Parquet leaf columns under the field (one for a flat
	// field).
	Leaves []int
	// Type is the Arrow type the field reads as; nil for a nested field
	// (a list, struct or map), which schedplan does not read.
	Type     arrow.DataType
	Nullable bool
	// Err says why a flat field has no Type (a logical type that does not
	// annotate its physical type).
	Err error
}

// ParquetFields returns the top-level fields of pr's schema in file order.
func ParquetFields(pr *file.Reader) ([]ParquetField, error) {
	sc := pr.MetaData().Schema
	stored, err := storedArrowSchema(pr)
	if err != nil {
		return nil, err
	}
	root := sc.Root()
	fields := make([]ParquetField, root.NumFields())
	byNode := make(map[schema.Node]int, len(fields))
	for k := range fields {
		n := root.Field(k)
		fields[k].Name = n.Name()
		fields[k].Nullable = n.RepetitionType() != parquet.Repetitions.Required
		byNode[n] = k
	}
	for leaf := 0; leaf < sc.NumColumns(); leaf++ {
		top := sc.ColumnRoot(leaf)
		k, ok := byNode[top]
		if !ok {
			return nil, fmt.Errorf("leaf column %d is under no top-level field", leaf)
		}
		fields[k].Leaves = append(fields[k].Leaves, leaf)
	}
	for k := range fields {
		f := &fields[k]
		if len(f.Leaves) != 1 || root.Field(k).Type() != schema.Primitive {
			continue // nested
		}
		descr := sc.Column(f.Leaves[0])
		f.Type, f.Err = arrowTypeOf(descr)
		if f.Err != nil {
			f.Err = fmt.Errorf("the Parquet column %s (%s, %s): %w", descr.Path(), descr.PhysicalType(), descr.LogicalType(), f.Err)
			continue
		}
		if stored != nil {
			if i := stored.FieldIndices(f.Name); len(i) == 1 {
				f.Type = refineType(f.Type, stored.Field(i[0]).Type)
			}
		}
	}
	return fields, nil
}

// ChooseParquetFields returns the names of pr's top-level fields and the
// fields choose picks among them (all when choose is nil), in file order.
func ChooseParquetFields(pr *file.Reader, choose func(names []string) ([]int, error)) ([]string, []ParquetField, error) {
	all, err := ParquetFields(pr)
	if err != nil {
		return nil, nil, err
	}
	names := FieldNames(all)
	ks, err := ChooseFields(names, choose)
	if err != nil {
		return nil, nil, err
	}
	chosen := make([]ParquetField, len(ks))
	for i, k := range ks {
		chosen[i] = all[k]
	}
	return names, chosen, nil
}

// FieldNames returns the names of fields.
func FieldNames(fields []ParquetField) []string {
	names := make([]string, len(fields))
	for k, f := range fields {
		names[k] = f.Name
	}
	return names
}

// arrowTypeOf returns the Arrow type of a flat Parquet leaf column, as
// pqarrow's getArrowType gives it.
func arrowTypeOf(descr *schema.Column) (arrow.DataType, error) {
	logical := descr.LogicalType()
	if !logical.IsValid() || logical.Equals(schema.NullLogicalType{}) {
		return arrow.Null, nil
	}
	switch descr.PhysicalType() {
	case parquet.Types.Boolean:
		return arrow.FixedWidthTypes.Boolean, nil
	case parquet.Types.Int32:
		switch lt := logical.(type) {
		case schema.NoLogicalType:
			return arrow.PrimitiveTypes.Int32, nil
		case *schema.IntLogicalType:
			return intType(lt)
		case *schema.DecimalLogicalType:
			return decimalType(lt), nil
		case schema.DateLogicalType:
			return arrow.FixedWidthTypes.Date32, nil
		case *schema.TimeLogicalType:
			if lt.TimeUnit() == schema.TimeUnitMillis {
				return arrow.FixedWidthTypes.Time32ms, nil
			}
		}
	case parquet.Types.Int64:
		switch lt := logical.(type) {
		case schema.NoLogicalType:
			return arrow.PrimitiveTypes.Int64, nil
		case *schema.IntLogicalType:
			return intType(lt)
		case *schema.DecimalLogicalType:
			return decimalType(lt), nil
		case *schema.TimestampLogicalType:
			return timestampType(lt)
		case *schema.TimeLogicalType:
			switch lt.TimeUnit() {
			case schema.TimeUnitMicros:
				return arrow.FixedWidthTypes.Time64us, nil
			case schema.TimeUnitNanos:
				return arrow.FixedWidthTypes.Time64ns, nil
			}
		}
	case parquet.Types.Int96:
		return arrow.FixedWidthTypes.Timestamp_ns, nil
	case parquet.Types.Float:
		return arrow.PrimitiveTypes.Float32, nil
	case parquet.Types.Double:
		return arrow.PrimitiveTypes.Float64, nil
	case parquet.Types.ByteArray:
		switch lt := logical.(type) {
		case schema.StringLogicalType:
			return arrow.BinaryTypes.String, nil
		case *schema.DecimalLogicalType:
			return decimalType(lt), nil
		case schema.NoLogicalType, schema.EnumLogicalType, schema.JSONLogicalType, schema.BSONLogicalType:
			return arrow.BinaryTypes.Binary, nil
		}
	case parquet.Types.FixedLenByteArray:
		switch lt := logical.(type) {
		case *schema.DecimalLogicalType:
			return decimalType(lt), nil
		case schema.NoLogicalType, schema.IntervalLogicalType, schema.UUIDLogicalType, schema.Float16LogicalType:
			return &arrow.FixedSizeBinaryType{ByteWidth: descr.TypeLength()}, nil
		}
	}
	return nil, errors.New("a logical type that does not annotate this physical type")
}

func intType(lt *schema.IntLogicalType) (arrow.DataType, error) {
	signed := lt.IsSigned()
	switch lt.BitWidth() {
	case 8:
		return pick(signed, arrow.PrimitiveTypes.Int8, arrow.PrimitiveTypes.Uint8), nil
	case 16:
		return pick(signed, arrow.PrimitiveTypes.Int16, arrow.PrimitiveTypes.Uint16), nil
	case 32:
		return pick(signed, arrow.PrimitiveTypes.Int32, arrow.PrimitiveTypes.Uint32), nil
	case 64:
		return pick(signed, arrow.PrimitiveTypes.Int64, arrow.PrimitiveTypes.Uint64), nil
	}
	return nil, fmt.Errorf("integers of %d bits", lt.BitWidth())
}

func pick(signed bool, s, u arrow.DataType) arrow.DataType {
	if signed {
		return s
	}
	return u
}

func decimalType(lt *schema.DecimalLogicalType) arrow.DataType {
	if lt.Precision() <= decimal128.MaxPrecision {
		return &arrow.Decimal128Type{Precision: lt.Precision(), Scale: lt.Scale()}
	}
	return &arrow.Decimal256Type{Precision: lt.Precision(), Scale: lt.Scale()}
}

// timestampType is pqarrow's arrowTimestamp: converted types are in UTC.
func timestampType(lt *schema.TimestampLogicalType) (arrow.DataType, error) {
	tz := ""
	if lt.IsAdjustedToUTC() || lt.IsFromConvertedType() {
		tz = "UTC"
	}
	switch lt.TimeUnit() {
	case schema.TimeUnitMillis:
		return &arrow.TimestampType{TimeZone: tz, Unit: arrow.Millisecond}, nil
	case schema.TimeUnitMicros:
		return &arrow.TimestampType{TimeZone: tz, Unit: arrow.Microsecond}, nil
	case schema.TimeUnitNanos:
		return &arrow.TimestampType{TimeZone: tz, Unit: arrow.Nanosecond}, nil
	}
	return nil, errors.New("a timestamp of unknown unit")
}

// refineType returns the stored Arrow type of a field where it describes
// the same values as the Parquet type read: a dictionary of strings (the
// writer held them as one), a timestamp's time zone. Anything else keeps
// the Parquet type.
func refineType(read, stored arrow.DataType) arrow.DataType {
	switch s := stored.(type) {
	case *arrow.DictionaryType:
		if read.ID() == arrow.STRING || read.ID() == arrow.BINARY {
			return &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: read}
		}
	case *arrow.TimestampType:
		if r, ok := read.(*arrow.TimestampType); ok && r.Unit == s.Unit {
			return s
		}
	}
	return read
}

// storedArrowSchema returns the Arrow schema a Parquet file may carry in
// its "ARROW:schema" metadata (an IPC stream message, base64), nil if it
// has none, after checking it the way checkIPCSchema checks IPC files.
func storedArrowSchema(pr *file.Reader) (*arrow.Schema, error) {
	kv := pr.MetaData().KeyValueMetadata()
	if kv == nil {
		return nil, nil
	}
	s := kv.FindValue("ARROW:schema")
	if s == nil {
		return nil, nil
	}
	var dec []byte
	var err error
	if len(*s)%4 == 0 {
		dec, err = base64.StdEncoding.DecodeString(*s)
	}
	if len(dec) == 0 || err != nil {
		dec, err = base64.RawStdEncoding.DecodeString(*s)
	}
	if err != nil {
		return nil, fmt.Errorf("corrupt stored Arrow schema: %w", err)
	}
	if err := checkIPCSchema(dec); err != nil {
		return nil, fmt.Errorf("stored Arrow schema: %w", err)
	}
	rd, err := ipc.NewReader(bytes.NewReader(dec))
	if err != nil {
		return nil, fmt.Errorf("stored Arrow schema: %w", err)
	}
	defer rd.Release()
	return rd.Schema(), nil
}
