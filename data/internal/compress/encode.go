package compress

import (
	"bytes"
	"encoding/binary"

	"github.com/pierrec/lz4/v4"
)

// This file writes the formats the decompressors read, for tests that
// need compressed logs.

// LZ4BlockStream writes b in lz4-java's LZ4BlockOutputStream format
// (net.jpountz.lz4.LZ4BlockOutputStream: "LZ4Block", token 0x20|level,
// compressed and original length, xxhash32 checksum, block), in blocks of
// blockSize bytes and ending with an empty block, as Spark's
// LZ4CompressionCodec does (the checksum is left 0: the reader does not
// check it).
func LZ4BlockStream(b []byte, blockSize int) []byte {
	var out bytes.Buffer
	for len(b) > 0 {
		n := min(blockSize, len(b))
		dst := make([]byte, lz4.CompressBlockBound(n))
		k, err := lz4.CompressBlock(b[:n], dst, nil)
		if err != nil {
			panic(err) // dst holds the bound: CompressBlock cannot fail
		}
		token, payload := byte(0x20|6), dst[:k]
		if k == 0 { // incompressible: a raw block
			token, payload = 0x10|6, b[:n]
		}
		var h [21]byte
		copy(h[:], magicLZ4Block)
		h[8] = token
		binary.LittleEndian.PutUint32(h[9:], uint32(len(payload)))
		binary.LittleEndian.PutUint32(h[13:], uint32(n))
		out.Write(h[:])
		out.Write(payload)
		b = b[n:]
	}
	var end [21]byte
	copy(end[:], magicLZ4Block)
	end[8] = 0x10 | 6
	out.Write(end[:])
	return out.Bytes()
}

// LZFCompress is a small LZF compressor (liblzf's format, greedy matching
// on a hash of three bytes) for tests: literal runs of up to 32 bytes,
// back references of 3 to 264 bytes up to 8192 bytes back.
func LZFCompress(in []byte) []byte {
	var out, lit []byte
	flush := func() {
		for len(lit) > 0 {
			n := min(32, len(lit))
			out = append(out, byte(n-1))
			out = append(out, lit[:n]...)
			lit = lit[n:]
		}
	}
	table := map[[3]byte]int{}
	for i := 0; i < len(in); {
		if i+3 <= len(in) {
			key := [3]byte{in[i], in[i+1], in[i+2]}
			ref, ok := table[key]
			table[key] = i
			if ok && i-ref <= 8192 {
				n := 0
				for i+n < len(in) && n < 264 && in[ref+n] == in[i+n] {
					n++
				}
				if n >= 3 {
					flush()
					off, l := i-ref-1, n-2
					if l < 7 {
						out = append(out, byte(l<<5|off>>8))
					} else {
						out = append(out, byte(7<<5|off>>8), byte(l-7))
					}
					out = append(out, byte(off))
					i += n
					continue
				}
			}
		}
		lit = append(lit, in[i])
		i++
	}
	flush()
	return out
}

// LZFStream writes b as compress-lzf's LZFOutputStream does: chunks of at
// most chunk bytes, each stored compressed (type 1) when that is shorter,
// else as it is (type 0).
func LZFStream(b []byte, chunk int) []byte {
	var out []byte
	for len(b) > 0 {
		n := min(chunk, len(b))
		c := LZFCompress(b[:n])
		if len(c) < n {
			out = append(out, 'Z', 'V', 1)
			out = binary.BigEndian.AppendUint16(out, uint16(len(c)))
			out = binary.BigEndian.AppendUint16(out, uint16(n))
			out = append(out, c...)
		} else {
			out = append(out, 'Z', 'V', 0)
			out = binary.BigEndian.AppendUint16(out, uint16(n))
			out = append(out, b[:n]...)
		}
		b = b[n:]
	}
	return out
}
