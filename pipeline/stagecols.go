package pipeline

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"

	"github.com/schedplan/schedplan/data"
)

// A stage's state that holds per-job arrays (the classifications' labels,
// the validation window's deadlines) would make its JSON stamp grow with
// the log: 130 MB of digits at 10 M jobs, and several times that in
// memory while it is encoded or decoded. The runner keeps such arrays out
// of the JSON, in a binary side file beside the stamp
// (.schedplan/STAGE.cols), which the stamp lists among its files with its
// SHA-256: a stage whose side file is missing or changed is not up to
// date. A stamp written before side files existed holds the arrays in its
// JSON, and still loads.

// perJobCol is one per-job array of a stage's state: exactly one of the
// pointers is set.
type perJobCol struct {
	name string
	i32  *[]int32
	ints *[]int
	f64  *[]float64
}

// perJobState is a stage state with per-job arrays.
type perJobState interface {
	perJobColumns() []perJobCol
}

func (s *classState) perJobColumns() []perJobCol {
	return []perJobCol{
		{name: "primary.rows", ints: &s.Primary.Rows},
		{name: "primary.assign", i32: &s.Primary.Assign},
		{name: "secondary.rows", ints: &s.Secondary.Rows},
		{name: "secondary.assign", i32: &s.Secondary.Assign},
	}
}

func (s *boundsState) perJobColumns() []perJobCol {
	return []perJobCol{{name: "deadlines", f64: &s.Deadlines}}
}

// perJobColumns are those of the wrapped state.
func (s *stamped) perJobColumns() []perJobCol {
	if p, ok := s.State.(perJobState); ok {
		return p.perJobColumns()
	}
	return nil
}

// perJobColumnsOf returns a state's per-job arrays (nil: none).
func perJobColumnsOf(state any) []perJobCol {
	if p, ok := state.(perJobState); ok {
		return p.perJobColumns()
	}
	return nil
}

// sidePath is the side file of a stage, relative to the output directory.
func sidePath(stage string) string { return filepath.Join(StampDir, stage+".cols") }

// sideMagic starts a side file.
const sideMagic = "schedplan per-job columns 1\n"

// Element kinds of a side file's columns.
const (
	sideInt32 byte = 1 + iota
	sideInt64
	sideFloat64
)

// detach empties the columns (for the JSON) and returns a function that
// puts them back.
func detach(cols []perJobCol) (restore func()) {
	type saved struct {
		i32  []int32
		ints []int
		f64  []float64
	}
	keep := make([]saved, len(cols))
	for k, c := range cols {
		switch {
		case c.i32 != nil:
			keep[k].i32, *c.i32 = *c.i32, nil
		case c.ints != nil:
			keep[k].ints, *c.ints = *c.ints, nil
		default:
			keep[k].f64, *c.f64 = *c.f64, nil
		}
	}
	return func() {
		for k, c := range cols {
			switch {
			case c.i32 != nil:
				*c.i32 = keep[k].i32
			case c.ints != nil:
				*c.ints = keep[k].ints
			default:
				*c.f64 = keep[k].f64
			}
		}
	}
}

// writeSide writes the columns to path (temporary file, then rename) and
// returns the file's SHA-256: the magic, then per column its name (uint16
// length, bytes), kind, length (int64, −1 for a nil array) and values,
// little-endian.
func writeSide(path string, cols []perJobCol) (string, error) {
	h := sha256.New()
	err := data.WriteFileAtomic(path, true, func(w io.Writer) error {
		bw := bufio.NewWriterSize(io.MultiWriter(w, h), 1<<16)
		bw.WriteString(sideMagic)
		var b [8]byte
		for _, c := range cols {
			binary.LittleEndian.PutUint16(b[:2], uint16(len(c.name)))
			bw.Write(b[:2])
			bw.WriteString(c.name)
			kind, n, isNil := c.shape()
			bw.WriteByte(kind)
			if isNil {
				n = -1
			}
			binary.LittleEndian.PutUint64(b[:], uint64(int64(n)))
			bw.Write(b[:])
			for i := 0; i < n; i++ {
				switch kind {
				case sideInt32:
					binary.LittleEndian.PutUint32(b[:4], uint32((*c.i32)[i]))
					bw.Write(b[:4])
				case sideInt64:
					binary.LittleEndian.PutUint64(b[:], uint64(int64((*c.ints)[i])))
					bw.Write(b[:])
				default:
					binary.LittleEndian.PutUint64(b[:], math.Float64bits((*c.f64)[i]))
					bw.Write(b[:])
				}
			}
		}
		return bw.Flush()
	})
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// shape returns the column's kind, length and whether it is nil.
func (c perJobCol) shape() (kind byte, n int, isNil bool) {
	switch {
	case c.i32 != nil:
		return sideInt32, len(*c.i32), *c.i32 == nil
	case c.ints != nil:
		return sideInt64, len(*c.ints), *c.ints == nil
	}
	return sideFloat64, len(*c.f64), *c.f64 == nil
}

// readSide reads the columns back from path; a file that does not hold
// exactly these columns, in this order, is an error.
func readSide(path string, cols []perJobCol) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	left := st.Size()
	br := bufio.NewReaderSize(f, 1<<16)
	magic := make([]byte, len(sideMagic))
	if _, err := io.ReadFull(br, magic); err != nil || string(magic) != sideMagic {
		return errors.New("not a side file")
	}
	var b [8]byte
	for _, c := range cols {
		if _, err := io.ReadFull(br, b[:2]); err != nil {
			return err
		}
		name := make([]byte, binary.LittleEndian.Uint16(b[:2]))
		if _, err := io.ReadFull(br, name); err != nil {
			return err
		}
		kind, _, _ := c.shape()
		k, err := br.ReadByte()
		if err != nil {
			return err
		}
		if string(name) != c.name || k != kind {
			return fmt.Errorf("column %q of kind %d, want %q of kind %d", name, k, c.name, kind)
		}
		if _, err := io.ReadFull(br, b[:]); err != nil {
			return err
		}
		n := int64(binary.LittleEndian.Uint64(b[:]))
		if n < -1 || n > left {
			return fmt.Errorf("column %q: %d values in a file of %d bytes", c.name, n, left)
		}
		if err := c.read(br, int(n)); err != nil {
			return fmt.Errorf("column %q: %w", c.name, err)
		}
	}
	if _, err := br.ReadByte(); err != io.EOF {
		return errors.New("trailing bytes")
	}
	return nil
}

// read reads n values (−1: a nil array) into the column.
func (c perJobCol) read(r io.Reader, n int) error {
	var b [8]byte
	switch {
	case c.i32 != nil:
		*c.i32 = nil
		if n >= 0 {
			*c.i32 = make([]int32, n)
		}
		for i := 0; i < n; i++ {
			if _, err := io.ReadFull(r, b[:4]); err != nil {
				return err
			}
			(*c.i32)[i] = int32(binary.LittleEndian.Uint32(b[:4]))
		}
	case c.ints != nil:
		*c.ints = nil
		if n >= 0 {
			*c.ints = make([]int, n)
		}
		for i := 0; i < n; i++ {
			if _, err := io.ReadFull(r, b[:]); err != nil {
				return err
			}
			(*c.ints)[i] = int(int64(binary.LittleEndian.Uint64(b[:])))
		}
	default:
		*c.f64 = nil
		if n >= 0 {
			*c.f64 = make([]float64, n)
		}
		for i := 0; i < n; i++ {
			if _, err := io.ReadFull(r, b[:]); err != nil {
				return err
			}
			(*c.f64)[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[:]))
		}
	}
	return nil
}
