package data

import (
	"bytes"
	"context"
	"encoding/binary"
	"hash/crc32"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v17/parquet"
	"github.com/apache/arrow/go/v17/parquet/compress"
	"github.com/apache/thrift/lib/go/thrift"
	pq "github.com/xitongsys/parquet-go/parquet"

	"github.com/schedplan/schedplan/data/internal/colfile"
)

// TestParquetLZ4 reads Parquet pages compressed with LZ4_RAW: DuckDB's
// file (COMPRESSION lz4_raw, format v2, BYTE_STREAM_SPLIT doubles; see
// testdata/README.md) bit for bit, and arrow-go's writer through the codecs
// registered here, LZ4_RAW and the deprecated Hadoop-framed LZ4, in data
// pages v1 and v2; a corrupt LZ4 page is an error naming the file, not a
// crash.
func TestParquetLZ4(t *testing.T) {
	const duck = "testdata/duckdb-v2-lz4raw.parquet"
	j, err := ReadFile(duck, ReadOptions{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	if d := diffJobs(v2Source(3000), j, nil); d != "" {
		t.Errorf("%s: %s", duck, d)
	}
	src := v2Source(1500)
	rec := v2Record(t, src)
	defer rec.Release()
	for _, codec := range []compress.Compression{colfile.ParquetLZ4Raw, colfile.ParquetLZ4} {
		for _, version := range []parquet.DataPageVersion{parquet.DataPageV1, parquet.DataPageV2} {
			b := writeV2(t, rec, v2Props(version, codec, 4096))
			got, err := ReadBytes(b, "lz4.parquet", ReadOptions{Format: FormatParquet, Strict: true})
			if err != nil {
				t.Fatalf("%s v%d: %v", codec, version+1, err)
			}
			got.Source = src.Source
			if d := diffJobs(src, got, nil); d != "" {
				t.Errorf("%s v%d: %s", codec, version+1, d)
			}
		}
	}
	raw, err := os.ReadFile(duck)
	if err != nil {
		t.Fatal(err)
	}
	bad := append([]byte(nil), raw...)
	for k := 200; k < 240; k++ { // inside the first column's first page
		bad[k] ^= 0xff
	}
	if _, err := ReadBytes(bad, "bad.parquet", ReadOptions{Format: FormatParquet}); err == nil || !strings.Contains(err.Error(), "bad.parquet") {
		t.Errorf("corrupt LZ4 page: %v", err)
	}
}

// withPageCRCs returns the Parquet file b with the CRC-32 of every page set
// in its page header, as parquet-mr writes it (arrow-go v17 cannot): the
// pages are copied after their rewritten headers and the footer's offsets
// and sizes moved to match.
func withPageCRCs(t testing.TB, b []byte) []byte {
	ctx := context.Background()
	flen := int(binary.LittleEndian.Uint32(b[len(b)-8:]))
	meta := pq.NewFileMetaData()
	if err := meta.Read(ctx, compactProto(b[len(b)-8-flen:len(b)-8])); err != nil {
		t.Fatal(err)
	}
	out := []byte("PAR1")
	for _, rg := range meta.RowGroups {
		var rgSize int64
		for _, cc := range rg.Columns {
			md := cc.MetaData
			pos := md.DataPageOffset
			if md.DictionaryPageOffset != nil && *md.DictionaryPageOffset > 0 && *md.DictionaryPageOffset < pos {
				pos = *md.DictionaryPageOffset
			}
			end := pos + md.TotalCompressedSize
			start := int64(len(out))
			md.DictionaryPageOffset = nil
			md.DataPageOffset = -1
			for pos < end {
				buf := thrift.NewTMemoryBufferLen(int(end - pos))
				buf.Write(b[pos:end])
				h := pq.NewPageHeader()
				if err := h.Read(ctx, thrift.NewTCompactProtocolConf(buf, nil)); err != nil {
					t.Fatal(err)
				}
				hlen := int64(int(end-pos) - buf.Len())
				page := b[pos+hlen : pos+hlen+int64(h.CompressedPageSize)]
				crc := int32(crc32.ChecksumIEEE(page))
				h.Crc = &crc
				if h.Type == pq.PageType_DICTIONARY_PAGE {
					off := int64(len(out))
					md.DictionaryPageOffset = &off
				} else if md.DataPageOffset < 0 {
					md.DataPageOffset = int64(len(out))
				}
				w := thrift.NewTMemoryBuffer()
				if err := h.Write(ctx, thrift.NewTCompactProtocolConf(w, nil)); err != nil {
					t.Fatal(err)
				}
				out = append(append(out, w.Bytes()...), page...)
				pos += hlen + int64(h.CompressedPageSize)
			}
			md.TotalCompressedSize = int64(len(out)) - start
			rgSize += md.TotalCompressedSize
			cc.FileOffset = start
			cc.OffsetIndexOffset, cc.OffsetIndexLength, cc.ColumnIndexOffset, cc.ColumnIndexLength = nil, nil, nil, nil
		}
		rg.TotalCompressedSize = &rgSize
		rg.FileOffset = nil
	}
	w := thrift.NewTMemoryBuffer()
	if err := meta.Write(ctx, thrift.NewTCompactProtocolConf(w, nil)); err != nil {
		t.Fatal(err)
	}
	out = append(out, w.Bytes()...)
	out = binary.LittleEndian.AppendUint32(out, uint32(w.Len()))
	return append(out, "PAR1"...)
}

func compactProto(b []byte) thrift.TProtocol {
	buf := thrift.NewTMemoryBufferLen(len(b))
	buf.Write(b)
	return thrift.NewTCompactProtocolConf(buf, nil)
}

// TestParquetPageCRC flips one byte in a page of PLAIN doubles: without
// page CRCs the file reads, with a different submit time (what the format
// allows: nothing can tell); with CRCs written, the read fails naming the
// file, the column and the checksum, and the intact file with CRCs reads
// as the original. Both data page versions, and each column's first page.
func TestParquetPageCRC(t *testing.T) {
	src := v2Source(800)
	rec := v2Record(t, src)
	defer rec.Release()
	for _, version := range []parquet.DataPageVersion{parquet.DataPageV1, parquet.DataPageV2} {
		props := parquet.NewWriterProperties(parquet.WithDataPageVersion(version), parquet.WithDictionaryDefault(false),
			parquet.WithCompression(compress.Codecs.Uncompressed), parquet.WithMaxRowGroupLength(500))
		plain := writeV2(t, rec, props)
		crc := withPageCRCs(t, plain)
		got, err := ReadBytes(crc, "crc.parquet", ReadOptions{Format: FormatParquet, Strict: true})
		if err != nil {
			t.Fatalf("v%d with CRCs: %v", version+1, err)
		}
		got.Source = src.Source
		if d := diffJobs(src, got, nil); d != "" {
			t.Fatalf("v%d with CRCs: %s", version+1, d)
		}
		// The byte of a submit time: 1.7e9 + … as a little-endian double;
		// its 6th byte is a mantissa byte.
		var want [8]byte
		binary.LittleEndian.PutUint64(want[:], math.Float64bits(src.Submit[123]))
		flip := func(b []byte) []byte {
			k := bytes.Index(b, want[:])
			if k < 0 {
				t.Fatalf("v%d: submit time 123 not found in the file", version+1)
			}
			c := append([]byte(nil), b...)
			c[k+5] ^= 0x10
			return c
		}
		j, err := ReadBytes(flip(plain), "plain.parquet", ReadOptions{Format: FormatParquet})
		if err != nil || j.Submit[123] == src.Submit[123] {
			t.Errorf("v%d without CRCs: the flip went unseen? %v", version+1, err)
		}
		_, err = ReadBytes(flip(crc), "crc.parquet", ReadOptions{Format: FormatParquet})
		checkInputError(t, err, "crc.parquet", 0, ColSubmit, "checksum")
		p := filepath.Join(t.TempDir(), "crc.parquet")
		if err := os.WriteFile(p, flip(crc), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err = ReadFile(p, ReadOptions{})
		checkInputError(t, err, p, 0, ColSubmit, "checksum")
	}
}
