package colfile

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/memory"
)

// Table is a generic columnar table for results files (per-job results,
// classes, sweeps). Cols[k] is the column named Names[k]; each column is a
// []float64, []int64, []int32, []string or []bool, and all have the same
// length.
type Table struct {
	Names []string
	Cols  []any
}

// Len returns the number of rows (0 for a table without columns).
func (t *Table) Len() int {
	if len(t.Cols) == 0 {
		return 0
	}
	return colLen(t.Cols[0])
}

// Col returns the column named name, or nil.
func (t *Table) Col(name string) any {
	for k, n := range t.Names {
		if n == name {
			return t.Cols[k]
		}
	}
	return nil
}

// Add appends a column.
func (t *Table) Add(name string, col any) {
	t.Names = append(t.Names, name)
	t.Cols = append(t.Cols, col)
}

// Check reports a malformed table: names and columns not paired, unnamed or
// repeated names, unsupported column types, unequal lengths.
func (t *Table) Check() error {
	if len(t.Names) != len(t.Cols) {
		return fmt.Errorf("table has %d names but %d columns", len(t.Names), len(t.Cols))
	}
	seen := map[string]bool{}
	n := t.Len()
	for k, name := range t.Names {
		if name == "" {
			return fmt.Errorf("table column %d has no name", k)
		}
		if seen[name] {
			return fmt.Errorf("table column %q appears twice", name)
		}
		seen[name] = true
		l := colLen(t.Cols[k])
		if l < 0 {
			return fmt.Errorf("table column %q has unsupported type %T", name, t.Cols[k])
		}
		if l != n {
			return fmt.Errorf("table column %q has %d rows, column %q has %d", name, l, t.Names[0], n)
		}
	}
	return nil
}

func colLen(c any) int {
	switch v := c.(type) {
	case []float64:
		return len(v)
	case []int64:
		return len(v)
	case []int32:
		return len(v)
	case []string:
		return len(v)
	case []bool:
		return len(v)
	}
	return -1
}

// DictColumns are the columns a Parquet file dictionary-encodes: the
// string columns but the ids (column id). Ids are unique, so a dictionary saves
// nothing, and a row group's id dictionary outgrows the writer's page limit
// and falls back to plain encoding part way, which makes arrow's footer
// list the two encodings in map order: the file's bytes would then change
// from run to run.
func (t *Table) DictColumns(id string) []string {
	var dict []string
	for k, c := range t.Cols {
		if _, ok := c.([]string); ok && t.Names[k] != id {
			dict = append(dict, t.Names[k])
		}
	}
	return dict
}

// WriteText writes t as CSV, or with tabs set TSV, with a header row.
func (t *Table) WriteText(w io.Writer, tabs bool) error {
	bw := bufio.NewWriter(w)
	cw := csv.NewWriter(bw)
	if tabs {
		cw.Comma = '\t'
	}
	if err := cw.Write(t.Names); err != nil {
		return err
	}
	row := make([]string, len(t.Cols))
	for i := 0; i < t.Len(); i++ {
		for k, c := range t.Cols {
			switch v := c.(type) {
			case []float64:
				row[k] = ""
				if !math.IsNaN(v[i]) { // no value: an empty field, as nanNulls
					row[k] = string(AppendFloat(nil, v[i]))
				}
			case []int64:
				row[k] = strconv.FormatInt(v[i], 10)
			case []int32:
				row[k] = strconv.FormatInt(int64(v[i]), 10)
			case []string:
				row[k] = v[i]
			case []bool:
				row[k] = strconv.FormatBool(v[i])
			}
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}
	return bw.Flush()
}

// Record builds an arrow.Record over t's columns. Numeric columns share
// memory with t (no copy).
func (t *Table) Record() arrow.Record {
	fields := make([]arrow.Field, len(t.Cols))
	arrs := make([]arrow.Array, len(t.Cols))
	for k, c := range t.Cols {
		var a arrow.Array
		switch v := c.(type) {
		case []float64:
			a = PrimitiveArray(arrow.PrimitiveTypes.Float64, len(v), arrow.Float64Traits.CastToBytes(v), nanNulls(v))
		case []int64:
			a = PrimitiveArray(arrow.PrimitiveTypes.Int64, len(v), arrow.Int64Traits.CastToBytes(v), nil)
		case []int32:
			a = PrimitiveArray(arrow.PrimitiveTypes.Int32, len(v), arrow.Int32Traits.CastToBytes(v), nil)
		case []string:
			b := array.NewStringBuilder(memory.DefaultAllocator)
			b.AppendValues(v, nil)
			a = b.NewArray()
			b.Release()
		case []bool:
			b := array.NewBooleanBuilder(memory.DefaultAllocator)
			b.AppendValues(v, nil)
			a = b.NewArray()
			b.Release()
		}
		// Float columns are nullable (nanNulls), whether or not this part
		// of a table has a NaN, so that every part has the same schema.
		_, isFloat := c.([]float64)
		fields[k] = arrow.Field{Name: t.Names[k], Type: a.DataType(), Nullable: isFloat}
		arrs[k] = a
	}
	rec := array.NewRecord(arrow.NewSchema(fields, nil), arrs, int64(t.Len()))
	for _, a := range arrs {
		a.Release()
	}
	return rec
}

// nanNulls returns the validity bitmap (Arrow's LSB layout) of a float
// column in which NaN means "no value", nil when the column has no NaN.
// Written as NULL, such a value is skipped by a reader's avg() or sum()
// (DuckDB's avg over a NaN is NaN); ReadTable reads it back as NaN.
func nanNulls(v []float64) []byte {
	first := slices.IndexFunc(v, math.IsNaN)
	if first < 0 {
		return nil
	}
	valid := make([]byte, (len(v)+7)/8)
	for i, x := range v {
		if !math.IsNaN(x) {
			valid[i/8] |= 1 << (i % 8)
		}
	}
	return valid
}

// PrimitiveArray wraps a fixed-width value buffer (and optional validity
// bitmap in Arrow's LSB layout) as an Arrow array without copying.
func PrimitiveArray(dt arrow.DataType, n int, values, valid []byte) arrow.Array {
	var vb *memory.Buffer
	nulls := 0
	if valid != nil {
		vb = memory.NewBufferBytes(valid)
		nulls = array.UnknownNullCount
	}
	d := array.NewData(dt, n, []*memory.Buffer{vb, memory.NewBufferBytes(values)}, nil, nulls, 0)
	defer d.Release()
	return array.MakeFromData(d)
}

// FromArrow converts an Arrow table into a Table (see data.ReadTable for
// the types); name, printable, names the file in errors.
func FromArrow(tbl arrow.Table, name string) (*Table, error) {
	out := &Table{}
	n := int(tbl.NumRows())
	for k := 0; k < int(tbl.NumCols()); k++ {
		col := tbl.Column(k)
		name := col.Name()
		var c any
		switch col.DataType().ID() {
		case arrow.FLOAT64, arrow.FLOAT32:
			v := make([]float64, 0, n)
			for _, ch := range col.Data().Chunks() {
				for i := 0; i < ch.Len(); i++ {
					if ch.IsNull(i) {
						v = append(v, math.NaN())
					} else if a, ok := ch.(*array.Float64); ok {
						v = append(v, a.Value(i))
					} else {
						v = append(v, float64(ch.(*array.Float32).Value(i)))
					}
				}
			}
			c = v
		case arrow.INT64, arrow.UINT32:
			v := make([]int64, 0, n)
			for _, ch := range col.Data().Chunks() {
				for i := 0; i < ch.Len(); i++ {
					var x int64
					if ch.IsValid(i) {
						x, _ = IntValue(ch, i)
					}
					v = append(v, x)
				}
			}
			c = v
		case arrow.INT32, arrow.INT16, arrow.INT8, arrow.UINT16, arrow.UINT8:
			v := make([]int32, 0, n)
			for _, ch := range col.Data().Chunks() {
				for i := 0; i < ch.Len(); i++ {
					var x int64
					if ch.IsValid(i) {
						x, _ = IntValue(ch, i)
					}
					v = append(v, int32(x))
				}
			}
			c = v
		case arrow.BOOL:
			v := make([]bool, 0, n)
			for _, ch := range col.Data().Chunks() {
				a := ch.(*array.Boolean)
				for i := 0; i < a.Len(); i++ {
					v = append(v, a.IsValid(i) && a.Value(i))
				}
			}
			c = v
		case arrow.STRING, arrow.LARGE_STRING, arrow.DICTIONARY:
			v := make([]string, 0, n)
			for _, ch := range col.Data().Chunks() {
				for i := 0; i < ch.Len(); i++ {
					s, ok := StringValue(ch, i)
					if !ok && ch.IsValid(i) {
						return nil, fmt.Errorf("%s: column %q: type %s is not a string column", name, name, col.DataType())
					}
					v = append(v, s)
				}
			}
			c = v
		default:
			return nil, fmt.Errorf("%s: column %q: unsupported type %s", name, name, col.DataType())
		}
		out.Add(name, c)
	}
	return out, nil
}

// IntValue returns element i of an integer array of any width as int64.
func IntValue(a arrow.Array, i int) (int64, bool) {
	switch v := a.(type) {
	case *array.Int64:
		return v.Value(i), true
	case *array.Int32:
		return int64(v.Value(i)), true
	case *array.Int16:
		return int64(v.Value(i)), true
	case *array.Int8:
		return int64(v.Value(i)), true
	case *array.Uint32:
		return int64(v.Value(i)), true
	case *array.Uint16:
		return int64(v.Value(i)), true
	case *array.Uint8:
		return int64(v.Value(i)), true
	case *array.Uint64:
		return int64(v.Value(i)), v.Value(i) <= math.MaxInt64
	}
	return 0, false
}

// StringValue returns element i of a string, large-string or
// dictionary-of-strings array.
func StringValue(a arrow.Array, i int) (string, bool) {
	switch v := a.(type) {
	case *array.String:
		return v.Value(i), true
	case *array.LargeString:
		return v.Value(i), true
	case *array.Dictionary:
		if v.IsNull(i) {
			return "", true
		}
		return StringValue(v.Dictionary(), v.GetValueIndex(i))
	}
	return "", false
}

// AppendFloat appends v as text: the shortest decimal that parses back to
// v, or, for a v that is exactly a float32 (a float32 column of a log or
// table, widened on reading), the shortest that parses back to that
// float32 when it is shorter: 2.097, not 2.0970001220703125. It is a plain
// decimal wherever one reads well — 0 and 1e-6 ≤ |v| < 1e21, the range
// where ECMAScript's Number::toString writes one too: 1234567 and
// 1700000000.5, not 1.234567e+06 and 1.7000000005e+09, which a spreadsheet
// may take for text or round —, and an exponent only outside it (1e+21,
// 1e-07); NaN and ±Inf as strconv writes them.
func AppendFloat(b []byte, v float64) []byte {
	bits := 64
	if f := float32(v); float64(f) == v {
		var digits [32]byte // the shorter digit string decides, in 'g' form
		if len(strconv.AppendFloat(digits[:0], v, 'g', -1, 32)) < len(strconv.AppendFloat(digits[:0], v, 'g', -1, 64)) {
			bits = 32
		}
	}
	format := byte('g')
	if a := math.Abs(v); a == 0 || (a >= 1e-6 && a < 1e21) {
		format = 'f'
	}
	return strconv.AppendFloat(b, v, format, -1, bits)
}
