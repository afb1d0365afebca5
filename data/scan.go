package data

import (
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
// caller that only aggregates: its memory is one part's, plus 8 bytes a
// job for the duplicate-id check. Every part
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
	var report *ColumnReport
	seed := maphash.MakeSeed()
	hashes := make([]uint64, 0, total)
	first, last := 0, 0.0
	for g := 0; g < groups; g++ {
		err := readParquetParts(path, &opt, size, in, g, func(part *Jobs) error {
			if part.Len() == 0 {
				return nil
			}
			part.idsChecked = true // checked across the parts below
			if Validate(part) != nil || !part.SortedBySubmit() || first > 0 && part.Submit[0] < last {
				return ErrNotScannable
			}
			for i := 0; i < part.Len(); i++ {
				hashes = append(hashes, maphash.Bytes(seed, part.ID.Bytes(i)))
			}
			if report == nil {
				report = buildColumnReport(names, opt.Map, part, -1)
			}
			if err := f(part, first, total); err != nil {
				return err
			}
			first += part.Len()
			last = part.Submit[part.Len()-1]
			return nil
		})
		if err != nil {
			return err
		}
	}
	if first == 0 {
		return ErrNotScannable
	}
	radix.Uint64s(hashes)
	for i := 1; i < len(hashes); i++ {
		if hashes[i] == hashes[i-1] {
			return ErrNotScannable
		}
	}
	if opt.Columns != nil {
		opt.Columns(report)
	}
	return nil
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

// readParquetParts reads row group g of a Parquet job log scanBatch rows at
// a time, with the checks of Open's Parquet reader, and hands each part to
// each, whose error it returns; a part it cannot read is ErrNotScannable.
func readParquetParts(path string, opt *ReadOptions, size int64, fh parquet.ReaderAtSeeker, g int, each func(*Jobs) error) error {
	src := colfile.NewStoppable(fh)
	b, err := colfile.NewParquetBatches(src, size, parquetColumns(path, opt.Map), g, scanBatch)
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
