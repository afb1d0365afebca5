package data

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/apache/arrow/go/v17/parquet"
	"github.com/apache/arrow/go/v17/parquet/file"
	"github.com/apache/arrow/go/v17/parquet/schema"
)

// arrow-go v17 decodes every Parquet encoding but BYTE_STREAM_SPLIT (its
// column reader answers "unsupported data encoding", an error pqarrow drops,
// returning fewer values than rows). DuckDB writes doubles and floats in
// BYTE_STREAM_SPLIT when asked for parquet_version v2, so this file decodes
// flat fixed-width columns itself (PLAIN, dictionary and BYTE_STREAM_SPLIT
// pages, data pages v1 and v2), and names the encoding and column of
// anything else no decoder here reads.

// Parquet encodings (parquet.thrift, Encoding).
const (
	encPlain                = 0
	encPlainDictionary      = 2
	encRLE                  = 3
	encBitPacked            = 4
	encDeltaBinaryPacked    = 5
	encDeltaLengthByteArray = 6
	encDeltaByteArray       = 7
	encRLEDictionary        = 8
	encByteStreamSplit      = 9
)

// arrowGoDecodes reports whether arrow-go v17's column reader decodes data
// pages of encoding e in columns of physical type t (file/column_reader.go
// initDataDecoder and the decoder traits of internal/encoding).
func arrowGoDecodes(t parquet.Type, e int64) bool {
	switch e {
	case encPlain:
		return true
	case encPlainDictionary, encRLEDictionary:
		return t != parquet.Types.Boolean
	case encRLE:
		return t == parquet.Types.Boolean
	case encDeltaBinaryPacked:
		return t == parquet.Types.Int32 || t == parquet.Types.Int64
	case encDeltaLengthByteArray, encDeltaByteArray:
		return t == parquet.Types.ByteArray
	}
	return false
}

// fixedWidth returns the byte width of the values of a flat (not nested,
// not repeated) FLOAT, DOUBLE, INT32 or INT64 column that decodeFixedWidth
// can read into Arrow type dt, or 0.
func fixedWidth(descr *schema.Column, dt arrow.DataType) int {
	if descr.MaxRepetitionLevel() != 0 || descr.MaxDefinitionLevel() > 1 {
		return 0
	}
	w := 0
	switch descr.PhysicalType() {
	case parquet.Types.Float, parquet.Types.Int32:
		w = 4
	case parquet.Types.Double, parquet.Types.Int64:
		w = 8
	default:
		return 0
	}
	switch dt.ID() {
	case arrow.FLOAT32, arrow.FLOAT64, arrow.INT32, arrow.INT64, arrow.UINT32, arrow.UINT64,
		arrow.DATE32, arrow.DATE64, arrow.TIMESTAMP, arrow.TIME32, arrow.TIME64, arrow.DURATION:
		if fw, ok := dt.(arrow.FixedWidthDataType); ok && fw.BitWidth() == 8*w {
			return w
		}
	}
	return 0
}

// checkEncodings checks the encodings of Parquet leaf column col, as listed
// in its column chunks' metadata (pages false) or as found in its data pages
// (pages true). It reports whether the column needs decodeFixedWidth (it has
// BYTE_STREAM_SPLIT pages and decodeFixedWidth reads it into dt), and an
// error naming any encoding nothing here decodes.
func checkEncodings(pr *file.Reader, col int, dt arrow.DataType, pages bool) (split bool, err error) {
	descr := pr.MetaData().Schema.Column(col)
	t := descr.PhysicalType()
	check := func(e int64) error {
		if arrowGoDecodes(t, e) {
			return nil
		}
		if e == encByteStreamSplit && fixedWidth(descr, dt) > 0 {
			split = true
			return nil
		}
		what := fmt.Sprintf("which schedplan cannot decode in %s columns", t)
		if e == encByteStreamSplit {
			what = "which schedplan decodes only in flat FLOAT, DOUBLE, INT32 and INT64 columns"
		}
		return fmt.Errorf("the Parquet column %s (%s) is in encoding %s, %s; rewrite the file in PLAIN or dictionary encoding (DuckDB: parquet_version v1)",
			strings.Join(descr.ColumnPath(), "."), t, parquet.Encoding(e), what)
	}
	for rg := 0; rg < pr.NumRowGroups(); rg++ {
		if !pages {
			cc, err := pr.MetaData().RowGroup(rg).ColumnChunk(col)
			if err != nil {
				return false, err
			}
			for _, e := range cc.Encodings() {
				if e == parquet.Encodings.RLE || e == parquet.Encodings.BitPacked {
					continue // also the encodings of levels: not telling
				}
				if err := check(int64(e)); err != nil {
					return false, err
				}
			}
			continue
		}
		pgr, err := pr.RowGroup(rg).GetColumnPageReader(col)
		if err != nil {
			return false, err
		}
		for pgr.Next() {
			switch p := pgr.Page().(type) {
			case *file.DataPageV1, *file.DataPageV2:
				if err := check(int64(p.Encoding())); err != nil {
					return false, err
				}
			}
		}
	}
	return split, nil
}

// decodeFixedWidth decodes Parquet leaf column col, a flat FLOAT, DOUBLE,
// INT32 or INT64 column (see fixedWidth), into an Arrow array of type dt.
// It reads PLAIN, PLAIN_DICTIONARY/RLE_DICTIONARY and BYTE_STREAM_SPLIT
// pages, in data pages v1 (levels RLE-encoded with a length prefix) and v2.
// Every length is checked against the page it comes from.
func decodeFixedWidth(pr *file.Reader, col int, dt arrow.DataType, mem memory.Allocator) (arrow.Array, error) {
	descr := pr.MetaData().Schema.Column(col)
	w := fixedWidth(descr, dt)
	if w == 0 {
		return nil, fmt.Errorf("cannot decode Parquet column %s (%s) as %s", strings.Join(descr.ColumnPath(), "."), descr.PhysicalType(), dt)
	}
	n := pr.NumRows()
	if n < 0 || n > int64(maxInt/w) {
		return nil, fmt.Errorf("%d rows (corrupt file?)", n)
	}
	values := mem.Allocate(int(n) * w)
	clear(values)
	nullable := descr.MaxDefinitionLevel() == 1
	var valid Bitmap
	if nullable {
		valid = NewBitmap(int(n))
	}
	row := 0
	var levels []uint8
	for rg := 0; rg < pr.NumRowGroups(); rg++ {
		rgr := pr.RowGroup(rg)
		pgr, err := rgr.GetColumnPageReader(col)
		if err != nil {
			return nil, err
		}
		end := row + int(rgr.NumRows())
		if rgr.NumRows() < 0 || int64(end) > n {
			return nil, fmt.Errorf("row group %d: %d rows, more than the file's %d (corrupt file)", rg, rgr.NumRows(), n)
		}
		var dict []byte
		for pgr.Next() {
			var data, lv []byte
			var nv int
			switch p := pgr.Page().(type) {
			case *file.DictionaryPage:
				if e := int64(p.Encoding()); e != encPlain && e != encPlainDictionary {
					return nil, fmt.Errorf("dictionary page in %s", parquet.Encoding(e))
				}
				k := int(p.NumValues())
				if k < 0 || k > len(p.Data())/w {
					return nil, errors.New("dictionary page shorter than its values (corrupt file)")
				}
				dict = append(dict[:0], p.Data()[:k*w]...)
				continue
			case *file.DataPageV1:
				nv, data = int(p.NumValues()), p.Data()
				if nullable {
					if p.DefinitionLevelEncoding() != parquet.Encodings.RLE {
						return nil, fmt.Errorf("definition levels in %s", p.DefinitionLevelEncoding())
					}
					if len(data) < 4 {
						return nil, errors.New("data page shorter than its levels (corrupt file)")
					}
					l := binary.LittleEndian.Uint32(data)
					if uint64(l) > uint64(len(data)-4) {
						return nil, errors.New("data page shorter than its levels (corrupt file)")
					}
					lv, data = data[4:4+l], data[4+l:]
				}
			case *file.DataPageV2:
				nv, data = int(p.NumValues()), p.Data()
				rl, dl := int64(p.RepetitionLevelByteLen()), int64(p.DefinitionLevelByteLen())
				if rl != 0 || dl < 0 || dl > int64(len(data)) {
					return nil, errors.New("data page shorter than its levels (corrupt file)")
				}
				lv, data = data[:dl], data[dl:]
			default:
				continue
			}
			if nv < 0 || nv > end-row {
				return nil, fmt.Errorf("row group %d: pages hold more values than its %d rows (corrupt file)", rg, rgr.NumRows())
			}
			nonNull := nv
			if nullable {
				if cap(levels) < nv {
					levels = make([]uint8, nv)
				}
				levels = levels[:nv]
				r := rleReader{b: lv, width: 1}
				nonNull = 0
				for i := range levels {
					v, err := r.next()
					if err != nil || v > 1 {
						return nil, fmt.Errorf("definition levels: %v (corrupt file)", errOr(err, "level out of range"))
					}
					levels[i] = uint8(v)
					nonNull += int(v)
				}
			}
			page := make([]byte, nonNull*w) // the page's non-null values, in order
			switch e := int64(pgr.Page().Encoding()); e {
			case encPlain:
				if len(data) < len(page) {
					return nil, errors.New("PLAIN data page shorter than its values (corrupt file)")
				}
				copy(page, data)
			case encByteStreamSplit:
				if err := unsplit(page, data, nonNull, w); err != nil {
					return nil, err
				}
			case encPlainDictionary, encRLEDictionary:
				if len(data) < 1 || data[0] > 32 {
					return nil, errors.New("dictionary indices: bad bit width (corrupt file)")
				}
				r := rleReader{b: data[1:], width: uint(data[0])}
				for i := 0; i < nonNull; i++ {
					k, err := r.next()
					if err != nil || int64(k) >= int64(len(dict)/w) {
						return nil, fmt.Errorf("dictionary indices: %v (corrupt file)", errOr(err, "index out of range"))
					}
					copy(page[i*w:], dict[int(k)*w:int(k+1)*w])
				}
			default:
				return nil, fmt.Errorf("data page in %s", parquet.Encoding(e))
			}
			if !nullable {
				copy(values[row*w:], page)
			} else {
				src := page
				for i, l := range levels {
					if l == 0 {
						valid.SetNull(row + i)
						continue
					}
					copy(values[(row+i)*w:(row+i+1)*w], src[:w])
					src = src[w:]
				}
			}
			row += nv
		}
		if err := pgr.Err(); err != nil {
			return nil, err
		}
		if row != end {
			return nil, fmt.Errorf("row group %d: %d values for %d rows (truncated or corrupt file)", rg, row-(end-int(rgr.NumRows())), rgr.NumRows())
		}
	}
	if int64(row) != n {
		return nil, fmt.Errorf("the row groups hold %d rows, the file declares %d (corrupt file)", row, n)
	}
	nulls := valid.Nulls(int(n))
	var vb *memory.Buffer
	if nulls > 0 {
		vb = memory.NewBufferBytes(bitmapBytes(valid, int(n)))
	}
	d := array.NewData(dt, int(n), []*memory.Buffer{vb, memory.NewBufferBytes(values)}, nil, nulls, 0)
	defer d.Release()
	return array.MakeFromData(d), nil
}

const maxInt = int(^uint(0) >> 1)

func errOr(err error, msg string) any {
	if err != nil {
		return err
	}
	return msg
}

// unsplit writes into out the n values of w bytes that BYTE_STREAM_SPLIT
// stores in data: byte k of value i is data[k·n+i] (Parquet Encodings.md).
func unsplit(out, data []byte, n, w int) error {
	if len(data) < n*w || len(out) < n*w {
		return fmt.Errorf("BYTE_STREAM_SPLIT data page holds %d bytes for %d values of %d bytes (corrupt file)", len(data), n, w)
	}
	for k := 0; k < w; k++ {
		stream := data[k*n : (k+1)*n]
		for i, b := range stream {
			out[i*w+k] = b
		}
	}
	return nil
}

// rleReader reads the RLE/bit-packing hybrid encoding of Parquet levels and
// dictionary indices (Encodings.md): runs, each a ULEB128 header whose low
// bit says bit-packed (groups of 8 values, width bits each, LSB first) or
// repeated (one value in ceil(width/8) bytes).
type rleReader struct {
	b      []byte
	width  uint
	repeat uint64 // values left in the current repeated run
	value  uint32
	packed []byte // the current bit-packed run
	pos    uint64 // next value in packed
	left   uint64 // values left in packed
}

var errRLEShort = errors.New("RLE data ends before its values")

func (r *rleReader) next() (uint32, error) {
	for r.repeat == 0 && r.left == 0 {
		h, k := binary.Uvarint(r.b)
		if k <= 0 {
			return 0, errRLEShort
		}
		r.b = r.b[k:]
		if h&1 == 0 {
			nb := int(r.width+7) / 8
			if len(r.b) < nb {
				return 0, errRLEShort
			}
			var v uint64
			for i := 0; i < nb; i++ {
				v |= uint64(r.b[i]) << (8 * i)
			}
			r.b = r.b[nb:]
			r.repeat, r.value = h>>1, uint32(v)
			continue
		}
		groups := h >> 1
		nb := uint64(len(r.b))
		if r.width > 0 && groups <= nb/uint64(r.width) {
			nb = groups * uint64(r.width)
		}
		r.packed, r.b, r.pos = r.b[:nb], r.b[nb:], 0
		r.left = groups * 8
		if r.width > 0 {
			r.left = min(r.left, nb*8/uint64(r.width)) // a run cut short by the end of the data
		}
	}
	if r.repeat > 0 {
		r.repeat--
		return r.value, nil
	}
	r.left--
	if r.width == 0 {
		return 0, nil
	}
	bit := r.pos * uint64(r.width)
	r.pos++
	var v uint64
	for got := uint(0); got < r.width; {
		byteAt, off := bit/8, uint(bit%8)
		take := min(8-off, r.width-got)
		v |= uint64(r.packed[byteAt]>>off&(1<<take-1)) << got
		got += take
		bit += uint64(take)
	}
	return uint32(v & (1<<r.width - 1)), nil
}
