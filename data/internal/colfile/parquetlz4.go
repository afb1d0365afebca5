package colfile

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow/go/v17/parquet/compress"
	"github.com/pierrec/lz4/v4"
)

// arrow-go v17 registers the Parquet codecs Snappy, Gzip, Brotli and Zstd
// but not LZ4_RAW (Parquet format 2.9's LZ4 block without framing, which
// DuckDB writes with COMPRESSION lz4_raw and Arrow C++ ≥ 7 with
// compression="lz4") nor the deprecated LZ4 (Arrow C++'s Hadoop framing,
// with the raw block as the fallback, as Arrow C++'s Lz4HadoopCodec reads
// it). This file registers both, on github.com/pierrec/lz4/v4's block
// format, so that every codec a producer writes reads.

// Parquet's compression codec numbers (parquet.thrift CompressionCodec).
const (
	ParquetLZ4    = compress.Compression(5)
	ParquetLZ4Raw = compress.Compression(7)
)

func init() {
	compress.RegisterCodec(ParquetLZ4Raw, lz4RawCodec{})
	compress.RegisterCodec(ParquetLZ4, lz4HadoopCodec{})
}

// lz4RawCodec is Parquet's LZ4_RAW: one LZ4 block per page.
type lz4RawCodec struct{}

// Decode decodes src into dst, whose length is the page's uncompressed
// size. arrow-go's codecs panic on corrupt input; the readers recover the
// panic into an error naming the file.
func (lz4RawCodec) Decode(dst, src []byte) []byte {
	n, err := lz4.UncompressBlock(src, dst)
	if err != nil {
		panic(fmt.Errorf("LZ4_RAW page: %w", err))
	}
	if dst != nil && n != len(dst) {
		panic(fmt.Errorf("LZ4_RAW page: %d bytes decoded, the page header says %d", n, len(dst)))
	}
	return dst[:n]
}

// Encode compresses src as one LZ4 block (arrow-go's writer calls it; the
// tests write LZ4_RAW files with it).
func (c lz4RawCodec) Encode(dst, src []byte) []byte {
	bound := lz4.CompressBlockBound(len(src))
	if cap(dst) < bound {
		dst = make([]byte, bound)
	}
	dst = dst[:bound]
	n, err := lz4.CompressBlock(src, dst, nil)
	if err != nil {
		panic(err)
	}
	if n == 0 { // incompressible: a block of literals only
		return lz4Literals(dst[:0], src)
	}
	return dst[:n]
}

// lz4Literals appends src as an LZ4 block of one literal run.
func lz4Literals(dst, src []byte) []byte {
	n := len(src)
	if n < 15 {
		return append(append(dst, byte(n<<4)), src...)
	}
	dst = append(dst, 0xf0)
	for n -= 15; n >= 255; n -= 255 {
		dst = append(dst, 255)
	}
	return append(append(dst, byte(n)), src...)
}

func (c lz4RawCodec) EncodeLevel(dst, src []byte, _ int) []byte { return c.Encode(dst, src) }

func (lz4RawCodec) CompressBound(n int64) int64 { return int64(lz4.CompressBlockBound(int(n))) }

var errLZ4Stream = errors.New("LZ4 Parquet pages are blocks, not streams")

func (lz4RawCodec) NewReader(io.Reader) io.ReadCloser { return errReadCloser{errLZ4Stream} }

func (lz4RawCodec) NewWriter(io.Writer) io.WriteCloser { return errWriteCloser{errLZ4Stream} }

func (lz4RawCodec) NewWriterLevel(io.Writer, int) (io.WriteCloser, error) {
	return nil, errLZ4Stream
}

// lz4HadoopCodec is Parquet's deprecated LZ4: blocks each preceded by
// their decompressed and compressed sizes (4 bytes each, big-endian), as
// Hadoop's Lz4Codec writes them; a page that does not parse so is one raw
// block (older Arrow C++ wrote that).
type lz4HadoopCodec struct{ lz4RawCodec }

func (c lz4HadoopCodec) Decode(dst, src []byte) []byte {
	if n, ok := lz4HadoopDecode(dst, src); ok {
		return dst[:n]
	}
	return c.lz4RawCodec.Decode(dst, src)
}

func lz4HadoopDecode(dst, src []byte) (int, bool) {
	n := 0
	for len(src) > 0 {
		if len(src) < 8 {
			return 0, false
		}
		raw := int(binary.BigEndian.Uint32(src))
		size := int(binary.BigEndian.Uint32(src[4:]))
		src = src[8:]
		if size > len(src) || raw > len(dst)-n {
			return 0, false
		}
		k, err := lz4.UncompressBlock(src[:size], dst[n:n+raw])
		if err != nil || k != raw {
			return 0, false
		}
		n += k
		src = src[size:]
	}
	return n, n == len(dst)
}

// Encode writes one Hadoop-framed block.
func (c lz4HadoopCodec) Encode(dst, src []byte) []byte {
	block := c.lz4RawCodec.Encode(nil, src)
	out := binary.BigEndian.AppendUint32(dst[:0], uint32(len(src)))
	out = binary.BigEndian.AppendUint32(out, uint32(len(block)))
	return append(out, block...)
}

func (c lz4HadoopCodec) EncodeLevel(dst, src []byte, _ int) []byte { return c.Encode(dst, src) }

func (c lz4HadoopCodec) CompressBound(n int64) int64 { return c.lz4RawCodec.CompressBound(n) + 8 }

type errReadCloser struct{ err error }

func (e errReadCloser) Read([]byte) (int, error) { return 0, e.err }
func (e errReadCloser) Close() error             { return nil }

type errWriteCloser struct{ err error }

func (e errWriteCloser) Write([]byte) (int, error) { return 0, e.err }
func (e errWriteCloser) Close() error              { return nil }
