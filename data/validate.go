package data

import (
	"bytes"
	"fmt"
	"hash/maphash"
	"math"
	"strings"
)

// Validate checks a table's values: every column as long as the table; job
// ids non-empty and unique; submit times finite and non-negative; start and
// finish times finite; sizes and task-seconds finite and non-negative; byte
// counts and task counts non-negative. The error (an *InputError) names the
// source, row and column of the first problem found; for duplicate job ids
// it lists the first few with their rows.
func Validate(j *Jobs) error {
	n := j.Len()
	if j.ID.Len() != n {
		return inputErrorf(j.Source, 0, ColJobID, "has %d rows, %s has %d", j.ID.Len(), ColSubmit, n)
	}
	if err := checkLengths(j); err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		if len(j.ID.Bytes(i)) == 0 {
			return inputErrorf(j.Source, i+1, ColJobID, "empty job id")
		}
	}
	for i, t := range j.Submit {
		if math.IsNaN(t) || math.IsInf(t, 0) || t < 0 {
			return inputErrorf(j.Source, i+1, ColSubmit, "submit time %v is not a finite non-negative number", t)
		}
	}
	for _, c := range []struct {
		name string
		col  *Column[float64]
		neg  bool // negative values allowed
	}{
		{ColStart, &j.Start, true},
		{ColFinish, &j.Finish, true},
		{ColMapTaskSeconds, &j.MapTaskSeconds, false},
		{ColReduceTaskSeconds, &j.ReduceTaskSeconds, false},
		{ColSize, &j.Size, false},
	} {
		for i, v := range c.col.Values {
			if math.IsNaN(v) || math.IsInf(v, 0) || (!c.neg && v < 0) {
				if !c.col.Valid.Valid(i) {
					continue
				}
				what := "a finite number"
				if !c.neg {
					what = "a finite non-negative number"
				}
				return inputErrorf(j.Source, i+1, c.name, "%v is not %s", v, what)
			}
		}
	}
	for _, c := range []struct {
		name string
		col  *Column[int64]
	}{{ColInputBytes, &j.InputBytes}, {ColShuffleBytes, &j.ShuffleBytes}, {ColOutputBytes, &j.OutputBytes}} {
		for i, v := range c.col.Values {
			if v < 0 && c.col.Valid.Valid(i) {
				return inputErrorf(j.Source, i+1, c.name, "negative byte count %d", v)
			}
		}
	}
	for _, c := range []struct {
		name string
		col  *Column[int32]
	}{{ColMapTasks, &j.MapTasks}, {ColReduceTasks, &j.ReduceTasks}} {
		for i, v := range c.col.Values {
			if v < 0 && c.col.Valid.Valid(i) {
				return inputErrorf(j.Source, i+1, c.name, "negative task count %d", v)
			}
		}
	}
	if dups := duplicateIDs(&j.ID, maxDuplicatesListed); len(dups) > 0 {
		var parts []string
		for _, d := range dups {
			parts = append(parts, fmt.Sprintf("%q (rows %d and %d)", j.ID.Bytes(d[1]), d[0]+1, d[1]+1))
		}
		more := ""
		if len(dups) == maxDuplicatesListed {
			more = ", ..."
		}
		return inputErrorf(j.Source, dups[0][1]+1, ColJobID, "duplicate job ids: %s%s", strings.Join(parts, ", "), more)
	}
	return nil
}

// maxDuplicatesListed is how many duplicate job ids an error lists.
const maxDuplicatesListed = 5

// checkLengths reports a present column whose length differs from the
// table's, or a dictionary code out of range.
func checkLengths(j *Jobs) error {
	n := j.Len()
	bad := func(name string, l int) error {
		return inputErrorf(j.Source, 0, name, "has %d rows, the table %d", l, n)
	}
	for _, d := range []struct {
		name string
		d    *Dict
	}{{ColUser, &j.User}, {ColQueue, &j.Queue}} {
		if d.d.Present() && len(d.d.Codes) != n {
			return bad(d.name, len(d.d.Codes))
		}
		for i, c := range d.d.Codes {
			if int(c) >= len(d.d.Values) {
				return inputErrorf(j.Source, i+1, d.name, "dictionary code %d out of range", c)
			}
		}
	}
	type col struct {
		name       string
		values, bm int
	}
	cols := []col{
		{ColPriority, len(j.Priority.Values), len(j.Priority.Valid)},
		{ColStart, len(j.Start.Values), len(j.Start.Valid)},
		{ColFinish, len(j.Finish.Values), len(j.Finish.Valid)},
		{ColMapTasks, len(j.MapTasks.Values), len(j.MapTasks.Valid)},
		{ColReduceTasks, len(j.ReduceTasks.Values), len(j.ReduceTasks.Valid)},
		{ColMapTaskSeconds, len(j.MapTaskSeconds.Values), len(j.MapTaskSeconds.Valid)},
		{ColReduceTaskSeconds, len(j.ReduceTaskSeconds.Values), len(j.ReduceTaskSeconds.Valid)},
		{ColInputBytes, len(j.InputBytes.Values), len(j.InputBytes.Valid)},
		{ColShuffleBytes, len(j.ShuffleBytes.Values), len(j.ShuffleBytes.Valid)},
		{ColOutputBytes, len(j.OutputBytes.Values), len(j.OutputBytes.Valid)},
		{ColSize, len(j.Size.Values), len(j.Size.Valid)},
	}
	present := map[string]bool{}
	for _, c := range cols {
		present[c.name] = j.Present(c.name)
	}
	for _, c := range cols {
		if !present[c.name] {
			continue
		}
		if c.values != n {
			return bad(c.name, c.values)
		}
		if c.bm != 0 && c.bm < (n+63)/64 {
			return inputErrorf(j.Source, 0, c.name, "validity bitmap covers %d rows, the table has %d", c.bm*64, n)
		}
	}
	return nil
}

// duplicateIDs returns up to limit pairs (first row, later row) of rows with
// equal ids, one pair per distinct duplicated id, in order of the later row.
// It uses an open-addressing hash set whose slots hold a 32-bit fingerprint
// of the id beside its row, so ids are compared only when fingerprints match:
// no per-id allocation and few random reads.
func duplicateIDs(s *Strings, limit int) [][2]int {
	n := s.Len()
	if n < 2 {
		return nil
	}
	size := 1
	for size < 2*n {
		size <<= 1
	}
	mask := uint64(size - 1)
	slots := make([]uint64, size) // fingerprint<<32 | row+1; 0 is empty
	seed := maphash.MakeSeed()
	var dups [][2]int
	reported := map[string]bool{}
	for i := 0; i < n; i++ {
		b := s.Bytes(i)
		h := maphash.Bytes(seed, b)
		fp := h &^ (1<<32 - 1)
		k := h & mask
		for {
			e := slots[k]
			if e == 0 {
				slots[k] = fp | uint64(i+1)
				break
			}
			if e&^(1<<32-1) == fp {
				r := int(e&(1<<32-1)) - 1
				if bytes.Equal(s.Bytes(r), b) {
					if !reported[string(b)] {
						reported[string(b)] = true
						dups = append(dups, [2]int{r, i})
						if len(dups) == limit {
							return dups
						}
					}
					break
				}
			}
			k = (k + 1) & mask
		}
	}
	return dups
}
