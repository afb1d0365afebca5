package data

import (
	"fmt"
	"log/slog"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unsafe"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/memory"

	"github.com/schedplan/schedplan/data/internal/colfile"
)

// This file converts between Jobs and Arrow: Jobs.record for the Parquet and
// Arrow writers, jobsFromArrow for the Parquet and Arrow readers. Both copy
// whole buffers, never row by row through interfaces.

// dictType is the Arrow type of the user and queue columns.
var dictType = &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}

// record returns j as an arrow.Record with the canonical columns that are
// present, in table order. Numeric columns and validity bitmaps share memory
// with j.
func (j *Jobs) record() arrow.Record {
	n := j.Len()
	var fields []arrow.Field
	var arrs []arrow.Array
	add := func(name string, a arrow.Array, nullable bool) {
		fields = append(fields, arrow.Field{Name: name, Type: a.DataType(), Nullable: nullable})
		arrs = append(arrs, a)
	}
	add(ColJobID, stringsArray(&j.ID, n), false)
	add(ColSubmit, colfile.PrimitiveArray(arrow.PrimitiveTypes.Float64, n, arrow.Float64Traits.CastToBytes(j.Submit), nil), false)
	if j.User.Present() {
		add(ColUser, dictArray(&j.User), true)
	}
	if j.Queue.Present() {
		add(ColQueue, dictArray(&j.Queue), true)
	}
	addI32 := func(name string, c *Column[int32]) {
		if c.Present() {
			add(name, colfile.PrimitiveArray(arrow.PrimitiveTypes.Int32, n, arrow.Int32Traits.CastToBytes(c.Values), bitmapBytes(c.Valid, n)), true)
		}
	}
	addI64 := func(name string, c *Column[int64]) {
		if c.Present() {
			add(name, colfile.PrimitiveArray(arrow.PrimitiveTypes.Int64, n, arrow.Int64Traits.CastToBytes(c.Values), bitmapBytes(c.Valid, n)), true)
		}
	}
	addF64 := func(name string, c *Column[float64]) {
		if c.Present() {
			add(name, colfile.PrimitiveArray(arrow.PrimitiveTypes.Float64, n, arrow.Float64Traits.CastToBytes(c.Values), bitmapBytes(c.Valid, n)), true)
		}
	}
	addI32(ColPriority, &j.Priority)
	addF64(ColStart, &j.Start)
	addF64(ColFinish, &j.Finish)
	addI32(ColMapTasks, &j.MapTasks)
	addI32(ColReduceTasks, &j.ReduceTasks)
	addF64(ColMapTaskSeconds, &j.MapTaskSeconds)
	addF64(ColReduceTaskSeconds, &j.ReduceTaskSeconds)
	addI64(ColInputBytes, &j.InputBytes)
	addI64(ColShuffleBytes, &j.ShuffleBytes)
	addI64(ColOutputBytes, &j.OutputBytes)
	addF64(ColSize, &j.Size)
	rec := array.NewRecord(arrow.NewSchema(fields, nil), arrs, int64(n))
	for _, a := range arrs {
		a.Release()
	}
	return rec
}

// bitmapBytes returns b as an Arrow validity bitmap (a Bitmap's words in
// little-endian order are exactly Arrow's LSB-first bytes), nil if b is nil.
func bitmapBytes(b Bitmap, n int) []byte {
	if b == nil {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&b[0])), len(b)*8)[:(n+7)/8]
}

func stringsArray(s *Strings, n int) arrow.Array {
	offsets := s.Offsets
	if len(offsets) == 0 {
		offsets = []int32{0}
	}
	d := array.NewData(arrow.BinaryTypes.String, n, []*memory.Buffer{nil,
		memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(offsets)),
		memory.NewBufferBytes(s.Data)}, nil, 0, 0)
	defer d.Release()
	return array.MakeFromData(d)
}

func dictArray(d *Dict) arrow.Array {
	n := len(d.Codes)
	var valid Bitmap
	for i, c := range d.Codes {
		if c < 0 {
			if valid == nil {
				valid = NewBitmap(n)
			}
			valid.SetNull(i)
		}
	}
	codes := d.Codes
	if valid != nil { // Arrow wants in-range indices even under nulls
		codes = make([]int32, n)
		for i, c := range d.Codes {
			codes[i] = max(c, 0)
		}
	}
	values := d.Values
	if len(values) == 0 && valid != nil {
		values = []string{""}
	}
	sb := array.NewStringBuilder(memory.DefaultAllocator)
	sb.AppendValues(values, nil)
	dict := sb.NewArray()
	sb.Release()
	defer dict.Release()
	idx := colfile.PrimitiveArray(arrow.PrimitiveTypes.Int32, n, arrow.Int32Traits.CastToBytes(codes), bitmapBytes(valid, n))
	defer idx.Release()
	return array.NewDictionaryArray(dictType, idx, dict)
}

// jobsFromArrow builds a Jobs table from an Arrow table read from file name,
// applying the column mapping of opt.
func jobsFromArrow(tbl arrow.Table, name string, opt *ReadOptions) (*Jobs, error) {
	return jobsFromTable(tbl, name, opt, false)
}

// jobsFromTable is jobsFromArrow; owned says the table's buffers are the
// conversion's alone (arrowCol.owned).
func jobsFromTable(tbl arrow.Table, name string, opt *ReadOptions, owned bool) (*Jobs, error) {
	sch := tbl.Schema()
	n := int(tbl.NumRows())
	cols, err := resolveColumns(name, fieldNames(sch), opt.Map)
	if err != nil {
		return nil, err
	}
	j := &Jobs{Source: name}
	for canon, k := range cols {
		col := tbl.Column(k)
		c := &arrowCol{file: name, canon: canon, src: sch.Field(k).Name, chunks: col.Data().Chunks(), n: n,
			unit: opt.Map.Source(canon).Unit, owned: owned}
		if err := c.setIn(j); err != nil {
			return nil, err
		}
	}
	return j, nil
}

// setIn converts the column into its canonical column of j.
func (c *arrowCol) setIn(j *Jobs) error {
	switch c.canon {
	case ColJobID:
		return c.strings(&j.ID)
	case ColSubmit:
		var v Column[float64]
		if err := c.times(&v); err != nil {
			return err
		}
		if v.Valid != nil {
			for i := 0; i < c.n; i++ {
				if !v.Valid.Valid(i) {
					return inputErrorf(c.file, i+1, c.label(), "null submit time")
				}
			}
		}
		j.Submit = v.Values
		return nil
	case ColUser:
		return c.dict(&j.User)
	case ColQueue:
		return c.dict(&j.Queue)
	case ColPriority:
		return c.int32s(&j.Priority)
	case ColStart:
		return c.times(&j.Start)
	case ColFinish:
		return c.times(&j.Finish)
	case ColMapTasks:
		return c.int32s(&j.MapTasks)
	case ColReduceTasks:
		return c.int32s(&j.ReduceTasks)
	case ColMapTaskSeconds:
		return c.float64s(&j.MapTaskSeconds)
	case ColReduceTaskSeconds:
		return c.float64s(&j.ReduceTaskSeconds)
	case ColInputBytes:
		return c.int64s(&j.InputBytes)
	case ColShuffleBytes:
		return c.int64s(&j.ShuffleBytes)
	case ColOutputBytes:
		return c.int64s(&j.OutputBytes)
	case ColSize:
		return c.float64s(&j.Size)
	}
	return nil
}

func fieldNames(s *arrow.Schema) []string {
	names := make([]string, s.NumFields())
	for k := range names {
		names[k] = s.Field(k).Name
	}
	return names
}

// resolveColumns finds, for every canonical column, the index of the source
// column that holds it. It fails when job_id or submit_time is missing or an
// explicitly mapped source column does not exist, and logs (at debug level)
// source columns that hold nothing canonical.
func resolveColumns(file string, names []string, m Mapping) (map[string]int, error) {
	return resolveColumnsOf(file, names, m, Columns, ColJobID, ColSubmit)
}

// resolveColumnsOf is resolveColumns for a table with the given canonical
// columns, two of them required.
func resolveColumnsOf(file string, names []string, m Mapping, columns []string, req1, req2 string) (map[string]int, error) {
	index := make(map[string]int, len(names))
	dup := map[string]bool{}
	for k, nm := range names {
		if _, seen := index[nm]; seen {
			dup[nm] = true
			continue
		}
		index[nm] = k
	}
	claimed := map[string]bool{} // source names mapped explicitly
	for _, sc := range m {
		claimed[sc.Name] = true
	}
	cols := map[string]int{}
	used := map[int]bool{}
	for _, canon := range columns {
		sc := m.Source(canon)
		_, mapped := m[canon]
		k, ok := index[sc.Name]
		if !mapped && claimed[sc.Name] {
			ok = false // the column of that name holds another canonical column
		}
		switch {
		case ok:
			if dup[sc.Name] {
				return nil, inputErrorf(file, 0, sc.Name, "the column appears twice in the header")
			}
			cols[canon] = k
			used[k] = true
		case canon == req1 || canon == req2:
			hint := ""
			if !mapped {
				hint = fmt.Sprintf(" (map another column to it with --map %s=NAME)", canon)
			}
			return nil, inputErrorf(file, 0, sc.Name, "missing required column%s; the file has: %s", hint, joinNames(names))
		case mapped:
			return nil, inputErrorf(file, 0, sc.Name, "no such column (mapped to %s); the file has: %s", canon, joinNames(names))
		}
	}
	for k, nm := range names {
		if !used[k] {
			slog.Debug("ignoring a column that is not in the table's model", "file", file, "column", nm)
		}
	}
	return cols, nil
}

func joinNames(names []string) string {
	const max = 20
	s := ""
	for k, nm := range names {
		if k == max {
			return s + fmt.Sprintf(", ... (%d more)", len(names)-max)
		}
		if k > 0 {
			s += ", "
		}
		s += strconv.Quote(nm)
	}
	return s
}

// arrowCol is one source column being converted to a canonical column.
type arrowCol struct {
	file   string
	canon  string // canonical name
	src    string // name in the file
	chunks []arrow.Array
	n      int
	unit   TimeUnit
	// owned says that the chunks' buffers are this conversion's alone (Go
	// memory a Parquet decoder allocated for it, released after): a
	// column whose single chunk holds its values as the Jobs column does
	// then takes the chunk's buffer instead of a copy.
	owned bool
}

// alias returns the single chunk of an owned column as a T (nil otherwise).
func alias[T arrow.Array](c *arrowCol) T {
	var zero T
	if !c.owned || len(c.chunks) != 1 || c.chunks[0].Len() != c.n || c.chunks[0].Data().Offset() != 0 {
		return zero
	}
	a, _ := c.chunks[0].(T)
	return a
}

// label names the column in messages: its name in the file, and the
// canonical name when they differ.
func (c *arrowCol) label() string {
	if c.src == c.canon {
		return c.src
	}
	return c.src + " (" + c.canon + ")"
}

func (c *arrowCol) typeErr(want string) error {
	return inputErrorf(c.file, 0, c.label(), "has type %s; want %s", c.chunks0Type(), want)
}

func (c *arrowCol) chunks0Type() arrow.DataType {
	if len(c.chunks) == 0 {
		return arrow.Null
	}
	return c.chunks[0].DataType()
}

// validity copies the null bitmaps of the chunks into a Bitmap, or returns
// nil when no row is null. Byte-aligned bitmaps (the usual case) are copied
// whole.
func (c *arrowCol) validity() Bitmap {
	nulls := 0
	for _, ch := range c.chunks {
		nulls += ch.NullN()
	}
	if nulls == 0 {
		return nil
	}
	b := NewBitmap(c.n)
	dst := unsafe.Slice((*byte)(unsafe.Pointer(&b[0])), len(b)*8)
	row := 0
	for _, ch := range c.chunks {
		if ch.NullN() > 0 {
			src := ch.NullBitmapBytes()
			off := ch.Data().Offset()
			if row%8 == 0 && off%8 == 0 && len(src) >= (off+ch.Len()+7)/8 {
				nb := (ch.Len() + 7) / 8
				copy(dst[row/8:row/8+nb], src[off/8:off/8+nb])
				if tail := ch.Len() % 8; tail != 0 { // keep bits past the chunk valid
					dst[row/8+nb-1] |= ^byte(0) << tail
				}
			} else {
				for i := 0; i < ch.Len(); i++ {
					if ch.IsNull(i) {
						b.SetNull(row + i)
					}
				}
			}
		}
		row += ch.Len()
	}
	return b
}

// zeroNulls sets the values at null rows to zero, so that tables read from
// different formats hold identical bits.
func zeroNulls[T Number](v []T, b Bitmap) {
	for w, word := range b {
		if word == ^uint64(0) {
			continue
		}
		for bit := 0; bit < 64; bit++ {
			if i := w*64 + bit; word&(1<<bit) == 0 && i < len(v) {
				v[i] = 0
			}
		}
	}
}

// strings converts a string, large-string, binary, dictionary or integer
// column to Strings; nulls are an error (used for job_id).
func (c *arrowCol) strings(s *Strings) error {
	if a := alias[*array.String](c); a != nil && a.NullN() == 0 && a.ValueOffsets()[0] == 0 {
		s.Offsets, s.Data = a.ValueOffsets(), a.ValueBytes()
		return nil
	}
	s.Offsets = make([]int32, 1, c.n+1)
	row := 0
	for _, ch := range c.chunks {
		if ch.NullN() > 0 {
			for i := 0; i < ch.Len(); i++ {
				if ch.IsNull(i) {
					return inputErrorf(c.file, row+i+1, c.label(), "null job id")
				}
			}
		}
		switch a := ch.(type) {
		case *array.String:
			if err := appendOffsets(s, a.ValueOffsets(), a.ValueBytes(), c, row); err != nil {
				return err
			}
		case *array.Binary:
			if err := appendOffsets(s, a.ValueOffsets(), a.ValueBytes(), c, row); err != nil {
				return err
			}
		case *array.LargeString:
			for i := 0; i < a.Len(); i++ {
				if err := appendString(s, a.Value(i), c, row+i); err != nil {
					return err
				}
			}
		case *array.Dictionary:
			for i := 0; i < a.Len(); i++ {
				v, ok := colfile.StringValue(a, i)
				if !ok {
					return c.typeErr("string")
				}
				if err := appendString(s, v, c, row+i); err != nil {
					return err
				}
			}
		default:
			var buf []byte
			for i := 0; i < ch.Len(); i++ {
				v, ok := colfile.IntValue(ch, i)
				if !ok {
					return c.typeErr("string or integer")
				}
				buf = strconv.AppendInt(buf[:0], v, 10)
				s.Data = append(s.Data, buf...)
				s.Offsets = append(s.Offsets, int32(len(s.Data)))
			}
		}
		row += ch.Len()
	}
	return nil
}

const maxStringBytes = math.MaxInt32

func appendOffsets(s *Strings, off []int32, data []byte, c *arrowCol, row int) error {
	if len(off) == 0 {
		return nil
	}
	base := int64(len(s.Data)) - int64(off[0])
	if int64(len(s.Data))+int64(off[len(off)-1]-off[0]) > maxStringBytes {
		return inputErrorf(c.file, row+1, c.label(), "more than 2 GiB of job ids")
	}
	s.Data = append(s.Data, data...) // data starts at off[0]
	for _, o := range off[1:] {
		s.Offsets = append(s.Offsets, int32(int64(o)+base))
	}
	return nil
}

func appendString(s *Strings, v string, c *arrowCol, row int) error {
	if len(s.Data)+len(v) > maxStringBytes {
		return inputErrorf(c.file, row+1, c.label(), "more than 2 GiB of job ids")
	}
	s.Append(v)
	return nil
}

// dict converts a string-like column to a Dict, keeping the order of first
// appearance of values when the source is not dictionary encoded and the
// source dictionary order otherwise (merged across chunks).
func (c *arrowCol) dict(d *Dict) error {
	d.Codes = make([]int32, 0, c.n)
	d.Values = d.Values[:0]
	seen := map[string]int32{}
	row := 0
	code := func(v string) int32 {
		k, ok := seen[v]
		if !ok {
			k = int32(len(d.Values))
			seen[v] = k
			d.Values = append(d.Values, v)
		}
		return k
	}
	for _, ch := range c.chunks {
		switch a := ch.(type) {
		case *array.Dictionary:
			remap := make([]int32, a.Dictionary().Len())
			for k := range remap {
				v, ok := colfile.StringValue(a.Dictionary(), k)
				if !ok {
					return c.typeErr("string")
				}
				if _, dup := seen[v]; !dup {
					v = strings.Clone(v)
				}
				remap[k] = code(v)
			}
			for i := 0; i < a.Len(); i++ {
				if a.IsNull(i) {
					d.Codes = append(d.Codes, -1)
				} else {
					k := a.GetValueIndex(i)
					if k < 0 || k >= len(remap) {
						return inputErrorf(c.file, row+i+1, c.label(), "dictionary index %d out of range (corrupt file)", k)
					}
					d.Codes = append(d.Codes, remap[k])
				}
			}
		case *array.String:
			for i := 0; i < a.Len(); i++ {
				if a.IsNull(i) {
					d.Codes = append(d.Codes, -1)
					continue
				}
				v := a.Value(i) // shares Arrow's memory: clone before keeping
				k, ok := seen[v]
				if !ok {
					k = code(strings.Clone(v))
				}
				d.Codes = append(d.Codes, k)
			}
		case *array.LargeString, *array.Binary:
			for i := 0; i < ch.Len(); i++ {
				if ch.IsNull(i) {
					d.Codes = append(d.Codes, -1)
					continue
				}
				var v string
				if ls, ok := ch.(*array.LargeString); ok {
					v = strings.Clone(ls.Value(i))
				} else {
					v = string(ch.(*array.Binary).Value(i))
				}
				d.Codes = append(d.Codes, code(v))
			}
		case *array.Null:
			for i := 0; i < a.Len(); i++ {
				d.Codes = append(d.Codes, -1)
			}
		default:
			var buf []byte
			for i := 0; i < ch.Len(); i++ {
				if ch.IsNull(i) {
					d.Codes = append(d.Codes, -1)
					continue
				}
				v, ok := colfile.IntValue(ch, i)
				if !ok {
					return c.typeErr("string")
				}
				buf = strconv.AppendInt(buf[:0], v, 10)
				k, ok := seen[string(buf)]
				if !ok {
					k = code(string(buf))
				}
				d.Codes = append(d.Codes, k)
			}
		}
		row += ch.Len()
	}
	return nil
}

// float64s converts a floating-point or integer column.
func (c *arrowCol) float64s(col *Column[float64]) error {
	return c.floats(col, 1, false)
}

// times converts a time column to seconds: floats and integers are divided
// by the mapping's unit, Arrow timestamps by their own.
func (c *arrowCol) times(col *Column[float64]) error {
	return c.floats(col, c.unit.PerSecond(), true)
}

func (c *arrowCol) floats(col *Column[float64], per float64, isTime bool) error {
	if a := alias[*array.Float64](c); a != nil && per == 1 {
		col.Values, col.Valid = a.Float64Values(), c.validity()
		zeroNulls(col.Values, col.Valid)
		return nil
	}
	v := make([]float64, c.n)
	row := 0
	for _, ch := range c.chunks {
		out := v[row : row+ch.Len()]
		switch a := ch.(type) {
		case *array.Float64:
			copy(out, a.Float64Values())
			if per != 1 {
				for i := range out {
					out[i] /= per
				}
			}
		case *array.Float32:
			for i, x := range a.Float32Values() {
				out[i] = float64(x) / per
			}
		case *array.Int64:
			for i, x := range a.Int64Values() {
				out[i] = float64(x) / per
			}
		case *array.Int32:
			for i, x := range a.Int32Values() {
				out[i] = float64(x) / per
			}
		case *array.Decimal128, *array.Decimal256:
			for i := 0; i < ch.Len(); i++ {
				if ch.IsValid(i) {
					bi, scale := decimalValue(ch, i)
					out[i] = decimalFloat(bi, scale) / per
				}
			}
		case *array.Timestamp:
			if !isTime {
				return c.typeErr("a number")
			}
			div := float64(time1Second(a.DataType().(*arrow.TimestampType).Unit))
			for i, x := range a.TimestampValues() {
				out[i] = float64(x) / div
			}
		case *array.Null:
		default:
			ok := true
			for i := 0; i < ch.Len() && ok; i++ {
				var x int64
				x, ok = colfile.IntValue(ch, i)
				out[i] = float64(x) / per
			}
			if !ok {
				want := "a number"
				if isTime {
					want = "a number or a timestamp"
				}
				return c.typeErr(want)
			}
		}
		row += ch.Len()
	}
	col.Values, col.Valid = v, c.validity()
	zeroNulls(v, col.Valid)
	return nil
}

func time1Second(u arrow.TimeUnit) int64 {
	switch u {
	case arrow.Millisecond:
		return 1e3
	case arrow.Microsecond:
		return 1e6
	case arrow.Nanosecond:
		return 1e9
	}
	return 1
}

// int64s converts an integer column, or a floating-point column whose values
// are all whole numbers (as written by tools that store integers with nulls
// as floats; NaN there is a null).
func (c *arrowCol) int64s(col *Column[int64]) error {
	if a := alias[*array.Int64](c); a != nil {
		col.Values, col.Valid = a.Int64Values(), c.validity()
		zeroNulls(col.Values, col.Valid)
		return nil
	}
	v := make([]int64, c.n)
	valid := c.validity()
	row := 0
	for _, ch := range c.chunks {
		out := v[row : row+ch.Len()]
		switch a := ch.(type) {
		case *array.Int64:
			copy(out, a.Int64Values())
		case *array.Int32:
			for i, x := range a.Int32Values() {
				out[i] = int64(x)
			}
		case *array.Float64, *array.Float32:
			for i := 0; i < ch.Len(); i++ {
				if ch.IsNull(i) {
					continue
				}
				var x float64
				if f, ok := a.(*array.Float64); ok {
					x = f.Value(i)
				} else {
					x = float64(a.(*array.Float32).Value(i))
				}
				if math.IsNaN(x) {
					if valid == nil {
						valid = NewBitmap(c.n)
					}
					valid.SetNull(row + i)
					continue
				}
				if x != math.Trunc(x) || x < -(1<<63) || x >= 1<<63 {
					return inputErrorf(c.file, row+i+1, c.label(), "%v is not a whole number", x)
				}
				out[i] = int64(x)
			}
		case *array.Decimal128, *array.Decimal256:
			for i := 0; i < ch.Len(); i++ {
				if !ch.IsValid(i) {
					continue
				}
				bi, scale := decimalValue(ch, i)
				x, ok := decimalInt(bi, scale)
				if !ok {
					return inputErrorf(c.file, row+i+1, c.label(), "%v is not a whole number that fits in int64", decimalFloat(bi, scale))
				}
				out[i] = x
			}
		case *array.Null:
		default:
			for i := 0; i < ch.Len(); i++ {
				x, ok := colfile.IntValue(ch, i)
				if !ok {
					u, isU := ch.(*array.Uint64)
					if !isU {
						return c.typeErr("an integer")
					}
					if ch.IsValid(i) {
						return inputErrorf(c.file, row+i+1, c.label(), "%d does not fit in int64", u.Value(i))
					}
				}
				out[i] = x
			}
		}
		row += ch.Len()
	}
	zeroNulls(v, valid)
	col.Values, col.Valid = v, valid
	return nil
}

// int32s converts an integer column (or whole-number float column) whose
// values fit in int32.
func (c *arrowCol) int32s(col *Column[int32]) error {
	if a := alias[*array.Int32](c); a != nil {
		col.Values, col.Valid = a.Int32Values(), c.validity()
		zeroNulls(col.Values, col.Valid)
		return nil
	}
	if len(c.chunks) > 0 {
		if _, ok := c.chunks[0].(*array.Int32); ok && len(c.chunks) == 1 {
			v := make([]int32, c.n)
			copy(v, c.chunks[0].(*array.Int32).Int32Values())
			col.Values, col.Valid = v, c.validity()
			zeroNulls(v, col.Valid)
			return nil
		}
	}
	var wide Column[int64]
	if err := c.int64s(&wide); err != nil {
		return err
	}
	v := make([]int32, c.n)
	for i, x := range wide.Values {
		if x < math.MinInt32 || x > math.MaxInt32 {
			return inputErrorf(c.file, i+1, c.label(), "%d does not fit in int32", x)
		}
		v[i] = int32(x)
	}
	col.Values, col.Valid = v, wide.Valid
	return nil
}

// decimalValue returns element i of a Decimal128 or Decimal256 array as its
// unscaled integer and scale.
func decimalValue(a arrow.Array, i int) (*big.Int, int32) {
	switch d := a.(type) {
	case *array.Decimal128:
		return d.Value(i).BigInt(), d.DataType().(*arrow.Decimal128Type).Scale
	case *array.Decimal256:
		return d.Value(i).BigInt(), d.DataType().(*arrow.Decimal256Type).Scale
	}
	panic("not a decimal array")
}

// pow10 holds the powers of ten that float64 represents exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// decimalFloat returns unscaled·10^-scale rounded to the nearest float64
// (arrow's Num.ToFloat64 multiplies by an inexact 10^-scale): one division
// when both operands are exact in float64, strconv's correctly rounded
// parsing otherwise.
func decimalFloat(unscaled *big.Int, scale int32) float64 {
	if unscaled.IsInt64() {
		if v := unscaled.Int64(); v >= -1<<53 && v <= 1<<53 && scale >= 0 && int(scale) < len(pow10) {
			return float64(v) / pow10[scale]
		}
	}
	f, _ := strconv.ParseFloat(unscaled.String()+"e"+strconv.Itoa(-int(scale)), 64) // ±Inf beyond the range
	return f
}

func abs32(v int32) int32 {
	if v < 0 {
		return -v
	}
	return v
}

// decimalInt returns unscaled·10^-scale when it is a whole number that fits
// in int64.
func decimalInt(unscaled *big.Int, scale int32) (int64, bool) {
	if unscaled.Sign() == 0 {
		return 0, true
	}
	if abs32(scale) > 80 { // |unscaled| < 2^256 < 10^78
		return 0, false
	}
	p := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs32(scale))), nil)
	v := new(big.Int)
	if scale >= 0 {
		var rem big.Int
		v.QuoRem(unscaled, p, &rem)
		if rem.Sign() != 0 {
			return 0, false
		}
	} else {
		v.Mul(unscaled, p)
	}
	if !v.IsInt64() {
		return 0, false
	}
	return v.Int64(), true
}
