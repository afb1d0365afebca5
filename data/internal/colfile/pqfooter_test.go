package colfile

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"strings"
	"testing"
)

// footerRows returns the offsets, within a Parquet file, of the zigzag
// varints of its FileMetaData's num_rows (field 3) and of its first row
// group's num_rows (RowGroup field 3 of FileMetaData field 4), and where the
// footer starts.
func footerRows(t *testing.T, file []byte) (total, group, start int64) {
	t.Helper()
	n := int64(binary.LittleEndian.Uint32(file[len(file)-8:]))
	start = int64(len(file)) - 8 - n
	r := &countingReader{r: bufio.NewReader(bytes.NewReader(file[start : len(file)-8]))}
	last := int16(0)
	total, group = -1, -1
	for total < 0 || group < 0 {
		id, typ, err := compactField(r, &last)
		if err != nil || typ == compactStop {
			t.Fatalf("footer: field %d: %v", id, err)
		}
		switch id {
		case 3:
			total = start + r.n
			if err := compactSkip(r, typ, 0); err != nil {
				t.Fatal(err)
			}
		case 4: // list<RowGroup>: its header, then the first RowGroup's fields
			if _, err := r.ReadByte(); err != nil {
				t.Fatal(err)
			}
			inner := int16(0)
			for group < 0 {
				gid, gtyp, err := compactField(r, &inner)
				if err != nil || gtyp == compactStop {
					t.Fatalf("row group 0: field %d: %v", gid, err)
				}
				if gid == 3 {
					group = start + r.n
				}
				if err := compactSkip(r, gtyp, 0); err != nil {
					t.Fatal(err)
				}
			}
		default:
			if err := compactSkip(r, typ, 0); err != nil {
				t.Fatal(err)
			}
		}
	}
	return total, group, start
}

// withVarint returns file with the zigzag varint at off (in the footer,
// which starts at start) replaced by v's, the footer length fixed.
func withVarint(file []byte, off, start, v int64) []byte {
	old := 0
	for file[off+int64(old)] >= 0x80 {
		old++
	}
	old++
	enc := binary.AppendUvarint(nil, uint64(v<<1)^uint64(v>>63))
	out := append(bytes.Clone(file[:off]), enc...)
	out = append(out, file[off+int64(old):len(file)-8]...)
	out = binary.LittleEndian.AppendUint32(out, uint32(int64(len(out))-start))
	return append(out, ParquetMagic...)
}

// TestParquetFooterRowCounts reads files whose footers lie about their
// rows: a file total that contradicts the row groups (the row groups'
// rows are read), and a row group claiming 16 Mi rows for 10 (an error
// naming the column and the row group, without reserving room for the
// claimed rows: with the allocator's bound lowered to 16 MiB, reserving 8
// bytes a claimed row would be refused instead).
func TestParquetFooterRowCounts(t *testing.T) {
	rec := typesRecord(t)
	defer rec.Release()
	var b bytes.Buffer
	if err := WriteParquet(&b, rec, nil); err != nil {
		t.Fatal(err)
	}
	file := b.Bytes()
	total, group, start := footerRows(t, file)

	lying := withVarint(file, total, start, 7)
	tbl, err := ReadParquet(bytes.NewReader(lying), int64(len(lying)), nil)
	if err != nil {
		t.Fatalf("a footer total of 7 for 10 rows: %v", err)
	}
	if tbl.NumRows() != 10 {
		t.Errorf("a footer total of 7 for 10 rows: %d rows read", tbl.NumRows())
	}
	tbl.Release()

	old := AllocBase
	AllocBase = 16 << 20
	t.Cleanup(func() { AllocBase = old })
	inflated := withVarint(file, group, start, 16<<20)
	i64 := func(names []string) ([]int, error) { return []int{7}, nil } // "i64"
	_, err = ReadParquet(bytes.NewReader(inflated), int64(len(inflated)), i64)
	if err == nil || !strings.Contains(err.Error(), `column "i64": row group 0`) || !strings.Contains(err.Error(), "values for 16777216 rows") ||
		strings.Contains(err.Error(), "refusing to allocate") {
		t.Errorf("a row group claiming 16 Mi rows for 10: error %v, want one naming the column, the row group and the values found", err)
	}
}
