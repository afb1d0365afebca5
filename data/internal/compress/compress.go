package compress

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"

	"archive/tar"

	"github.com/klauspost/compress/s2"
	"github.com/klauspost/compress/snappy"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

// This file decompresses log streams, told apart by their magic bytes: the
// codecs Spark writes event logs with (spark.eventLog.compression.codec:
// lz4 as lz4-java's LZ4BlockOutputStream, snappy as xerial's
// SnappyOutputStream, zstd frames, lzf as compress-lzf's LZFOutputStream
// in lzf.go), plus gzip (and a gzipped tar's first
// file, as the public traces are shipped), LZ4 frames and framed snappy.

// Open opens a file for reading.
func Open(path string) (io.Reader, io.Closer, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	return f, f, nil
}

var (
	magicGzip      = []byte{0x1f, 0x8b}
	magicZstd      = []byte{0x28, 0xb5, 0x2f, 0xfd}
	magicLZ4Frame  = []byte{0x04, 0x22, 0x4d, 0x18}
	magicLZ4Block  = []byte("LZ4Block")
	magicXerial    = []byte("\x82SNAPPY\x00")
	magicSnappyFrm = []byte("\xff\x06\x00\x00sNaPpY")
)

// Compressed reports whether head starts with the magic bytes of a codec
// Decompress reads.
func Compressed(head []byte) bool {
	for _, m := range [][]byte{magicGzip, magicZstd, magicLZ4Frame, magicLZ4Block, magicXerial, magicSnappyFrm} {
		if bytes.HasPrefix(head, m) {
			return true
		}
	}
	return IsLZF(head)
}

// Decompress returns r decompressed when it starts with the magic bytes of
// a supported codec, else r itself (buffered). Errors reading the stream
// name file and the codec; an error opening it names the codec ("gzip
// stream: ..."), and the caller names the file.
func Decompress(r io.Reader, file string) (io.Reader, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	head, _ := br.Peek(16)
	wrap := func(codec string, err error) error {
		return fmt.Errorf("%s stream: %v", codec, err)
	}
	switch {
	case bytes.HasPrefix(head, magicGzip):
		gz, err := gzip.NewReader(br)
		if err != nil {
			return nil, wrap("gzip", err)
		}
		inner := bufio.NewReaderSize(&namedReader{gz, file, "gzip"}, 1<<16)
		if h, _ := inner.Peek(512); len(h) == 512 && bytes.Equal(h[257:262], []byte("ustar")) {
			tr := tar.NewReader(inner)
			for {
				hd, err := tr.Next()
				if err != nil {
					return nil, wrap("tar", fmt.Errorf("no regular file in the archive: %v", err))
				}
				if hd.Typeflag == tar.TypeReg {
					return bufio.NewReaderSize(tr, 1<<16), nil
				}
			}
		}
		return inner, nil
	case bytes.HasPrefix(head, magicZstd):
		zr, err := zstd.NewReader(br, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true), zstd.WithDecoderMaxMemory(1<<30))
		if err != nil {
			return nil, wrap("zstd", err)
		}
		return bufio.NewReaderSize(&namedReader{zr, file, "zstd"}, 1<<16), nil
	case bytes.HasPrefix(head, magicLZ4Frame):
		return bufio.NewReaderSize(&namedReader{lz4.NewReader(br), file, "lz4"}, 1<<16), nil
	case bytes.HasPrefix(head, magicLZ4Block):
		return bufio.NewReaderSize(&namedReader{&lz4BlockReader{r: br}, file, "lz4"}, 1<<16), nil
	case bytes.HasPrefix(head, magicXerial):
		return bufio.NewReaderSize(&namedReader{&xerialReader{r: br}, file, "snappy"}, 1<<16), nil
	case bytes.HasPrefix(head, magicSnappyFrm):
		return bufio.NewReaderSize(&namedReader{s2.NewReader(br, s2.ReaderMaxBlockSize(1<<20)), file, "snappy"}, 1<<16), nil
	case IsLZF(head):
		return bufio.NewReaderSize(&namedReader{&lzfReader{r: br}, file, "lzf"}, 1<<16), nil
	}
	return br, nil
}

// namedReader names the codec in its errors.
type namedReader struct {
	r     io.Reader
	file  string
	codec string
}

func (n *namedReader) Read(p []byte) (int, error) {
	k, err := n.r.Read(p)
	if err != nil && err != io.EOF {
		err = fmt.Errorf("%s: corrupt or truncated %s stream: %w", n.file, n.codec, err)
	}
	return k, err
}

// maxBlock bounds one compressed block's sizes: lz4-java's largest block is
// 32 MiB (compression level 15); a corrupt length must not make us
// allocate more.
const maxBlock = 64 << 20

// lz4BlockReader reads lz4-java's LZ4BlockOutputStream format, which Spark's
// LZ4CompressionCodec writes: blocks of a 21-byte header ("LZ4Block", a
// token whose high nibble is the method — 0x10 raw, 0x20 LZ4 — then the
// compressed length, the original length and an xxhash32 checksum, all
// little-endian int32) and the block's bytes. An empty block ends a stream;
// streams may follow each other (Spark reads them with stopOnEmptyBlock
// false). The checksum is not verified; the LZ4 decoder checks that every
// block decodes to exactly its original length.
type lz4BlockReader struct {
	r   *bufio.Reader
	out []byte // decoded bytes not yet returned
	in  []byte
	buf []byte
}

func (z *lz4BlockReader) Read(p []byte) (int, error) {
	for len(z.out) == 0 {
		var h [21]byte
		n, err := io.ReadFull(z.r, h[:])
		if n == 0 && err == io.EOF {
			return 0, io.EOF
		}
		if err != nil {
			return 0, fmt.Errorf("truncated block header: %w", err)
		}
		if !bytes.Equal(h[:8], magicLZ4Block) {
			return 0, errors.New("bad block magic")
		}
		method := h[8] & 0xf0
		clen := int64(int32(binary.LittleEndian.Uint32(h[9:])))
		olen := int64(int32(binary.LittleEndian.Uint32(h[13:])))
		if clen < 0 || olen < 0 || clen > maxBlock || olen > maxBlock {
			return 0, fmt.Errorf("block lengths %d/%d out of range", clen, olen)
		}
		if olen == 0 {
			if clen != 0 {
				return 0, errors.New("empty block with data")
			}
			continue // end of one stream; another may follow
		}
		if cap(z.in) < int(clen) {
			z.in = make([]byte, clen)
		}
		z.in = z.in[:clen]
		if _, err := io.ReadFull(z.r, z.in); err != nil {
			return 0, fmt.Errorf("truncated block: %w", err)
		}
		switch method {
		case 0x10:
			if clen != olen {
				return 0, errors.New("raw block lengths differ")
			}
			z.buf = append(z.buf[:0], z.in...)
		case 0x20:
			if cap(z.buf) < int(olen) {
				z.buf = make([]byte, olen)
			}
			z.buf = z.buf[:olen]
			k, err := lz4.UncompressBlock(z.in, z.buf)
			if err != nil {
				return 0, err
			}
			if int64(k) != olen {
				return 0, fmt.Errorf("block decoded to %d bytes, its header says %d", k, olen)
			}
		default:
			return 0, fmt.Errorf("unknown block method %#x", method)
		}
		z.out = z.buf
	}
	n := copy(p, z.out)
	z.out = z.out[n:]
	return n, nil
}

// xerialReader reads xerial snappy-java's SnappyOutputStream format, which
// Spark's SnappyCompressionCodec writes: a 16-byte header (the magic
// "\x82SNAPPY\x00", then version and compatible version as big-endian
// int32), then chunks of a big-endian int32 length and a raw snappy block.
// Concatenated streams repeat the header.
type xerialReader struct {
	r   *bufio.Reader
	out []byte
	in  []byte
	buf []byte
}

func (x *xerialReader) Read(p []byte) (int, error) {
	for len(x.out) == 0 {
		if h, _ := x.r.Peek(8); bytes.Equal(h, magicXerial) {
			if _, err := x.r.Discard(16); err != nil {
				return 0, fmt.Errorf("truncated header: %w", err)
			}
			continue
		}
		var lb [4]byte
		n, err := io.ReadFull(x.r, lb[:])
		if n == 0 && err == io.EOF {
			return 0, io.EOF
		}
		if err != nil {
			return 0, fmt.Errorf("truncated chunk length: %w", err)
		}
		clen := int64(int32(binary.BigEndian.Uint32(lb[:])))
		if clen < 0 || clen > maxBlock {
			return 0, fmt.Errorf("chunk length %d out of range", clen)
		}
		if cap(x.in) < int(clen) {
			x.in = make([]byte, clen)
		}
		x.in = x.in[:clen]
		if _, err := io.ReadFull(x.r, x.in); err != nil {
			return 0, fmt.Errorf("truncated chunk: %w", err)
		}
		dl, err := snappy.DecodedLen(x.in)
		if err != nil {
			return 0, err
		}
		if dl > maxBlock {
			return 0, fmt.Errorf("chunk decodes to %d bytes", dl)
		}
		if cap(x.buf) < dl {
			x.buf = make([]byte, dl)
		}
		out, err := snappy.Decode(x.buf[:cap(x.buf)], x.in)
		if err != nil {
			return 0, err
		}
		x.out = out
	}
	n := copy(p, x.out)
	x.out = x.out[n:]
	return n, nil
}
