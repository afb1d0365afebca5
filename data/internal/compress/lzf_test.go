package compress

import (
	"bufio"
	"bytes"
	"io"
	"math/rand/v2"
	"os"
	"testing"
)

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
	plain, err := os.ReadFile("../../testdata/logs/spark/local-1426633911242")
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
			s := LZFStream(b, chunk)
			got, err := readLZF(s)
			if err != nil || !bytes.Equal(got, b) {
				t.Fatalf("%d bytes in chunks of %d: %v", len(b), chunk, err)
			}
		}
	}
	if c := LZFStream(plain, 0xffff); len(c) > len(plain)*2/3 {
		t.Errorf("the test compressor does not compress: %d of %d bytes", len(c), len(plain))
	}
}

// FuzzLZF feeds arbitrary bytes to the decoder (it must fail cleanly, never
// panic or write out of bounds) and round-trips them through the test
// compressor.
func FuzzLZF(f *testing.F) {
	f.Add([]byte{'Z', 'V', 1, 0, 7, 0, 18, 2, 'a', 'b', 'c', 0xe0, 6, 2})
	f.Add([]byte("ZV\x00\x00\x03abc"))
	f.Add(LZFStream([]byte(`{"Event":"SparkListenerApplicationStart","App ID":"app-1","Timestamp":1}`), 16))
	f.Fuzz(func(t *testing.T, b []byte) {
		readLZF(b)
		dst := make([]byte, 1024)
		lzfDecode(dst, b)
		if got, err := readLZF(LZFStream(b, 300)); err != nil || !bytes.Equal(got, b) {
			t.Fatalf("round trip: %v", err)
		}
	})
}
