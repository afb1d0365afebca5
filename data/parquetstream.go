package data

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sort"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/parquet"
	"github.com/apache/arrow/go/v17/parquet/file"

	"github.com/schedplan/schedplan/data/internal/colfile"
)

// readParquetStreamed reads a Parquet job log GOMAXPROCS columns of one row
// group at a time (decoded in parallel), converting each straight into the
// jobs table: its memory is the table's plus GOMAXPROCS columns of one row
// group, where decoding the file whole held every column's Arrow array
// beside the table (twice the table at 10 M jobs). Each part is decoded under colfile.DecodeGuarded's budget
// and allocation bound, as the whole file would be, and converted by the
// same code (arrowCol.setIn); an error in a value names the file, the
// column and the row in the file.
//
// ok is false when the file is not for it: an unreadable footer or schema,
// a missing column, a decoding error, a BYTE_STREAM_SPLIT column in a file
// of several row groups, no rows. The caller then decodes the file whole,
// which reports the canonical error, or reads it.
func readParquetStreamed(path string, opt *ReadOptions, size int64, fh parquet.ReaderAtSeeker) (j *Jobs, ok bool, err error) {
	names, groupRows, need, err := parquetLayout(fh, size, parquetColumns(path, opt.Map))
	if err != nil || len(groupRows) == 0 {
		return nil, false, nil
	}
	cols, err := resolveColumns(path, names, opt.Map)
	if err != nil {
		return nil, false, nil
	}
	// The table, plus one column of one row group: half of what decoding
	// the file whole needs (colfile.ParquetMemory).
	if err := memoryFor(need/2, fmt.Sprintf("%d columns of %s", len(cols), Printable(path))); err != nil {
		return nil, true, inputErrorf(path, 0, "", "%v", err)
	}
	type field struct {
		canon string
		k     int
	}
	var fields []field
	for canon, k := range cols {
		fields = append(fields, field{canon, k})
	}
	sort.Slice(fields, func(a, b int) bool { return fields[a].k < fields[b].k })
	var total int64
	for _, r := range groupRows {
		total += r
	}
	acc := jobsAppender{hint: int(min(total, maxScanPrealloc))}
	for g, rows := range groupRows {
		if rows == 0 {
			continue
		}
		var groups []int // one row group: decoded as the whole file (BYTE_STREAM_SPLIT included)
		if len(groupRows) > 1 {
			groups = []int{g}
		}
		part := &Jobs{Source: path}
		// GOMAXPROCS columns at a time, decoded in parallel.
		for lo, step := 0, max(1, runtime.GOMAXPROCS(0)); lo < len(fields); lo += step {
			window := fields[lo:min(lo+step, len(fields))]
			var ks []int // the window's file columns, ascending, once each
			for _, f := range window {
				if len(ks) == 0 || ks[len(ks)-1] != f.k {
					ks = append(ks, f.k)
				}
			}
			src := colfile.NewStoppable(fh)
			only := func([]string) ([]int, error) { return ks, nil }
			tbl, err := colfile.DecodeGuarded(size, func() (arrow.Table, error) { return colfile.ReadParquetGroups(src, size, only, groups) }, src)
			if err != nil {
				if src.Stopped() { // timed out: decoding it whole would too
					return nil, true, decodeError(path, err)
				}
				return nil, false, nil
			}
			for _, f := range window {
				col := tbl.Column(slices.Index(ks, f.k))
				shared := slices.ContainsFunc(window, func(o field) bool { return o.k == f.k && o.canon != f.canon })
				c := &arrowCol{file: path, canon: f.canon, src: names[f.k], chunks: col.Data().Chunks(),
					n: int(tbl.NumRows()), unit: opt.Map.Source(f.canon).Unit, owned: !shared}
				if err = c.setIn(part); err != nil {
					break
				}
			}
			tbl.Release()
			if err != nil {
				return nil, true, atRow(err, acc.n)
			}
		}
		if err := acc.add(part); err != nil {
			return nil, true, err
		}
	}
	if acc.n == 0 {
		return nil, false, nil
	}
	acc.j.Source = path
	return &acc.j, true, nil
}

// atRow shifts the row an *InputError names by first (the file's rows
// before the part it is about).
func atRow(err error, first int) error {
	var ie *InputError
	if errors.As(err, &ie) && ie.Row > 0 {
		ie.Row += first
	}
	return err
}

// parquetLayout returns the top-level field names of a Parquet file, as
// its Arrow schema gives them, the rows of each row group, and the memory
// decoding the fields choose picks whole would need (colfile.ParquetMemory).
func parquetLayout(fh parquet.ReaderAtSeeker, size int64, choose chooser) (names []string, groupRows []int64, need int64, err error) {
	defer colfile.RecoverTo(&err, "decoding Parquet")
	if err := colfile.CheckParquetFrame(fh, size); err != nil {
		return nil, nil, 0, err
	}
	pr, err := file.NewParquetReader(keepOpen{fh})
	if err != nil {
		return nil, nil, 0, err
	}
	defer pr.Close()
	names, fields, err := colfile.ChooseParquetFields(pr, choose)
	if err != nil {
		return nil, nil, 0, err
	}
	var leaves []int
	for _, f := range fields {
		leaves = append(leaves, f.Leaves...)
	}
	for g := 0; g < pr.NumRowGroups(); g++ {
		groupRows = append(groupRows, max(0, pr.MetaData().RowGroup(g).NumRows()))
	}
	return names, groupRows, colfile.ParquetMemory(pr, leaves), nil
}

// jobsAppender concatenates jobs tables of the same columns (the parts of
// one file) into one, merging the dictionaries of users and queues.
type jobsAppender struct {
	j          Jobs
	n          int
	hint       int // rows expected in all: the capacity of the columns
	user, queu dictMerge
}

// dictMerge maps the values of the parts' dictionaries to the table's.
type dictMerge struct {
	seen  map[string]int32
	remap []int32
}

// add appends part's rows.
func (a *jobsAppender) add(p *Jobs) error {
	n0, m := a.n, p.Len()
	if n0 == 0 {
		a.j.ID.Offsets = append(make([]int32, 0, max(a.hint, m)+1), 0)
		// Ids take the first part's bytes per row; capacity never
		// written costs address space, not memory.
		per := len(p.ID.Data)/max(m, 1) + 1
		a.j.ID.Data = make([]byte, 0, min(per*max(a.hint, m), math.MaxInt32))
	}
	base := int64(len(a.j.ID.Data))
	if base+int64(len(p.ID.Data)) > math.MaxInt32 {
		return inputErrorf(p.Source, n0+1, ColJobID, "more than 2 GiB of job ids")
	}
	a.j.ID.Data = append(a.j.ID.Data, p.ID.Data...)
	for _, o := range p.ID.Offsets[1:] {
		a.j.ID.Offsets = append(a.j.ID.Offsets, int32(base)+o)
	}
	a.j.Submit = appendValues(a.j.Submit, p.Submit, a.hint)
	a.user.add(&a.j.User, p.User, a.hint)
	a.queu.add(&a.j.Queue, p.Queue, a.hint)
	appendColumn(&a.j.Priority, p.Priority, n0, a.hint)
	appendColumn(&a.j.Start, p.Start, n0, a.hint)
	appendColumn(&a.j.Finish, p.Finish, n0, a.hint)
	appendColumn(&a.j.MapTasks, p.MapTasks, n0, a.hint)
	appendColumn(&a.j.ReduceTasks, p.ReduceTasks, n0, a.hint)
	appendColumn(&a.j.MapTaskSeconds, p.MapTaskSeconds, n0, a.hint)
	appendColumn(&a.j.ReduceTaskSeconds, p.ReduceTaskSeconds, n0, a.hint)
	appendColumn(&a.j.InputBytes, p.InputBytes, n0, a.hint)
	appendColumn(&a.j.ShuffleBytes, p.ShuffleBytes, n0, a.hint)
	appendColumn(&a.j.OutputBytes, p.OutputBytes, n0, a.hint)
	appendColumn(&a.j.Size, p.Size, n0, a.hint)
	a.n += m
	return nil
}

// appendValues appends src to dst, giving dst the capacity hint when it
// has none.
func appendValues[T any](dst, src []T, hint int) []T {
	if dst == nil {
		dst = make([]T, 0, max(hint, len(src)))
	}
	return append(dst, src...)
}

// appendColumn appends src (a part's column) to dst, which holds n0 rows.
func appendColumn[T Number](dst *Column[T], src Column[T], n0, hint int) {
	if src.Values == nil {
		return
	}
	dst.Values = appendValues(dst.Values, src.Values, hint)
	n := n0 + len(src.Values)
	if src.Valid == nil && dst.Valid == nil {
		return
	}
	if dst.Valid == nil {
		dst.Valid = make(Bitmap, 0, (max(hint, n)+63)/64)
	}
	for len(dst.Valid) < (n+63)/64 {
		dst.Valid = append(dst.Valid, ^uint64(0))
	}
	if src.Valid != nil {
		for i := range src.Values {
			if !src.Valid.Valid(i) {
				dst.Valid.SetNull(n0 + i)
			}
		}
	}
}

// add appends src's codes to dst, as codes of dst's values.
func (m *dictMerge) add(dst *Dict, src Dict, hint int) {
	if src.Codes == nil {
		return
	}
	if m.seen == nil {
		m.seen = map[string]int32{}
	}
	m.remap = m.remap[:0]
	for _, v := range src.Values {
		c, ok := m.seen[v]
		if !ok {
			c = int32(len(dst.Values))
			m.seen[v] = c
			dst.Values = append(dst.Values, v)
		}
		m.remap = append(m.remap, c)
	}
	if dst.Codes == nil {
		dst.Codes = make([]int32, 0, max(hint, len(src.Codes)))
	}
	for _, c := range src.Codes {
		if c >= 0 {
			c = m.remap[c]
		}
		dst.Codes = append(dst.Codes, c)
	}
}
