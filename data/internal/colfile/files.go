package colfile

import (
	"bytes"
	"errors"
	"io"

	"github.com/apache/arrow/go/v17/parquet/file"
)

// CheckArrowMagic checks that a file of size bytes starts as an Arrow IPC
// file ("ARROW1") or stream (a continuation marker or a message length)
// does.
func CheckArrowMagic(r io.ReaderAt, size int64) error {
	if size == 0 {
		return errors.New("empty file")
	}
	var head [8]byte
	n, err := r.ReadAt(head[:], 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	if bytes.HasPrefix(head[:n], ArrowMagic) {
		return nil
	}
	if n >= 8 {
		pos := 0
		if bytes.Equal(head[:4], []byte{0xff, 0xff, 0xff, 0xff}) {
			pos = 4
		}
		if l := int32(head[pos]) | int32(head[pos+1])<<8 | int32(head[pos+2])<<16 | int32(head[pos+3])<<24; l > 0 && int64(l) <= size {
			return nil
		}
	}
	return errors.New("neither an Arrow IPC file (no ARROW1 magic) nor an Arrow IPC stream (no message at the start)")
}

// ParquetMemory estimates the memory decoding the given top-level fields of
// a Parquet file needs: twice (Arrow arrays, then the Jobs columns) the
// larger of their uncompressed size and 8 bytes a value, row group by row
// group, as the file's metadata declares them.
func ParquetMemory(pr *file.Reader, leaves []int) int64 {
	var need int64
	md := pr.MetaData()
	for rg := 0; rg < pr.NumRowGroups(); rg++ {
		rgm := md.RowGroup(rg)
		for _, leaf := range leaves {
			cc, err := rgm.ColumnChunk(leaf)
			if err != nil {
				continue
			}
			need += 2 * max(cc.TotalUncompressedSize(), 8*rgm.NumRows(), 0)
		}
	}
	return need
}
