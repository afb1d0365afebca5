package colfile

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"unsafe"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/apache/arrow/go/v17/parquet"
	"github.com/apache/arrow/go/v17/parquet/file"
)

// plainStrings reads a flat, required BYTE_ARRAY column chunk read as
// strings whose data pages are all PLAIN (a job id column) straight from
// its pages into Arrow string arrays, a batch of rows at a time: each value
// is copied once, into the array's data buffer. arrow-go's record reader
// first makes a []parquet.ByteArray of the page (a pointer store per value,
// each with a write barrier while the collector runs) and appends each to
// a string builder: most of the scan's decoding time of a job id column.
type plainStrings struct {
	pgr    file.PageReader
	dt     arrow.DataType
	values []byte  // the current page's values not read yet
	left   int     // how many
	avg    float64 // bytes per value of the last page, for the next buffer
}

// newPlainStrings returns a plainStrings of field f in row group rg, or
// nil when the column chunk is not one it reads: not a flat required
// BYTE_ARRAY column read as strings, or with a dictionary page or an
// encoding other than PLAIN listed (levels' RLE and BIT_PACKED aside).
func newPlainStrings(pr *file.Reader, f ParquetField, rg int) (*plainStrings, error) {
	if len(f.Leaves) != 1 || f.Type == nil || f.Type.ID() != arrow.STRING {
		return nil, nil
	}
	leaf := f.Leaves[0]
	descr := pr.MetaData().Schema.Column(leaf)
	if descr.PhysicalType() != parquet.Types.ByteArray || descr.MaxDefinitionLevel() != 0 || descr.MaxRepetitionLevel() != 0 {
		return nil, nil
	}
	cc, err := pr.MetaData().RowGroup(rg).ColumnChunk(leaf)
	if err != nil {
		return nil, err
	}
	if cc.HasDictionaryPage() {
		return nil, nil
	}
	for _, e := range cc.Encodings() {
		if e != parquet.Encodings.Plain && e != parquet.Encodings.RLE && e != parquet.Encodings.BitPacked {
			return nil, nil
		}
	}
	pgr, err := pr.RowGroup(rg).GetColumnPageReader(leaf)
	if err != nil {
		return nil, err
	}
	return &plainStrings{pgr: pgr, dt: f.Type}, nil
}

// errPlainShort is plainStrings' report of a page whose values end early.
var errPlainShort = errors.New("a PLAIN page shorter than its values (corrupt file)")

// read decodes the next n rows into a string array.
func (p *plainStrings) read(n int) (arrow.Array, error) {
	offsets := make([]int32, n+1)
	var data []byte
	v, left := p.values, p.left // locals: no write barrier per value
	for i := 0; i < n; {
		if left == 0 {
			if err := p.next(); err != nil {
				return nil, err
			}
			v, left = p.values, p.left
			continue
		}
		if data == nil { // room for n values like the last page's, within its size
			data = make([]byte, 0, int(min(p.avg*float64(n-i)*17/16, float64(len(v))))+64)
		}
		if len(v) < 4 {
			return nil, errPlainShort
		}
		l := binary.LittleEndian.Uint32(v)
		if uint64(l) > uint64(len(v)-4) {
			return nil, errPlainShort
		}
		if int64(len(data))+int64(l) > math.MaxInt32 {
			return nil, fmt.Errorf("more than 2 GiB of strings in %d rows", n)
		}
		data = append(data, v[4:4+l]...)
		i++
		offsets[i] = int32(len(data))
		v, left = v[4+l:], left-1
	}
	p.values, p.left = v, left
	ob := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(offsets))), 4*len(offsets))
	d := array.NewData(p.dt, n, []*memory.Buffer{nil, memory.NewBufferBytes(ob), memory.NewBufferBytes(data)}, nil, 0, 0)
	defer d.Release()
	return array.MakeFromData(d), nil
}

// next moves to the next data page, which must be PLAIN; other pages
// (index pages) are skipped.
func (p *plainStrings) next() error {
	for p.pgr.Next() {
		var nv int
		var data []byte
		var err error
		switch pg := p.pgr.Page().(type) {
		case *file.DataPageV1:
			nv, data = int(pg.NumValues()), pg.Data()
		case *file.DataPageV2:
			nv, _, data, err = splitV2(pg)
		case *file.DictionaryPage:
			return errors.New("a dictionary page the column chunk's metadata does not declare (corrupt file)")
		default:
			continue
		}
		if err != nil {
			return err
		}
		if e := int64(p.pgr.Page().Encoding()); e != encPlain {
			return fmt.Errorf("a data page in %s the column chunk's metadata does not list (corrupt file)", parquet.Encoding(e))
		}
		if nv < 0 || nv > len(data)/4 {
			return errPlainShort
		}
		p.values, p.left = data, nv
		if nv > 0 {
			p.avg = float64(len(data)-4*nv) / float64(nv)
		}
		return nil
	}
	if err := p.pgr.Err(); err != nil {
		return err
	}
	return errors.New("fewer values than rows (truncated or corrupt file)")
}
