package compress

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// LZF, as Spark's LZFCompressionCodec writes it (spark.io.compression.codec
// lzf): compress-lzf's LZFOutputStream framing around Marc Lehmann's LZF
// algorithm (liblzf). A stream is a sequence of chunks, each a 5- or
// 7-byte header and its data:
//
//	'Z' 'V' 0 len(2)          then len bytes stored as they are
//	'Z' 'V' 1 clen(2) olen(2) then clen bytes of LZF that decode to olen
//
// (lengths big-endian, at most 65535). LZF data is a sequence of
// instructions, each starting with a control byte c: c < 32 copies the next
// c+1 bytes (a literal run); otherwise it is a back reference of length
// (c>>5)+2 — when c>>5 is 7, plus the next byte — to the bytes
// ((c&31)<<8 | next byte)+1 back in the output, copied byte by byte (a
// reference may overlap the bytes it produces).

// IsLZF reports whether head starts a compress-lzf stream: the chunk magic
// and a chunk type of 0 or 1 (a text log never starts so).
func IsLZF(head []byte) bool {
	return len(head) >= 3 && head[0] == 'Z' && head[1] == 'V' && head[2] <= 1
}

// lzfMaxChunk bounds a chunk's lengths (two bytes each).
const lzfMaxChunk = 0xffff

// lzfReader reads a compress-lzf stream.
type lzfReader struct {
	r   *bufio.Reader
	out []byte // decoded bytes not yet returned
	in  []byte
	buf []byte
}

func (z *lzfReader) Read(p []byte) (int, error) {
	for len(z.out) == 0 {
		var h [7]byte
		n, err := io.ReadFull(z.r, h[:5])
		if n == 0 && err == io.EOF {
			return 0, io.EOF
		}
		if err != nil {
			return 0, fmt.Errorf("truncated chunk header: %w", err)
		}
		if h[0] != 'Z' || h[1] != 'V' {
			return 0, fmt.Errorf("bad chunk magic %q", h[:2])
		}
		clen := int(binary.BigEndian.Uint16(h[3:5]))
		olen := clen
		switch h[2] {
		case 0:
		case 1:
			if _, err := io.ReadFull(z.r, h[5:7]); err != nil {
				return 0, fmt.Errorf("truncated chunk header: %w", err)
			}
			olen = int(binary.BigEndian.Uint16(h[5:7]))
		default:
			return 0, fmt.Errorf("unknown chunk type %d", h[2])
		}
		if cap(z.in) < clen {
			z.in = make([]byte, lzfMaxChunk)
		}
		z.in = z.in[:clen]
		if _, err := io.ReadFull(z.r, z.in); err != nil {
			return 0, fmt.Errorf("truncated chunk: %w", err)
		}
		if h[2] == 0 {
			z.buf = append(z.buf[:0], z.in...)
		} else {
			if cap(z.buf) < olen {
				z.buf = make([]byte, lzfMaxChunk)
			}
			k, err := lzfDecode(z.buf[:olen], z.in)
			if err != nil {
				return 0, err
			}
			if k != olen {
				return 0, fmt.Errorf("chunk decoded to %d bytes, its header says %d", k, olen)
			}
			z.buf = z.buf[:olen]
		}
		z.out = z.buf
	}
	n := copy(p, z.out)
	z.out = z.out[n:]
	return n, nil
}

var errLZFCorrupt = errors.New("corrupt LZF data")

// lzfDecode decodes the LZF data src into dst and returns the number of
// bytes written; data that would write past dst or refer before its start
// is an error.
func lzfDecode(dst, src []byte) (int, error) {
	ip, op := 0, 0
	for ip < len(src) {
		c := int(src[ip])
		ip++
		if c < 32 { // a literal run of c+1 bytes
			n := c + 1
			if ip+n > len(src) || op+n > len(dst) {
				return op, errLZFCorrupt
			}
			copy(dst[op:], src[ip:ip+n])
			ip, op = ip+n, op+n
			continue
		}
		n := c >> 5
		if n == 7 {
			if ip >= len(src) {
				return op, errLZFCorrupt
			}
			n += int(src[ip])
			ip++
		}
		if ip >= len(src) {
			return op, errLZFCorrupt
		}
		ref := op - ((c&31)<<8 | int(src[ip])) - 1
		ip++
		n += 2
		if ref < 0 || op+n > len(dst) {
			return op, errLZFCorrupt
		}
		for k := 0; k < n; k++ { // byte by byte: the reference may overlap
			dst[op+k] = dst[ref+k]
		}
		op += n
	}
	return op, nil
}
