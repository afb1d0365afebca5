package colfile

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/bitutil"
	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/apache/arrow/go/v17/parquet"
	"github.com/apache/arrow/go/v17/parquet/file"
	"github.com/apache/arrow/go/v17/parquet/schema"
)

// arrow-go v17 decodes every Parquet encoding but BYTE_STREAM_SPLIT (its
// column reader answers "unsupported data encoding", an error its record
// reader drops, returning fewer values than rows). DuckDB writes doubles and floats in
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
// not repeated) FLOAT, DOUBLE, INT32 or INT64 column that DecodeFixedWidth
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
// (pages true). It reports whether the column needs DecodeFixedWidth (it has
// BYTE_STREAM_SPLIT pages and DecodeFixedWidth reads it into dt), and an
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

// DecodeFixedWidth decodes Parquet leaf column col, a flat FLOAT, DOUBLE,
// INT32 or INT64 column (see fixedWidth), into an Arrow array of type dt.
// It reads PLAIN, PLAIN_DICTIONARY/RLE_DICTIONARY and BYTE_STREAM_SPLIT
// pages, in data pages v1 (levels RLE-encoded with a length prefix) and v2.
// Every length is checked against the page it comes from.
func DecodeFixedWidth(pr *file.Reader, col int, dt arrow.DataType, mem memory.Allocator) (arrow.Array, error) {
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
	var valid []byte // an Arrow validity bitmap, all valid at first
	if nullable {
		valid = make([]byte, bitutil.BytesForBits(n))
		bitutil.SetBitsTo(valid, 0, n, true)
	}
	dec := fixedWidthDecoder{w: w, nullable: nullable, values: values, valid: valid}
	for rg := 0; rg < pr.NumRowGroups(); rg++ {
		if err := dec.rowGroup(pr.RowGroup(rg), rg, col, n); err != nil {
			return nil, err
		}
	}
	row := dec.row
	if int64(row) != n {
		return nil, fmt.Errorf("the row groups hold %d rows, the file declares %d (corrupt file)", row, n)
	}
	nulls := 0
	if valid != nil {
		nulls = int(n) - bitutil.CountSetBits(valid, 0, int(n))
	}
	var vb *memory.Buffer
	if nulls > 0 {
		vb = memory.NewBufferBytes(valid)
	}
	d := array.NewData(dt, int(n), []*memory.Buffer{vb, memory.NewBufferBytes(values)}, nil, nulls, 0)
	defer d.Release()
	return array.MakeFromData(d), nil
}

// fixedWidthDecoder is DecodeFixedWidth's state: the column's values and
// validity so far, and scratch space reused across pages.
type fixedWidthDecoder struct {
	w        int    // bytes per value
	nullable bool   // the column has definition levels (0 null, 1 present)
	values   []byte // all rows' values, w bytes each
	valid    []byte // rows' validity (an Arrow bitmap), if nullable
	row      int    // rows decoded so far
	levels   []uint8
	dict     []byte // the row group's dictionary values, w bytes each
}

// rowGroup decodes the pages of column col in row group rg (rgr) of a file
// of n rows.
func (d *fixedWidthDecoder) rowGroup(rgr *file.RowGroupReader, rg, col int, n int64) error {
	pgr, err := rgr.GetColumnPageReader(col)
	if err != nil {
		return err
	}
	end := d.row + int(rgr.NumRows())
	if rgr.NumRows() < 0 || int64(end) > n {
		return fmt.Errorf("row group %d: %d rows, more than the file's %d (corrupt file)", rg, rgr.NumRows(), n)
	}
	d.dict = d.dict[:0]
	for pgr.Next() {
		if err := d.page(pgr.Page(), rg, end, rgr.NumRows()); err != nil {
			return err
		}
	}
	if err := pgr.Err(); err != nil {
		return err
	}
	if d.row != end {
		return fmt.Errorf("row group %d: %d values for %d rows (truncated or corrupt file)", rg, d.row-(end-int(rgr.NumRows())), rgr.NumRows())
	}
	return nil
}

// page decodes one page of row group rg (rgRows rows, ending at row end):
// a dictionary page is kept for the data pages that follow, a data page's
// values are stored from row d.row on; other pages are skipped.
func (d *fixedWidthDecoder) page(pg file.Page, rg, end int, rgRows int64) error {
	var data, lv []byte
	var nv int
	var err error
	switch p := pg.(type) {
	case *file.DictionaryPage:
		return d.dictionary(p)
	case *file.DataPageV1:
		nv, lv, data, err = d.splitV1(p)
	case *file.DataPageV2:
		nv, lv, data, err = splitV2(p)
	default:
		return nil
	}
	if err != nil {
		return err
	}
	if nv < 0 || nv > end-d.row {
		return fmt.Errorf("row group %d: pages hold more values than its %d rows (corrupt file)", rg, rgRows)
	}
	nonNull := nv
	if d.nullable {
		if nonNull, err = d.readLevels(lv, nv); err != nil {
			return err
		}
	}
	page := make([]byte, nonNull*d.w) // the page's non-null values, in order
	if err := d.decodeValues(page, data, int64(pg.Encoding()), nonNull); err != nil {
		return err
	}
	d.store(page, nv)
	return nil
}

// dictionary keeps a dictionary page's values.
func (d *fixedWidthDecoder) dictionary(p *file.DictionaryPage) error {
	if e := int64(p.Encoding()); e != encPlain && e != encPlainDictionary {
		return fmt.Errorf("dictionary page in %s", parquet.Encoding(e))
	}
	k := int(p.NumValues())
	if k < 0 || k > len(p.Data())/d.w {
		return errors.New("dictionary page shorter than its values (corrupt file)")
	}
	d.dict = append(d.dict[:0], p.Data()[:k*d.w]...)
	return nil
}

// splitV1 splits a v1 data page into its value count, its definition levels
// (RLE with a 4-byte length prefix, present if the column is nullable) and
// its values.
func (d *fixedWidthDecoder) splitV1(p *file.DataPageV1) (nv int, lv, data []byte, err error) {
	nv, data = int(p.NumValues()), p.Data()
	if !d.nullable {
		return nv, nil, data, nil
	}
	if p.DefinitionLevelEncoding() != parquet.Encodings.RLE {
		return 0, nil, nil, fmt.Errorf("definition levels in %s", p.DefinitionLevelEncoding())
	}
	if len(data) < 4 {
		return 0, nil, nil, errors.New("data page shorter than its levels (corrupt file)")
	}
	l := binary.LittleEndian.Uint32(data)
	if uint64(l) > uint64(len(data)-4) {
		return 0, nil, nil, errors.New("data page shorter than its levels (corrupt file)")
	}
	return nv, data[4 : 4+l], data[4+l:], nil
}

// splitV2 splits a v2 data page into its value count, its definition levels
// and its values; a flat column has no repetition levels.
func splitV2(p *file.DataPageV2) (nv int, lv, data []byte, err error) {
	nv, data = int(p.NumValues()), p.Data()
	rl, dl := int64(p.RepetitionLevelByteLen()), int64(p.DefinitionLevelByteLen())
	if rl != 0 || dl < 0 || dl > int64(len(data)) {
		return 0, nil, nil, errors.New("data page shorter than its levels (corrupt file)")
	}
	return nv, data[:dl], data[dl:], nil
}

// readLevels decodes nv definition levels (bit width 1) from lv into
// d.levels and returns how many are 1 (values present).
func (d *fixedWidthDecoder) readLevels(lv []byte, nv int) (nonNull int, err error) {
	if cap(d.levels) < nv {
		d.levels = make([]uint8, nv)
	}
	d.levels = d.levels[:nv]
	r := rleReader{b: lv, width: 1}
	for i := range d.levels {
		v, err := r.next()
		if err != nil || v > 1 {
			return 0, fmt.Errorf("definition levels: %v (corrupt file)", errOr(err, "level out of range"))
		}
		d.levels[i] = uint8(v)
		nonNull += int(v)
	}
	return nonNull, nil
}

// decodeValues decodes a data page's nonNull values, in encoding enc, from
// data into page (nonNull*d.w bytes).
func (d *fixedWidthDecoder) decodeValues(page, data []byte, enc int64, nonNull int) error {
	w := d.w
	switch enc {
	case encPlain:
		if len(data) < len(page) {
			return errors.New("PLAIN data page shorter than its values (corrupt file)")
		}
		copy(page, data)
	case encByteStreamSplit:
		return unsplit(page, data, nonNull, w)
	case encPlainDictionary, encRLEDictionary:
		if len(data) < 1 || data[0] > 32 {
			return errors.New("dictionary indices: bad bit width (corrupt file)")
		}
		r := rleReader{b: data[1:], width: uint(data[0])}
		for i := 0; i < nonNull; i++ {
			k, err := r.next()
			if err != nil || int64(k) >= int64(len(d.dict)/w) {
				return fmt.Errorf("dictionary indices: %v (corrupt file)", errOr(err, "index out of range"))
			}
			copy(page[i*w:], d.dict[int(k)*w:int(k+1)*w])
		}
	default:
		return fmt.Errorf("data page in %s", parquet.Encoding(enc))
	}
	return nil
}

// store puts a page's non-null values (page) into rows d.row..d.row+nv-1,
// marking the rows whose definition level is 0 null, and moves d.row on.
func (d *fixedWidthDecoder) store(page []byte, nv int) {
	w, row := d.w, d.row
	if !d.nullable {
		copy(d.values[row*w:], page)
	} else {
		src := page
		for i, l := range d.levels {
			if l == 0 {
				bitutil.ClearBit(d.valid, row+i)
				continue
			}
			copy(d.values[(row+i)*w:(row+i+1)*w], src[:w])
			src = src[w:]
		}
	}
	d.row += nv
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
