package data

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"io"
	"math/rand/v2"
	"os"
	"testing"
)

// lzfCompress is a small LZF compressor (liblzf's format, greedy matching
// on a hash of three bytes) for the tests: literal runs of up to 32 bytes,
// back references of 3 to 264 bytes up to 8192 bytes back.
func lzfCompress(in []byte) []byte {
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

// lzfStream writes b as compress-lzf's LZFOutputStream does: chunks of at
// most chunk bytes, each stored compressed (type 1) when that is shorter,
// else as it is (type 0).
func lzfStream(b []byte, chunk int) []byte {
	var out []byte
	for len(b) > 0 {
		n := min(chunk, len(b))
		c := lzfCompress(b[:n])
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

func readLZF(b []byte) ([]byte, error) {
	return io.ReadAll(&lzfReader{r: bufio.NewReader(bytes.NewReader(b))})
}

// TestLZFDecodeHand decodes instructions written by hand from liblzf's
// lzf_d.c, and refuses damaged ones.
func TestLZFDecodeHand(t *testing.T) {
	for _, c := range []struct {
		name string
		in   []byte
		want string
		bad  bool
	}{
		{"literal", []byte{2, 'a', 'b', 'c'}, "abc", false},
		// "abc", then 15 bytes from 3 back: length 15−2 = 13 = 7 + 6.
		{"long reference", []byte{2, 'a', 'b', 'c', 0xe0, 6, 2}, "abcabcabcabcabcabc", false},
		// "a", then 3 bytes from 1 back: an overlapping reference.
		{"overlap", []byte{0, 'a', 0x20, 0}, "aaaa", false},
		{"before the start", []byte{0, 'a', 0x20, 1}, "", true},
		{"truncated literal", []byte{5, 'a'}, "", true},
		{"truncated reference", []byte{0, 'a', 0xe0}, "", true},
	} {
		dst := make([]byte, 64)
		n, err := lzfDecode(dst, c.in)
		if c.bad {
			if err == nil {
				t.Errorf("%s: decoded %q", c.name, dst[:n])
			}
			continue
		}
		if err != nil || string(dst[:n]) != c.want {
			t.Errorf("%s: %q, %v; want %q", c.name, dst[:n], err, c.want)
		}
	}
	// A chunk must decode to the length its header gives, within bounds.
	for _, b := range [][]byte{
		{'Z', 'V', 1, 0, 4, 0, 9, 2, 'a', 'b', 'c'}, // says 9, gives 3
		{'Z', 'V', 2, 0, 1, 'x'},                    // unknown type
		{'Z', 'V', 0, 0, 5, 'x'},                    // truncated
		{'Z', 'X', 0, 0, 1, 'x'},                    // bad magic
	} {
		if got, err := readLZF(b); err == nil {
			t.Errorf("% x: read %q", b, got)
		}
	}
}

// TestLZFRoundTrip compresses text, repetitive and random data in chunks of
// several sizes and reads them back.
func TestLZFRoundTrip(t *testing.T) {
	plain, err := os.ReadFile(sparkReal)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	random := make([]byte, 100000)
	for i := range random {
		random[i] = byte(rng.IntN(256))
	}
	for _, b := range [][]byte{plain, bytes.Repeat([]byte("abcdefgh"), 20000), random, {}} {
		for _, chunk := range []int{1, 100, 0xffff} {
			s := lzfStream(b, chunk)
			got, err := readLZF(s)
			if err != nil || !bytes.Equal(got, b) {
				t.Fatalf("%d bytes in chunks of %d: %v", len(b), chunk, err)
			}
		}
	}
	if c := lzfStream(plain, 0xffff); len(c) > len(plain)*2/3 {
		t.Errorf("the test compressor does not compress: %d of %d bytes", len(c), len(plain))
	}
}

// FuzzLZF feeds arbitrary bytes to the decoder (it must fail cleanly, never
// panic or write out of bounds) and round-trips them through the test
// compressor.
func FuzzLZF(f *testing.F) {
	f.Add([]byte{'Z', 'V', 1, 0, 7, 0, 18, 2, 'a', 'b', 'c', 0xe0, 6, 2})
	f.Add([]byte("ZV\x00\x00\x03abc"))
	f.Add(lzfStream([]byte(`{"Event":"SparkListenerApplicationStart","App ID":"app-1","Timestamp":1}`), 16))
	f.Fuzz(func(t *testing.T, b []byte) {
		readLZF(b)
		dst := make([]byte, 1024)
		lzfDecode(dst, b)
		if got, err := readLZF(lzfStream(b, 300)); err != nil || !bytes.Equal(got, b) {
			t.Fatalf("round trip: %v", err)
		}
	})
}
