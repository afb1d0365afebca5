package data

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"strconv"
)

// SWIM .tsv columns, in file order. The third column (gap since the previous
// submission) is derived from the second and not stored. SWIM's
// WorkloadSynthesis.pl writes two more when its input had paths (the
// …withInputPaths_N traces): the anonymised map input path ("inputPathN")
// and reduce output path ("outputPathN"), either empty when unknown, each
// followed by a tab, so such a row has nine fields, the last empty. The
// paths are read and ignored (schedplan models no data placement).
var tsvColumns = [TSVMaxFields]string{ColJobID, ColSubmit, "gap", ColInputBytes, ColShuffleBytes, ColOutputBytes, "input_path", "output_path", ""}

// The fields of a SWIM .tsv row: six, or up to nine with paths.
const (
	TSVFields    = 6
	TSVMaxFields = 9
)

func readTSV(r io.Reader, name string, opt *ReadOptions) (*Jobs, error) {
	j := &Jobs{}
	var in, sh, out []int64
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	row := 0
	var fields [TSVMaxFields][]byte
	for sc.Scan() {
		row++
		line := bytes.TrimRight(sc.Bytes(), "\r")
		if len(line) == 0 {
			continue
		}
		n := SplitTabs(line, fields[:])
		if n < TSVFields {
			return nil, inputErrorf(name, row, tsvColumns[n], "missing: a SWIM .tsv row has 6 tab-separated columns (9 with input and output paths), this one has %d (truncated file?)", n)
		}
		if n > TSVMaxFields || (n == TSVMaxFields && len(fields[TSVMaxFields-1]) > 0) {
			return nil, inputErrorf(name, row, "", "a SWIM .tsv row has 6 tab-separated columns (9 with input and output paths, the last empty), this one has %d", n)
		}
		if len(fields[0]) == 0 {
			return nil, inputErrorf(name, row, ColJobID, "empty job id")
		}
		t, err := strconv.ParseFloat(string(fields[1]), 64)
		if err != nil {
			return nil, inputErrorf(name, row, ColSubmit, "%q is not a number", fields[1])
		}
		if _, err := strconv.ParseFloat(string(fields[2]), 64); err != nil {
			return nil, inputErrorf(name, row, "gap", "%q is not a number", fields[2])
		}
		var b [3]int64
		for k := 0; k < 3; k++ {
			v, err := strconv.ParseInt(string(fields[3+k]), 10, 64)
			if err != nil {
				return nil, inputErrorf(name, row, tsvColumns[3+k], "%q is not an integer byte count", fields[3+k])
			}
			if v < 0 {
				return nil, inputErrorf(name, row, tsvColumns[3+k], "negative byte count %d", v)
			}
			b[k] = v
		}
		j.ID.Append(string(fields[0]))
		j.Submit = append(j.Submit, t)
		in = append(in, b[0])
		sh = append(sh, b[1])
		out = append(out, b[2])
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, inputErrorf(name, row+1, "", "line longer than 1 MiB (not a SWIM .tsv?)")
		}
		return nil, inputErrorf(name, row+1, "", "%v", err)
	}
	j.InputBytes.Values, j.ShuffleBytes.Values, j.OutputBytes.Values = in, sh, out
	j.Source = name
	return j, nil
}

// writeTSV writes j as SWIM .tsv. Byte columns that are absent or null are
// written as 0; the gap column is recomputed from submit times.
func writeTSV(w io.Writer, j *Jobs) error {
	bw := bufio.NewWriter(w)
	buf := make([]byte, 0, 128)
	prev := 0.0
	for i := 0; i < j.Len(); i++ {
		buf = buf[:0]
		buf = append(buf, j.ID.Bytes(i)...)
		buf = append(buf, '\t')
		buf = strconv.AppendFloat(buf, j.Submit[i], 'f', -1, 64)
		buf = append(buf, '\t')
		buf = strconv.AppendFloat(buf, j.Submit[i]-prev, 'f', -1, 64)
		prev = j.Submit[i]
		for _, c := range []*Column[int64]{&j.InputBytes, &j.ShuffleBytes, &j.OutputBytes} {
			v, _ := c.At(i)
			buf = append(buf, '\t')
			buf = strconv.AppendInt(buf, v, 10)
		}
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// SplitTabs splits line at tabs into dst and returns the number of fields
// (which may exceed len(dst)).
func SplitTabs(line []byte, dst [][]byte) int {
	n := 0
	for {
		k := bytes.IndexByte(line, '\t')
		if k < 0 {
			if n < len(dst) {
				dst[n] = line
			}
			return n + 1
		}
		if n < len(dst) {
			dst[n] = line[:k]
		}
		n++
		line = line[k+1:]
	}
}
