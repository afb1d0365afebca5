package data

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"

	"github.com/apache/arrow/go/v17/arrow"

	"github.com/schedplan/schedplan/data/internal/colfile"
	"github.com/schedplan/schedplan/internal/sysmem"
)

// This file reads job-log files without trusting them: it checks a file's
// frame (magic bytes, footer length) and the memory reading it needs before
// reading it, and streams text formats.

// chooser picks the fields of a columnar file to decode from their names.
type chooser = func(names []string) ([]int, error)

// parquetColumns chooses the columns of a Parquet jobs file that the jobs
// schema (with mapping m) reads.
func parquetColumns(path string, m Mapping) chooser {
	return parquetColumnsOf(path, m, Columns, ColJobID, ColSubmit)
}

// parquetColumnsOf is parquetColumns for a table with the given canonical
// columns, two of them required (resolveColumnsOf).
func parquetColumnsOf(path string, m Mapping, columns []string, req1, req2 string) chooser {
	return func(names []string) ([]int, error) {
		cols, err := resolveColumnsOf(path, names, m, columns, req1, req2)
		if err != nil {
			return nil, err
		}
		var idx []int
		for _, k := range cols {
			idx = append(idx, k)
		}
		return idx, nil
	}
}

// Memory-use estimates, in bytes of memory per byte of input, of reading a
// text log (the Jobs table is about as large as its CSV, and appending doubles
// a slice while it grows) and of an Arrow IPC file (the file in memory, then
// its columns copied into the table).
const (
	textMemoryPerByte  = 3
	arrowMemoryPerByte = 2
)

func readFile(path string, opt ReadOptions) (*Jobs, error) {
	fh, size, err := openInput(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	var b []byte
	switch {
	case size < 0: // a pipe or a device: no size to check
		if b, err = readAllWithin(fh, path); err != nil {
			return nil, err
		}
	case opt.Format == FormatTSV || opt.Format == FormatCSV:
		if err := checkMemory(path, textMemoryPerByte*size, fmt.Sprintf("a %s file of %s", opt.Format, ByteSize(size))); err != nil {
			return nil, err
		}
		j, err := readText(fh, path, &opt)
		return finishRead(j, err, path, nil, &opt)
	case opt.Format == FormatParquet:
		if size == 0 {
			return nil, inputErrorf(path, 0, "", "empty file")
		}
		if j, ok, err := readParquetStreamed(path, &opt, size, keepOpen{fh}); ok {
			return finishRead(j, err, path, nil, &opt)
		}
		j, err := readColumnar(path, &opt, size, colfile.NewStoppable(fh), nil)
		return finishRead(j, err, path, nil, &opt)
	case opt.Format == FormatArrow || opt.Format == FormatArrowStream:
		if b, err = readArrowFile(fh, path, size); err != nil {
			return nil, err
		}
	default:
		if err := checkMemory(path, size, "a file of "+ByteSize(size)); err != nil {
			return nil, err
		}
		b = make([]byte, size)
		if _, err := io.ReadFull(fh, b); err != nil {
			return nil, pathError(path, err)
		}
	}
	return ReadBytes(b, path, opt)
}

// openInput opens path for reading and returns it with its size, -1 for a
// pipe or a device.
func openInput(path string) (*os.File, int64, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, 0, pathError(path, err)
	}
	st, err := fh.Stat()
	if err != nil {
		fh.Close()
		return nil, 0, pathError(path, err)
	}
	if m := st.Mode(); m&(fs.ModeDevice|fs.ModeCharDevice) != 0 {
		// A device never ends or ends anywhere (/dev/zero, /dev/urandom,
		// a tty): no log is one. Pipes and FIFOs are read.
		fh.Close()
		return nil, 0, inputErrorf(path, 0, "", "is a device, not a log file or a pipe")
	} else if !m.IsRegular() {
		return fh, -1, nil
	}
	return fh, st.Size(), nil
}

// readArrowFile reads an Arrow IPC file of size bytes whole, once its magic
// bytes and the memory reading it needs are checked.
func readArrowFile(fh *os.File, path string, size int64) ([]byte, error) {
	if err := colfile.CheckArrowMagic(fh, size); err != nil {
		return nil, inputErrorf(path, 0, "", "%v", err)
	}
	if err := checkMemory(path, arrowMemoryPerByte*size, "an Arrow IPC file of "+ByteSize(size)); err != nil {
		return nil, err
	}
	b := make([]byte, size)
	if _, err := io.ReadFull(fh, b); err != nil {
		return nil, pathError(path, err)
	}
	return b, nil
}

// readTableFile decodes a Parquet or Arrow IPC results file, checked like a
// job log before it is read.
func readTableFile(path string, f Format) (arrow.Table, error) {
	fh, size, err := openInput(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	var b []byte
	switch {
	case size < 0:
		b, err = readAllWithin(fh, path)
	case f == FormatParquet:
	default:
		b, err = readArrowFile(fh, path, size)
	}
	if err != nil {
		return nil, err
	}
	decode := func() (arrow.Table, error) { return readArrowBytes(b, f) }
	src := colfile.NewStoppable(fh)
	if b == nil {
		decode = func() (arrow.Table, error) { return colfile.ReadParquet(src, size, nil) }
	} else {
		size = int64(len(b))
	}
	tbl, err := colfile.DecodeGuarded(size, decode, src)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", Printable(path), err)
	}
	return tbl, nil
}

// pathError is an error opening or reading path, with the path printable.
func pathError(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("%s: %w", Printable(path), err)
}

// readAllWithin reads r whole, refusing more than the memory available.
// It reads into chunks and joins them once at the end, a chunk at a time,
// instead of growing one buffer: growing a buffer of gigabytes copies it
// whole at each doubling, and such a copy cannot be interrupted, so a
// signal (or the garbage collector's stop of the world) would wait for
// it: a `--trace /dev/zero` took 1.0–1.5 s to stop after SIGTERM.
func readAllWithin(r io.Reader, path string) ([]byte, error) {
	limit := sysmem.Available()
	if limit < 0 {
		limit = math.MaxInt64 - 1
	}
	var chunks [][]byte
	var total int64
	size := 64 << 10
	for {
		buf := make([]byte, size)
		n, err := io.ReadFull(r, buf)
		if n > 0 {
			chunks = append(chunks, buf[:n])
			total += int64(n)
		}
		if total > limit {
			return nil, inputErrorf(path, 0, "", "more than the %s of memory available", ByteSize(limit))
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			break
		}
		if err != nil {
			return nil, pathError(path, err)
		}
		size = min(2*size, 16<<20)
	}
	if len(chunks) == 1 {
		return chunks[0], nil
	}
	b := make([]byte, 0, total)
	for _, c := range chunks {
		b = append(b, c...)
	}
	return b, nil
}

// readText reads a CSV or SWIM .tsv log from r.
func readText(r io.Reader, name string, opt *ReadOptions) (*Jobs, error) {
	if opt.Format == FormatTSV {
		if len(opt.Map) > 0 {
			opt.warn("%s: a SWIM .tsv has fixed columns; the column mapping is ignored", Printable(name))
		}
		return readTSV(r, name, opt)
	}
	return readCSV(r, name, opt)
}

// readColumnar decodes a Parquet or Arrow log of size bytes under
// colfile.DecodeGuarded's time budget, and converts it to Jobs. For Parquet,
// only the columns the jobs table takes are decoded.
//
// A Parquet file is read through src; an Arrow file is held in b.
func readColumnar(name string, opt *ReadOptions, size int64, src *colfile.StoppableReader, b []byte) (*Jobs, error) {
	var choose chooser
	if opt.Format == FormatParquet {
		choose = parquetColumns(name, opt.Map)
	}
	tbl, err := decodeColumnar(name, opt.Format, size, src, b, choose)
	if err != nil {
		return nil, err
	}
	defer tbl.Release()
	return jobsFromArrow(tbl, name, opt)
}

// decodeColumnar decodes a Parquet file (through src, size bytes, only the
// columns choose picks) or an Arrow file (held in b) under colfile.DecodeGuarded's
// time budget; errors name the file.
func decodeColumnar(name string, f Format, size int64, src *colfile.StoppableReader, b []byte, choose chooser) (arrow.Table, error) {
	tbl, err := colfile.DecodeGuarded(size, func() (arrow.Table, error) {
		if f == FormatParquet {
			return colfile.ReadParquet(src, size, choose)
		}
		return readArrowBytes(b, f)
	}, src)
	if err != nil {
		return nil, decodeError(name, err)
	}
	return tbl, nil
}

// checkMemory refuses to read path when the estimated memory need exceeds
// the memory available; what says what the estimate is of.
func checkMemory(path string, need int64, what string) error {
	if err := memoryFor(need, what); err != nil {
		return inputErrorf(path, 0, "", "%v", err)
	}
	return nil
}

// readArrowBytes decodes a Parquet file or an Arrow IPC file or stream held
// in b into an arrow.Table (which the caller must Release). For FormatArrow
// and FormatArrowStream, file and stream are told apart by their magic bytes.
func readArrowBytes(b []byte, f Format) (arrow.Table, error) {
	switch f {
	case FormatParquet, FormatArrow, FormatArrowStream:
		return colfile.ReadArrowBytes(b, f == FormatParquet)
	}
	return nil, fmt.Errorf("format %q is not Parquet or Arrow", f)
}

// memoryFor returns an error when need bytes exceed the memory available.
func memoryFor(need int64, what string) error { return sysmem.Check(need, what) }

// MemInfo returns a field of /proc/meminfo ("MemTotal", "MemAvailable")
// in bytes, −1 when unknown (sysmem.MemInfo).
func MemInfo(field string) int64 { return sysmem.MemInfo(field) }

// CgroupMemory returns this process's cgroup (v2) memory limit and use in
// bytes, −1 for one that is unknown or, for the limit, "max" (none)
// (sysmem.CgroupMemory).
func CgroupMemory() (limit, used int64) { return sysmem.CgroupMemory() }

// ByteSize formats n bytes in binary units (sysmem.ByteSize).
func ByteSize(n int64) string { return sysmem.ByteSize(n) }
