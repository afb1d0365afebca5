package compress

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"testing"
)

// FuzzLZ4BlockStream feeds arbitrary bytes behind the LZ4Block magic to
// the decompressor: it must fail cleanly, never panic or allocate without
// bound.
func FuzzLZ4BlockStream(f *testing.F) {
	plain, _ := os.ReadFile("../../testdata/logs/spark/app-synthetic-3x")
	f.Add(LZ4BlockStream(plain[:3000], 1024))
	f.Add([]byte("LZ4Block\x20\xff\xff\xff\x7f\xff\xff\xff\x7f\x00\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Decompress(bytes.NewReader(append(append([]byte(nil), magicLZ4Block...), data...)), "fuzz")
		if err != nil {
			return
		}
		io.Copy(io.Discard, bufio.NewReader(io.LimitReader(r, 1<<26)))
	})
}
