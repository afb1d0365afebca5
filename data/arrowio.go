package data

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/ipc"
	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/apache/arrow/go/v17/parquet"
	"github.com/apache/arrow/go/v17/parquet/compress"
	"github.com/apache/arrow/go/v17/parquet/file"
	"github.com/apache/arrow/go/v17/parquet/pqarrow"
)

// This file moves arrow.Records in and out of Parquet and Arrow IPC bytes.
// Both the jobs table and the generic results Table go through it.

var (
	parquetMagic = []byte("PAR1")
	arrowMagic   = []byte("ARROW1")
)

// parquetProps are the writer properties of every Parquet file schedplan
// writes: Snappy pages (fast to decode), dictionary encoding only where
// strings repeat (dictCols), plain encoding elsewhere, rows in groups of up
// to 1 Mi.
func parquetProps(dictCols []string) *parquet.WriterProperties {
	opts := []parquet.WriterProperty{
		parquet.WithCompression(compress.Codecs.Snappy),
		parquet.WithDictionaryDefault(false),
		parquet.WithMaxRowGroupLength(1 << 20),
		parquet.WithStats(true),
		parquet.WithCreatedBy("schedplan"),
	}
	for _, c := range dictCols {
		opts = append(opts, parquet.WithDictionaryFor(c, true))
	}
	return parquet.NewWriterProperties(opts...)
}

// writeParquet writes rec as a Parquet file; the Arrow schema is stored in
// the file's metadata so types such as dictionaries survive a round trip.
func writeParquet(w io.Writer, rec arrow.Record, dictCols []string) (err error) {
	defer recoverTo(&err, "writing Parquet")
	fw, err := pqarrow.NewFileWriter(rec.Schema(), noCloser{w}, parquetProps(dictCols),
		pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
	if err != nil {
		return err
	}
	if err := fw.Write(rec); err != nil {
		fw.Close()
		return err
	}
	return fw.Close()
}

// writeArrow writes rec as an Arrow IPC file or, with stream set, an Arrow
// IPC stream.
func writeArrow(w io.Writer, rec arrow.Record, stream bool) (err error) {
	defer recoverTo(&err, "writing Arrow IPC")
	if stream {
		iw := ipc.NewWriter(w, ipc.WithSchema(rec.Schema()))
		if err := iw.Write(rec); err != nil {
			iw.Close()
			return err
		}
		return iw.Close()
	}
	fw, err := ipc.NewFileWriter(&tellWriter{w: w}, ipc.WithSchema(rec.Schema()))
	if err != nil {
		return err
	}
	if err := fw.Write(rec); err != nil {
		fw.Close()
		return err
	}
	return fw.Close()
}

// tellWriter is the io.WriteSeeker the Arrow IPC file writer wants; it only
// ever asks for the current position.
type tellWriter struct {
	w   io.Writer
	pos int64
}

func (t *tellWriter) Write(p []byte) (int, error) {
	n, err := t.w.Write(p)
	t.pos += int64(n)
	return n, err
}

func (t *tellWriter) Seek(off int64, whence int) (int64, error) {
	if off == 0 && whence == io.SeekCurrent {
		return t.pos, nil
	}
	return t.pos, errors.New("tellWriter: cannot seek")
}

// readArrowBytes decodes a Parquet file or an Arrow IPC file or stream held
// in b into an arrow.Table (which the caller must Release). For FormatArrow
// and FormatArrowStream, file and stream are told apart by their magic bytes.
func readArrowBytes(b []byte, f Format) (tbl arrow.Table, err error) {
	defer recoverTo(&err, "decoding")
	mem := memory.DefaultAllocator
	switch f {
	case FormatParquet:
		if len(b) < 12 || !bytes.HasPrefix(b, parquetMagic) {
			return nil, errors.New("not a Parquet file (no PAR1 magic at the start)")
		}
		if !bytes.HasSuffix(b, parquetMagic) {
			return nil, errors.New("truncated Parquet file (no PAR1 magic at the end)")
		}
		pr, err := file.NewParquetReader(bytes.NewReader(b))
		if err != nil {
			return nil, err
		}
		defer pr.Close()
		fr, err := pqarrow.NewFileReader(pr, pqarrow.ArrowReadProperties{Parallel: false, BatchSize: 1 << 20}, mem)
		if err != nil {
			return nil, err
		}
		return fr.ReadTable(context.Background())
	case FormatArrow, FormatArrowStream:
		if bytes.HasPrefix(b, arrowMagic) {
			if !bytes.HasSuffix(b, arrowMagic) {
				return nil, errors.New("truncated Arrow IPC file (no ARROW1 magic at the end)")
			}
			fr, err := ipc.NewFileReader(bytes.NewReader(b), ipc.WithAllocator(mem))
			if err != nil {
				return nil, err
			}
			defer fr.Close()
			recs := make([]arrow.Record, 0, fr.NumRecords())
			defer func() {
				for _, r := range recs {
					r.Release()
				}
			}()
			for i := 0; i < fr.NumRecords(); i++ {
				r, err := fr.Record(i)
				if err != nil {
					return nil, fmt.Errorf("record batch %d: %w", i, err)
				}
				r.Retain()
				recs = append(recs, r)
			}
			return array.NewTableFromRecords(fr.Schema(), recs), nil
		}
		if len(b) == 0 {
			return nil, errors.New("empty file")
		}
		sr, err := ipc.NewReader(bytes.NewReader(b), ipc.WithAllocator(mem))
		if err != nil {
			return nil, fmt.Errorf("neither an Arrow IPC file (no ARROW1 magic) nor a readable stream: %w", err)
		}
		defer sr.Release()
		var recs []arrow.Record
		defer func() {
			for _, r := range recs {
				r.Release()
			}
		}()
		for sr.Next() {
			r := sr.Record()
			r.Retain()
			recs = append(recs, r)
		}
		if err := sr.Err(); err != nil {
			return nil, fmt.Errorf("Arrow IPC stream (truncated?): %w", err)
		}
		return array.NewTableFromRecords(sr.Schema(), recs), nil
	}
	return nil, fmt.Errorf("format %q is not Parquet or Arrow", f)
}

// recoverTo turns a panic inside a third-party encoder or decoder into an
// error, so bad input never crashes the process.
func recoverTo(err *error, what string) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("%s: %v (corrupt or truncated input?)", what, r)
	}
}
