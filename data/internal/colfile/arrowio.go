package colfile

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sync/atomic"
	"time"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/ipc"
	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/apache/arrow/go/v17/parquet"
	"github.com/apache/arrow/go/v17/parquet/compress"
)

// This file moves arrow.Records in and out of Parquet and Arrow IPC bytes.
// Both the jobs table and the generic results Table go through it.

var (
	ParquetMagic = []byte("PAR1")
	ArrowMagic   = []byte("ARROW1")
)

// ParquetProps are the writer properties of every Parquet file schedplan
// writes: Snappy pages (fast to decode), dictionary encoding only where
// strings repeat (dictCols), plain encoding elsewhere, rows in groups of up
// to 1 Mi.
func ParquetProps(dictCols []string) *parquet.WriterProperties {
	return ParquetPropsGroups(dictCols, 1<<20)
}

// ParquetPropsGroups is ParquetProps with row groups of up to rows rows.
func ParquetPropsGroups(dictCols []string, rows int64) *parquet.WriterProperties {
	opts := []parquet.WriterProperty{
		parquet.WithCompression(compress.Codecs.Snappy),
		parquet.WithDictionaryDefault(false),
		parquet.WithMaxRowGroupLength(rows),
		parquet.WithStats(true),
		parquet.WithCreatedBy("schedplan"),
	}
	for _, c := range dictCols {
		opts = append(opts, parquet.WithDictionaryFor(c, true))
	}
	return parquet.NewWriterProperties(opts...)
}

// WriteParquet writes rec as a Parquet file; the Arrow schema is stored in
// the file's metadata so types such as dictionaries survive a round trip.
func WriteParquet(w io.Writer, rec arrow.Record, dictCols []string) (err error) {
	return WriteParquetGroups(w, rec, dictCols, 1<<20)
}

// WriteParquetGroups is WriteParquet with row groups of up to rows rows.
func WriteParquetGroups(w io.Writer, rec arrow.Record, dictCols []string, rows int64) (err error) {
	defer RecoverTo(&err, "writing Parquet")
	fw, err := newArrowParquetWriter(rec.Schema(), NoCloser{w}, ParquetPropsGroups(dictCols, rows))
	if err != nil {
		return err
	}
	if err := fw.write(rec); err != nil {
		fw.close()
		return err
	}
	return fw.close()
}

// WriteArrow writes rec as an Arrow IPC file or, with stream set, an Arrow
// IPC stream.
func WriteArrow(w io.Writer, rec arrow.Record, stream bool) (err error) {
	defer RecoverTo(&err, "writing Arrow IPC")
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

// NoCloser hides any Close method of the writer it wraps.
type NoCloser struct{ W io.Writer }

func (n NoCloser) Write(p []byte) (int, error) { return n.W.Write(p) }

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

// ReadArrowBytes decodes an Arrow IPC file or stream held in b, told apart
// by their magic bytes, or with parquet set a Parquet file, into an
// arrow.Table (which the caller must Release).
func ReadArrowBytes(b []byte, parquet bool) (tbl arrow.Table, err error) {
	defer RecoverTo(&err, "decoding")
	mem := NewBoundedAllocator(len(b))
	if parquet {
		return ReadParquet(NewStoppable(bytes.NewReader(b)), int64(len(b)), nil)
	}
	if len(b) == 0 {
		return nil, errors.New("empty file")
	}
	if err := checkIPCSchema(b); err != nil {
		if !bytes.HasPrefix(b, ArrowMagic) {
			return nil, fmt.Errorf("neither an Arrow IPC file (no ARROW1 magic) nor a readable stream: %w", err)
		}
		if !bytes.HasSuffix(b, ArrowMagic) {
			return nil, errors.New("truncated Arrow IPC file (no ARROW1 magic at the end)")
		}
		return nil, err
	}
	if bytes.HasPrefix(b, ArrowMagic) {
		if !bytes.HasSuffix(b, ArrowMagic) {
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
		return nil, fmt.Errorf("reading the Arrow IPC stream (truncated?): %w", err)
	}
	return array.NewTableFromRecords(sr.Schema(), recs), nil
}

// ColumnError is a problem with one column of a columnar file.
type ColumnError struct {
	Col string
	Err error
}

func (e *ColumnError) Error() string { return fmt.Sprintf("column %q: %v", e.Col, e.Err) }
func (e *ColumnError) Unwrap() error { return e.Err }

// CheckParquetFrame checks the frame of a Parquet file without reading it:
// "PAR1" at both ends and a footer length that fits in the file.
func CheckParquetFrame(r io.ReaderAt, size int64) error {
	if size < 12 {
		return errors.New("not a Parquet file (shorter than its frame)")
	}
	var head, tail [8]byte
	if _, err := r.ReadAt(head[:4], 0); err != nil {
		return err
	}
	if !bytes.Equal(head[:4], ParquetMagic) {
		return errors.New("not a Parquet file (no PAR1 magic at the start)")
	}
	if _, err := r.ReadAt(tail[:], size-8); err != nil {
		return err
	}
	if !bytes.Equal(tail[4:], ParquetMagic) {
		return errors.New("truncated Parquet file (no PAR1 magic at the end)")
	}
	if n := int64(binary.LittleEndian.Uint32(tail[:4])); n > size-12 {
		return fmt.Errorf("corrupt Parquet file: the footer declares %d bytes, the file holds %d", n, size)
	}
	return nil
}

// BoundedAllocator is the allocator of every decoder: it refuses (by a
// panic that RecoverTo turns into an error) any single allocation larger
// than its limit, so that a corrupt length field in a small file cannot make
// the process ask for terabytes and die of it.
//
// It is also how a decoder stuck in a loop is stopped: once stop is set
// (DecodeGuarded's time-out), every allocation panics, and arrow-go's page
// reader allocates a buffer on every turn of its loops.
type BoundedAllocator struct {
	*memory.GoAllocator
	limit int
	stop  *atomic.Bool
}

// NewBoundedAllocator returns an allocator for decoding a file of size
// bytes: 1 GiB plus 64 times the file's size per allocation, far above what
// real data needs (decoded columns of highly compressed files included).
func NewBoundedAllocator(size int) *BoundedAllocator {
	return &BoundedAllocator{GoAllocator: memory.NewGoAllocator(), limit: AllocBase + 64*size}
}

// AllocBase is the part of BoundedAllocator's limit that does not grow with
// the input. A variable so that the fuzz targets can lower it.
var AllocBase = 1 << 30

func (a *BoundedAllocator) check(n int) {
	if a.stop != nil && a.stop.Load() {
		panic(errStopped)
	}
	if n < 0 || n > a.limit {
		panic(fmt.Sprintf("refusing to allocate %d bytes for a %d-byte input (corrupt length field?)", n, (a.limit-AllocBase)/64))
	}
}

func (a *BoundedAllocator) Allocate(n int) []byte { a.check(n); return a.GoAllocator.Allocate(n) }

func (a *BoundedAllocator) Reallocate(n int, b []byte) []byte {
	a.check(n)
	return a.GoAllocator.Reallocate(n, b)
}

// DecodeGuarded runs decode (ReadParquet or ReadArrowBytes on an input of
// size bytes) under a time budget: arrow-go's Parquet page reader can spin
// forever on some corrupt page headers (found by FuzzReadColumnar), and a
// goroutine cannot be killed, so the decoder runs on its own goroutine
// (panics recovered there) and an input that does not finish in 10 s plus
// 1 s per MiB is reported as corrupt.
//
// A Parquet decoder reads through src (a StoppableReader) and allocates from
// a BoundedAllocator tied to it; on time-out DecodeGuarded stops src, so that
// every read and allocation of the stuck goroutine fails and it ends. A loop
// that neither reads nor allocates would still be abandoned.
func DecodeGuarded(size int64, decode func() (arrow.Table, error), src *StoppableReader) (arrow.Table, error) {
	type result struct {
		tbl arrow.Table
		err error
	}
	done := make(chan result, 1)
	go func() {
		var r result
		defer func() {
			if p := recover(); p != nil {
				r = result{nil, fmt.Errorf("decoding: %v (corrupt or truncated input?)", p)}
			}
			done <- r
		}()
		r.tbl, r.err = decode()
	}()
	budget := DecodeBudget + time.Duration(size>>20)*time.Second
	timer := time.NewTimer(budget)
	defer timer.Stop()
	select {
	case r := <-done:
		return r.tbl, r.err
	case <-timer.C:
		if src != nil {
			src.stop.Store(true)
		}
		return nil, fmt.Errorf("decoding did not finish in %v: corrupt file (a page header the decoder loops on?)", budget)
	}
}

// StoppableReader is the source a Parquet decoder reads: once stopped, every
// read fails.
type StoppableReader struct {
	r    parquet.ReaderAtSeeker
	stop atomic.Bool
}

// NewStoppable returns a StoppableReader of r.
func NewStoppable(r parquet.ReaderAtSeeker) *StoppableReader { return &StoppableReader{r: r} }

// Stopped reports whether DecodeGuarded stopped s (its decoder timed out).
func (s *StoppableReader) Stopped() bool { return s.stop.Load() }

var errStopped = errors.New("decoding stopped: it took too long")

func (s *StoppableReader) ReadAt(p []byte, off int64) (int, error) {
	if s.stop.Load() {
		return 0, errStopped
	}
	return s.r.ReadAt(p, off)
}

func (s *StoppableReader) Seek(off int64, whence int) (int64, error) {
	if s.stop.Load() {
		return 0, errStopped
	}
	return s.r.Seek(off, whence)
}

// DecodeBudget is the time DecodeGuarded allows any input, before 1 s per
// MiB. A variable so tests can shorten it.
var DecodeBudget = 10 * time.Second

// RecoverTo turns a panic inside a third-party encoder or decoder into an
// error, so bad input never crashes the process.
func RecoverTo(err *error, what string) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("%s: %v (corrupt or truncated input?)", what, r)
	}
}
