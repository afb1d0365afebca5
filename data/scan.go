package data

import (
	"bytes"
	"errors"
	"fmt"
	"hash/maphash"
	"io"

	"github.com/apache/arrow/go/v17/parquet"
	"github.com/apache/arrow/go/v17/parquet/file"

	"github.com/schedplan/schedplan/data/internal/colfile"
	"github.com/schedplan/schedplan/internal/radix"
)

// ErrNotScannable is ScanParquet's answer for a log it cannot hand over in
// parts with Open's guarantees: not a Parquet file, submit times out of
// order across the file (Open sorts them, or refuses them with Strict), a
// job id that may repeat, a BYTE_STREAM_SPLIT column, a state column (whose
// failed jobs Open drops), or any input error
// (Open reports the canonical one). The caller then reads the log with
// Open.
var ErrNotScannable = errors.New("log cannot be scanned in parts")

// ScanParquet reads a Parquet job log a part of a row group at a time
// (scanBatch rows) and hands each to f as a table of its own (part; first
// is the index of its first row in the file, total the file's rows), for a
// caller that only aggregates: its memory is two parts' (the next is
// decoded while f works on one). Job ids that increase (idOrder) need no
// more; others are read again for the duplicate-id check, which holds 8
// bytes a job. Every part
// passes Validate, and the parts, concatenated, are the table Open returns:
// in submit-time order and without duplicate job ids; otherwise ScanParquet
// returns ErrNotScannable (possibly after f has seen some parts, which the
// caller then drops). An error f returns stops the scan and is returned.
func ScanParquet(path string, opt ReadOptions, f func(part *Jobs, first, total int) error) error {
	format := opt.Format
	if byName, err := FormatOf(path); format == "" && err == nil {
		format = byName
	}
	if format != FormatParquet {
		return ErrNotScannable
	}
	opt.Format = FormatParquet
	fh, size, err := openInput(path)
	if err != nil {
		return err
	}
	defer fh.Close()
	if size <= 0 {
		return ErrNotScannable
	}
	in := keepOpen{fh} // the Parquet readers close their source
	groups, total, err := parquetRowGroups(in)
	if err != nil {
		return ErrNotScannable
	}
	names, err := tableNames(path, FormatParquet, nil)
	if err != nil || stateColumn(names, opt.Map) >= 0 {
		return ErrNotScannable // failed jobs are dropped by Open
	}
	var (
		report      *ColumnReport
		ids         idOrder
		first, last = 0, 0.0
	)
	parts, stop := decodeAhead(path, &opt, size, in, groups, parquetColumns(path, opt.Map))
	defer stop()
	for p := range parts {
		if p.err != nil {
			return p.err
		}
		part := p.part
		part.idsChecked = true // checked across the parts below
		if Validate(part) != nil || !part.SortedBySubmit() || first > 0 && part.Submit[0] < last {
			return ErrNotScannable
		}
		ids.add(&part.ID)
		if report == nil {
			report = buildColumnReport(names, opt.Map, part, -1)
		}
		if err := f(part, first, total); err != nil {
			return err
		}
		first += part.Len()
		last = part.Submit[part.Len()-1]
	}
	if first == 0 {
		return ErrNotScannable
	}
	if !ids.increasing() && !uniqueIDHashes(path, &opt, size, in, groups, total) {
		return ErrNotScannable
	}
	if opt.Columns != nil {
		opt.Columns(report)
	}
	return nil
}

// scanned is one part decodeAhead hands over, or the error that ended it.
type scanned struct {
	part *Jobs
	err  error
}

// decodeAhead decodes the chosen columns of the Parquet job log's row
// groups (readParquetParts) on a goroutine of its own, one part ahead of
// the caller, who takes the non-empty parts in order from parts: so the
// caller's work on one part overlaps the decoding of the next. A part that
// cannot be read ends parts with ErrNotScannable. The caller must call
// stop before it closes the file (it waits for the decoder to end).
func decodeAhead(path string, opt *ReadOptions, size int64, in parquet.ReaderAtSeeker, groups int, choose chooser) (parts <-chan scanned, stop func()) {
	ch := make(chan scanned, 1)
	quit := make(chan struct{})
	go func() {
		defer close(ch)
		for g := 0; g < groups; g++ {
			err := readParquetParts(path, opt, size, in, g, choose, func(part *Jobs) error {
				if part.Len() == 0 {
					return nil
				}
				select {
				case ch <- scanned{part: part}:
					return nil
				case <-quit:
					return errScanStopped
				}
			})
			if err != nil {
				if err != errScanStopped {
					select {
					case ch <- scanned{err: err}:
					case <-quit:
					}
				}
				return
			}
		}
	}()
	return ch, func() {
		close(quit)
		for range ch { // until the decoder has let go of the file
		}
	}
}

// errScanStopped ends decodeAhead's decoder when its caller stops early.
var errScanStopped = errors.New("scan stopped")

// idOrder tells whether a run of job ids (parts added in order) increases
// strictly, byte by byte or shorter first (j9 before j10): such ids are
// unique without hashing or sorting them, which the logs schedplan writes
// and most clusters' ids (numbered in submission order) are.
type idOrder struct {
	last       []byte // the last id added (a copy)
	seen       bool
	notBytes   bool // some id is not above the one before it byte by byte
	notShorter bool // ... nor shorter first
}

// add extends the run by the ids of s.
func (o *idOrder) add(s *Strings) {
	n := s.Len()
	if n == 0 || o.notBytes && o.notShorter {
		return
	}
	prev, from := o.last, 0
	if !o.seen {
		prev, from = s.Bytes(0), 1
	}
	for i := from; i < n; i++ {
		id := s.Bytes(i)
		c := bytes.Compare(prev, id)
		o.notBytes = o.notBytes || c >= 0
		o.notShorter = o.notShorter || len(prev) > len(id) || len(prev) == len(id) && c >= 0
		prev = id
	}
	o.last = append(o.last[:0], prev...)
	o.seen = true
}

// increasing reports whether the ids added increase strictly in one of the
// two orders (and so are unique).
func (o *idOrder) increasing() bool { return !o.notBytes || !o.notShorter }

// uniqueIDHashes reads the job ids of the Parquet job log again (only
// that column and the submit times) and reports whether their 64-bit
// hashes are distinct: false for a repeated id, a hash collision (the log
// is then read whole, whose check is exact) or a read error.
func uniqueIDHashes(path string, opt *ReadOptions, size int64, in parquet.ReaderAtSeeker, groups, total int) bool {
	seed := maphash.MakeSeed()
	hashes := make([]uint64, 0, total)
	choose := parquetColumnsOf(path, opt.Map, []string{ColJobID, ColSubmit}, ColJobID, ColSubmit)
	for g := 0; g < groups; g++ {
		err := readParquetParts(path, opt, size, in, g, choose, func(part *Jobs) error {
			for i := 0; i < part.ID.Len(); i++ {
				hashes = append(hashes, maphash.Bytes(seed, part.ID.Bytes(i)))
			}
			return nil
		})
		if err != nil {
			return false
		}
	}
	radix.Uint64s(hashes)
	for i := 1; i < len(hashes); i++ {
		if hashes[i] == hashes[i-1] {
			return false
		}
	}
	return true
}

// keepOpen hides the Close of the file it wraps.
type keepOpen struct{ parquet.ReaderAtSeeker }

// parquetRowGroups returns the number of row groups and of rows of a
// Parquet file (rows capped at maxScanPrealloc: a bound for preallocation
// only).
func parquetRowGroups(fh parquet.ReaderAtSeeker) (groups, rows int, err error) {
	defer colfile.RecoverTo(&err, "decoding Parquet")
	pr, err := file.NewParquetReader(fh)
	if err != nil {
		return 0, 0, err
	}
	defer pr.Close()
	return pr.NumRowGroups(), int(max(0, min(pr.NumRows(), maxScanPrealloc))), nil
}

// maxScanPrealloc bounds what ScanParquet preallocates from a file's own
// row count (a corrupt footer must not make it allocate).
const maxScanPrealloc = 1 << 27

// scanBatch is the rows ScanParquet decodes at a time: 128 Ki rows of a
// jobs table's columns take ~6 MB, a row group of the 1 Mi rows Write puts
// in one ~50 MB.
const scanBatch = 1 << 16

// readParquetParts reads the columns choose picks of row group g of a
// Parquet job log scanBatch rows at a time, with the checks of Open's
// Parquet reader, and hands each part to
// each, whose error it returns; a part it cannot read is ErrNotScannable.
func readParquetParts(path string, opt *ReadOptions, size int64, fh parquet.ReaderAtSeeker, g int, choose chooser, each func(*Jobs) error) error {
	src := colfile.NewStoppable(fh)
	b, err := colfile.NewParquetBatches(src, size, choose, g, scanBatch)
	if err != nil {
		return ErrNotScannable
	}
	defer func() {
		if !src.Stopped() { // else a timed-out Next may still hold b
			b.Close()
		}
	}()
	for {
		tbl, err := colfile.DecodeGuarded(size, b.Next, src)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return ErrNotScannable
		}
		part, err := jobsFromTable(tbl, path, opt, true) // the decoder's buffers: taken, not copied
		tbl.Release()
		if err != nil {
			return ErrNotScannable
		}
		part.Source = path
		if err := each(part); err != nil {
			return err
		}
	}
}

// WriteParquetGroups writes j as Write does in Parquet, in row groups of up
// to rows rows (Write's are 1 Mi rows), the unit ScanParquet reads at a
// time.
func WriteParquetGroups(w io.Writer, j *Jobs, rows int) error {
	if rows < 1 {
		return fmt.Errorf("row groups of %d rows: want at least 1", rows)
	}
	rec := j.record()
	defer rec.Release()
	return colfile.WriteParquetGroups(w, rec, []string{ColUser, ColQueue}, int64(rows))
}
