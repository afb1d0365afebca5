package colfile

import (
	"bufio"
	"errors"
	"fmt"
	"hash/crc32"
	"io"

	"github.com/apache/arrow/go/v17/parquet/file"
)

// Parquet page checksums. A page header may carry the CRC-32 (the gzip
// polynomial, hash/crc32's IEEE) of the page's bytes as stored: after
// compression, levels included for data pages v2 (parquet.thrift
// PageHeader.crc). parquet-mr writes it by default since 1.12
// (parquet.page.write-checksum.enabled), pyarrow with
// write_page_checksum=True. arrow-go v17 neither writes nor verifies it,
// so a flipped byte in a page either fails to decode or — in a plain page
// of numbers — reads as a different value. verifyPageCRCs checks every
// page of a column chunk whose header has a CRC before the chunk is
// decoded; pages without one are read unchecked (the format makes the CRC
// optional, and then nothing can tell a flipped byte), and a chunk whose
// first page has none is not read here at all.

// errPageCRC is the error of a page whose bytes do not match its CRC.
var errPageCRC = errors.New("page checksum (CRC-32) mismatch: the file is corrupt")

// verifyPageCRCs checks the CRCs of the pages of column leaf in the given
// row groups.
func verifyPageCRCs(r io.ReaderAt, pr *file.Reader, leaf int, groups []int) error {
	md := pr.MetaData()
	var buf []byte
	chunk := bufio.NewReaderSize(nil, 64<<10) // Reset to each chunk
	for _, g := range groups {
		cc, err := md.RowGroup(g).ColumnChunk(leaf)
		if err != nil {
			return err
		}
		start := cc.DataPageOffset()
		if cc.HasDictionaryPage() && cc.DictionaryPageOffset() > 0 && cc.DictionaryPageOffset() < start {
			start = cc.DictionaryPageOffset()
		}
		total := cc.TotalCompressedSize()
		if start < 0 || total <= 0 {
			continue // arrow-go reports the bad frame when it reads the chunk
		}
		chunk.Reset(io.NewSectionReader(r, start, total))
		br := &countingReader{r: chunk}
		for page := 0; br.n < total; page++ {
			h, err := readPageHeader(br)
			if err != nil || h.size < 0 || h.size > total-br.n {
				// A damaged frame is arrow-go's to report, as it
				// would without checksums; only CRCs are checked here.
				break
			}
			if !h.hasCRC {
				if page == 0 {
					// Writers checksum all pages or none: a chunk
					// whose first page has none costs one header.
					break
				}
				if _, err := br.discard(h.size); err != nil {
					break
				}
				continue
			}
			if int64(cap(buf)) < h.size {
				buf = make([]byte, h.size)
			}
			b := buf[:h.size]
			if _, err := io.ReadFull(br, b); err != nil {
				break
			}
			if crc32.ChecksumIEEE(b) != h.crc {
				return fmt.Errorf("row group %d, page %d at byte %d: %w", g, page, start+br.n-h.size, errPageCRC)
			}
		}
	}
	return nil
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r *bufio.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	k, err := c.r.Read(p)
	c.n += int64(k)
	return k, err
}

func (c *countingReader) ReadByte() (byte, error) {
	b, err := c.r.ReadByte()
	if err == nil {
		c.n++
	}
	return b, err
}

func (c *countingReader) discard(n int64) (int64, error) {
	k, err := io.CopyN(io.Discard, c, n)
	return k, err
}

// pageHeader is what verifyPageCRCs needs of a PageHeader.
type pageHeader struct {
	size   int64 // compressed_page_size
	crc    uint32
	hasCRC bool
}

// readPageHeader reads a thrift compact-protocol PageHeader, keeping
// compressed_page_size (field 3) and crc (field 4) and skipping the rest.
func readPageHeader(r *countingReader) (pageHeader, error) {
	var h pageHeader
	sawSize := false
	last := int16(0)
	for {
		id, typ, err := compactField(r, &last)
		if err != nil {
			return h, err
		}
		if typ == compactStop {
			break
		}
		switch {
		case id == 3 && typ == compactI32:
			v, err := compactInt(r)
			if err != nil {
				return h, err
			}
			h.size, sawSize = v, true
		case id == 4 && typ == compactI32:
			v, err := compactInt(r)
			if err != nil {
				return h, err
			}
			h.crc, h.hasCRC = uint32(int32(v)), true
		default:
			if err := compactSkip(r, typ, 0); err != nil {
				return h, err
			}
		}
	}
	if !sawSize {
		return h, errors.New("no compressed_page_size")
	}
	return h, nil
}

// Thrift compact-protocol types.
const (
	compactStop   = 0
	compactTrue   = 1
	compactFalse  = 2
	compactByte   = 3
	compactI16    = 4
	compactI32    = 5
	compactI64    = 6
	compactDouble = 7
	compactBinary = 8
	compactList   = 9
	compactSet    = 10
	compactMap    = 11
	compactStruct = 12
)

// compactField reads a field header: its id (from the delta to last, or
// given in full) and type.
func compactField(r *countingReader, last *int16) (int16, byte, error) {
	b, err := r.ReadByte()
	if err != nil {
		return 0, 0, err
	}
	typ := b & 0x0f
	if typ == compactStop {
		return 0, compactStop, nil
	}
	if d := b >> 4; d != 0 {
		*last += int16(d)
	} else {
		v, err := compactInt(r)
		if err != nil {
			return 0, 0, err
		}
		*last = int16(v)
	}
	return *last, typ, nil
}

// compactInt reads a zigzag varint.
func compactInt(r *countingReader) (int64, error) {
	u, err := compactUvarint(r)
	return int64(u>>1) ^ -int64(u&1), err
}

func compactUvarint(r *countingReader) (uint64, error) {
	var u uint64
	for shift := uint(0); shift < 64; shift += 7 {
		b, err := r.ReadByte()
		if err != nil {
			return 0, err
		}
		u |= uint64(b&0x7f) << shift
		if b < 0x80 {
			return u, nil
		}
	}
	return 0, errors.New("varint too long")
}

// compactSkip skips a value of type typ; depth bounds nesting.
func compactSkip(r *countingReader, typ byte, depth int) error {
	if depth > 32 {
		return errors.New("nested too deep")
	}
	switch typ {
	case compactTrue, compactFalse:
		return nil
	case compactByte:
		_, err := r.ReadByte()
		return err
	case compactI16, compactI32, compactI64:
		_, err := compactUvarint(r)
		return err
	case compactDouble:
		_, err := r.discard(8)
		return err
	case compactBinary:
		n, err := compactUvarint(r)
		if err != nil {
			return err
		}
		if n > 1<<31 {
			return errors.New("binary field too long")
		}
		_, err = r.discard(int64(n))
		return err
	case compactList, compactSet:
		b, err := r.ReadByte()
		if err != nil {
			return err
		}
		n, elem := uint64(b>>4), b&0x0f
		if n == 15 {
			if n, err = compactUvarint(r); err != nil {
				return err
			}
		}
		for ; n > 0; n-- {
			if elem == compactTrue || elem == compactFalse { // a bool element is a byte
				if _, err := r.ReadByte(); err != nil {
					return err
				}
				continue
			}
			if err := compactSkip(r, elem, depth+1); err != nil {
				return err
			}
		}
		return nil
	case compactMap:
		n, err := compactUvarint(r)
		if err != nil || n == 0 {
			return err
		}
		kv, err := r.ReadByte()
		if err != nil {
			return err
		}
		for ; n > 0; n-- {
			if err := compactSkip(r, kv>>4, depth+1); err != nil {
				return err
			}
			if err := compactSkip(r, kv&0x0f, depth+1); err != nil {
				return err
			}
		}
		return nil
	case compactStruct:
		last := int16(0)
		for {
			_, t, err := compactField(r, &last)
			if err != nil {
				return err
			}
			if t == compactStop {
				return nil
			}
			if err := compactSkip(r, t, depth+1); err != nil {
				return err
			}
		}
	}
	return fmt.Errorf("unknown thrift type %d", typ)
}
