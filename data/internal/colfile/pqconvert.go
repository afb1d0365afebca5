package colfile

import (
	"encoding/binary"
	"fmt"
	"unsafe"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/bitutil"
	"github.com/apache/arrow/go/v17/arrow/decimal128"
	"github.com/apache/arrow/go/v17/arrow/decimal256"
	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/apache/arrow/go/v17/parquet"
	"github.com/apache/arrow/go/v17/parquet/file"
)

// toArrow turns what rr decoded (n values of one column chunk) into Arrow
// arrays of type dt: the value buffers of numbers that Arrow holds as
// Parquet does are handed over without a copy; narrower integers,
// booleans, INT96 timestamps and decimals are converted.
func toArrow(rr file.RecordReader, dt arrow.DataType, n int) ([]arrow.Array, error) {
	if br, ok := rr.(file.BinaryRecordReader); ok {
		chunks := br.GetBuilderChunks()
		if dt.ID() != arrow.DECIMAL128 && dt.ID() != arrow.DECIMAL256 {
			for k, c := range chunks { // a binary builder's strings: *array.String
				chunks[k] = array.MakeFromData(c.Data())
				c.Release()
			}
			return chunks, nil
		}
		out := make([]arrow.Array, 0, len(chunks))
		var err error
		for _, c := range chunks {
			var a arrow.Array
			if err == nil {
				a, err = bytesToDecimal(c, dt)
			}
			c.Release()
			if err == nil {
				out = append(out, a)
			}
		}
		if err != nil {
			for _, a := range out {
				a.Release()
			}
			return nil, err
		}
		return out, nil
	}
	valid := rr.ReleaseValidBits()
	values := rr.ReleaseValues()
	defer func() {
		if valid != nil {
			valid.Release()
		}
		values.Release()
	}()
	nulls := int(rr.NullCount())
	if valid != nil && int64(len(valid.Bytes())) < bitutil.BytesForBits(int64(n)) || len(values.Bytes()) < n*physicalWidth(rr.Type()) {
		return nil, fmt.Errorf("%d values decoded for %d rows", len(values.Bytes())/max(physicalWidth(rr.Type()), 1), n)
	}
	buf := values
	switch dt.ID() {
	case arrow.NULL:
		return []arrow.Array{array.NewNull(n)}, nil
	case arrow.BOOL:
		bits := make([]byte, bitutil.BytesForBits(int64(n)))
		for i, b := range values.Bytes()[:n] {
			if b != 0 {
				bitutil.SetBit(bits, i)
			}
		}
		buf = memory.NewBufferBytes(bits)
	case arrow.INT8:
		buf = narrow[int8](values.Bytes(), n)
	case arrow.UINT8:
		buf = narrow[uint8](values.Bytes(), n)
	case arrow.INT16:
		buf = narrow[int16](values.Bytes(), n)
	case arrow.UINT16:
		buf = narrow[uint16](values.Bytes(), n)
	case arrow.DECIMAL128, arrow.DECIMAL256:
		buf = intsToDecimal(values.Bytes(), n, rr.Type(), dt.ID() == arrow.DECIMAL256)
	case arrow.TIMESTAMP:
		if rr.Type() == parquet.Types.Int96 {
			buf = int96ToNanos(values.Bytes(), n)
		}
	}
	d := array.NewData(dt, n, []*memory.Buffer{valid, buf}, nil, nulls, 0)
	defer d.Release()
	return []arrow.Array{array.MakeFromData(d)}, nil
}

// physicalWidth is the bytes a decoded value of physical type t takes in a
// record reader's value buffer.
func physicalWidth(t parquet.Type) int {
	switch t {
	case parquet.Types.Boolean:
		return 1
	case parquet.Types.Int32, parquet.Types.Float:
		return 4
	case parquet.Types.Int96:
		return 12
	}
	return 8
}

// narrow converts n int32 values (little-endian bytes) to T.
func narrow[T int8 | uint8 | int16 | uint16](b []byte, n int) *memory.Buffer {
	in := arrow.Int32Traits.CastFromBytes(b)[:n]
	out := make([]T, n)
	for i, v := range in {
		out[i] = T(v)
	}
	return memory.NewBufferBytes(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(out))), n*int(unsafe.Sizeof(out[0]))))
}

// int96ToNanos converts n INT96 timestamps to nanoseconds since the epoch.
func int96ToNanos(b []byte, n int) *memory.Buffer {
	out := make([]int64, n)
	for i := range out {
		v := parquet.Int96(b[12*i : 12*i+12])
		if v != (parquet.Int96{}) {
			out[i] = v.ToTime().UnixNano()
		}
	}
	return memory.NewBufferBytes(arrow.Int64Traits.CastToBytes(out))
}

// intsToDecimal converts n INT32 or INT64 unscaled decimals to Arrow's
// 128- or 256-bit ones.
func intsToDecimal(b []byte, n int, t parquet.Type, wide bool) *memory.Buffer {
	at := func(i int) int64 {
		if t == parquet.Types.Int32 {
			return int64(int32(binary.LittleEndian.Uint32(b[4*i:])))
		}
		return int64(binary.LittleEndian.Uint64(b[8*i:]))
	}
	if wide {
		out := make([]decimal256.Num, n)
		for i := range out {
			out[i] = decimal256.FromI64(at(i))
		}
		return memory.NewBufferBytes(arrow.Decimal256Traits.CastToBytes(out))
	}
	out := make([]decimal128.Num, n)
	for i := range out {
		out[i] = decimal128.FromI64(at(i))
	}
	return memory.NewBufferBytes(arrow.Decimal128Traits.CastToBytes(out))
}

// bytesToDecimal converts a binary or fixed-size binary array of unscaled
// decimals (big-endian two's complement) to Arrow decimals of type dt.
func bytesToDecimal(a arrow.Array, dt arrow.DataType) (arrow.Array, error) {
	width := 16
	if dt.ID() == arrow.DECIMAL256 {
		width = 32
	}
	out := make([]byte, width*a.Len())
	var be [32]byte
	for i := 0; i < a.Len(); i++ {
		if a.IsNull(i) {
			continue
		}
		var v []byte
		switch c := a.(type) {
		case *array.Binary:
			v = c.Value(i)
		case *array.FixedSizeBinary:
			v = c.Value(i)
		default:
			return nil, fmt.Errorf("decimals stored as %s", a.DataType())
		}
		if len(v) > width {
			return nil, fmt.Errorf("row %d: a decimal of %d bytes, more than %d", i+1, len(v), width)
		}
		fill := byte(0)
		if len(v) > 0 && v[0]&0x80 != 0 {
			fill = 0xff
		}
		for k := 0; k < width-len(v); k++ {
			be[k] = fill
		}
		copy(be[width-len(v):width], v)
		// Arrow's decimals are little-endian words, least significant first.
		for w := 0; w < width/8; w++ {
			word := binary.BigEndian.Uint64(be[width-8*(w+1) : width-8*w])
			binary.LittleEndian.PutUint64(out[i*width+8*w:], word)
		}
	}
	var valid *memory.Buffer
	if a.NullN() > 0 {
		bits := make([]byte, bitutil.BytesForBits(int64(a.Len())))
		for i := 0; i < a.Len(); i++ {
			if a.IsValid(i) {
				bitutil.SetBit(bits, i)
			}
		}
		valid = memory.NewBufferBytes(bits)
	}
	d := array.NewData(dt, a.Len(), []*memory.Buffer{valid, memory.NewBufferBytes(out)}, nil, a.NullN(), 0)
	defer d.Release()
	return array.MakeFromData(d), nil
}
