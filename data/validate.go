package data

import (
	"bytes"
	"fmt"
	"hash/maphash"
	"math"
	"sort"
	"strings"
)

// The representable ranges of the jobs table (see the package documentation).
// Validate rejects values outside them, so that no later sum, product or
// conversion overflows.
const (
	// MaxTime is the latest time accepted, in seconds since the log's clock
	// origin (for epoch timestamps, about the year 5138). Times lie in
	// [0, MaxTime], where a float64 still resolves 2^-16 s (15 µs).
	MaxTime = 1e11
	// MaxSize is the largest size, task-seconds value or derived size of one
	// job, in container-seconds: 10^8 such jobs sum to 10^20, far from
	// overflow.
	MaxSize = 1e12
	// MaxBytes is the largest byte count of one job (2^53 B = 8 PiB): every
	// byte count is then exact as a float64, and the bytes rule's weighted
	// sum over 2^31 jobs stays finite.
	MaxBytes = 1 << 53
	// MaxTasks is the largest task count of one stage of one job.
	MaxTasks = 10_000_000
	// MinPriority and MaxPriority bound a job's priority, which is a weight
	// (a job's share grows with it; DESIGN.md: default 1).
	MinPriority = 1
	MaxPriority = 10_000
)

// Validate checks a table's values: every column as long as the table; job
// ids non-empty and unique; times finite and in [0, MaxTime], with start not
// before submit and finish not before start (or submit); sizes and
// task-seconds finite and in [0, MaxSize]; byte counts in [0, MaxBytes]; task
// counts in [0, MaxTasks]; priorities in [MinPriority, MaxPriority]. The
// error (an *InputError) names the source, row and column of the first
// problem found; for duplicate job ids it lists the first few with their
// rows.
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
		if t > MaxTime {
			return inputErrorf(j.Source, i+1, ColSubmit, "submit time %v s %s", t, tooLate)
		}
	}
	if err := checkFloatColumns(j); err != nil {
		return err
	}
	if err := checkTimeOrder(j); err != nil {
		return err
	}
	if err := checkCountColumns(j); err != nil {
		return err
	}
	for i, v := range j.Priority.Values {
		if (v < MinPriority || v > MaxPriority) && j.Priority.Valid.Valid(i) {
			return inputErrorf(j.Source, i+1, ColPriority, "priority %d is outside %d..%d: a priority is a weight (a job's share grows with it) and must be at least %d (add %d to logs whose priorities start at 0, or drop the column)",
				v, MinPriority, MaxPriority, MinPriority, MinPriority)
		}
	}
	if j.idsChecked { // a log reader just removed the duplicates (logs.go): once is enough
		j.idsChecked = false
		return nil
	}
	return checkDuplicateJobIDs(j)
}

// checkFloatColumns checks the optional float columns of j: times finite
// and at most MaxTime, sizes and task-seconds finite and in [0, MaxSize].
func checkFloatColumns(j *Jobs) error {
	for _, c := range []struct {
		name string
		col  *Column[float64]
		time bool
	}{
		{ColStart, &j.Start, true},
		{ColFinish, &j.Finish, true},
		{ColMapTaskSeconds, &j.MapTaskSeconds, false},
		{ColReduceTaskSeconds, &j.ReduceTaskSeconds, false},
		{ColSize, &j.Size, false},
	} {
		for i, v := range c.col.Values {
			if !c.col.Valid.Valid(i) {
				continue
			}
			switch {
			case math.IsNaN(v) || math.IsInf(v, 0):
				what := "a finite number"
				if !c.time {
					what = "a finite non-negative number"
				}
				return inputErrorf(j.Source, i+1, c.name, "%v is not %s", v, what)
			case c.time && v > MaxTime:
				return inputErrorf(j.Source, i+1, c.name, "%v s %s", v, tooLate)
			case !c.time && v < 0:
				return inputErrorf(j.Source, i+1, c.name, "%v is not a finite non-negative number", v)
			case !c.time && v > MaxSize:
				return inputErrorf(j.Source, i+1, c.name, "%v s is larger than %v s, the largest %s schedplan accepts (sums over 10^8 jobs must stay finite)", v, float64(MaxSize), c.name)
			}
		}
	}
	return nil
}

// checkCountColumns checks j's byte counts (in [0, MaxBytes]) and task
// counts (in [0, MaxTasks]).
func checkCountColumns(j *Jobs) error {
	for _, c := range []struct {
		name string
		col  *Column[int64]
	}{{ColInputBytes, &j.InputBytes}, {ColShuffleBytes, &j.ShuffleBytes}, {ColOutputBytes, &j.OutputBytes}} {
		for i, v := range c.col.Values {
			if !c.col.Valid.Valid(i) {
				continue
			}
			if v < 0 {
				return inputErrorf(j.Source, i+1, c.name, "negative byte count %d", v)
			}
			if v > MaxBytes {
				return inputErrorf(j.Source, i+1, c.name, "%d B is larger than %d B (8 PiB), the largest byte count of one job schedplan accepts", v, int64(MaxBytes))
			}
		}
	}
	for _, c := range []struct {
		name string
		col  *Column[int32]
	}{{ColMapTasks, &j.MapTasks}, {ColReduceTasks, &j.ReduceTasks}} {
		for i, v := range c.col.Values {
			if !c.col.Valid.Valid(i) {
				continue
			}
			if v < 0 {
				return inputErrorf(j.Source, i+1, c.name, "negative task count %d", v)
			}
			if v > MaxTasks {
				return inputErrorf(j.Source, i+1, c.name, "%d: more than %d tasks in one stage of one job", v, MaxTasks)
			}
		}
	}
	return nil
}

// checkDuplicateJobIDs reports duplicate job ids, listing the first few with
// their rows.
func checkDuplicateJobIDs(j *Jobs) error {
	dups := duplicateIDs(&j.ID, maxDuplicatesListed)
	if len(dups) == 0 {
		return nil
	}
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

// tooLate ends the message about a time after MaxTime.
var tooLate = fmt.Sprintf("is later than %v s (the year 5138 as a Unix time), the latest time schedplan accepts; "+
	"times in milliseconds, microseconds or nanoseconds need their unit in the column mapping (e.g. submit_time=NAME:ms)", float64(MaxTime))

// checkTimeOrder reports a job that starts before it is submitted or
// finishes before it starts (or, without a start time, before it is
// submitted).
func checkTimeOrder(j *Jobs) error {
	for i := 0; i < j.Len(); i++ {
		sub := j.Submit[i]
		start, hasStart := j.Start.At(i)
		if hasStart && start < sub {
			return inputErrorf(j.Source, i+1, ColStart, "start time %v s is before the submit time %v s", start, sub)
		}
		fin, ok := j.Finish.At(i)
		switch {
		case !ok:
		case hasStart && fin < start:
			return inputErrorf(j.Source, i+1, ColFinish, "finish time %v s is before the start time %v s", fin, start)
		case fin < sub:
			return inputErrorf(j.Source, i+1, ColFinish, "finish time %v s is before the submit time %v s", fin, sub)
		}
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
//
// It hashes every id once, partitions the rows by the top bits of the hash
// (a counting sort that keeps row order), and finds repeats partition by
// partition in an open-addressing table small enough to stay in cache. Slots
// hold a 32-bit fingerprint beside the row, so ids are compared byte by byte
// only when fingerprints match. No per-id allocation.
func duplicateIDs(s *Strings, limit int) [][2]int {
	n := s.Len()
	if n < 2 {
		return nil
	}
	const perPart = 1 << 14 // rows per partition, on average
	shift := uint(64)
	parts := 1
	for parts*perPart < n {
		parts <<= 1
		shift--
	}
	seed := maphash.MakeSeed()
	hashes := make([]uint64, n)
	counts := make([]int32, parts+1)
	for i := range hashes {
		h := maphash.Bytes(seed, s.Bytes(i))
		hashes[i] = h
		if parts > 1 {
			counts[h>>shift+1]++
		}
	}
	// Rows grouped by partition, ascending within each, with their hashes
	// beside them so the per-partition pass reads memory in order.
	order := make([]int32, n)
	ordHash := hashes
	if parts > 1 {
		ordHash = make([]uint64, n)
		for p := 1; p <= parts; p++ {
			counts[p] += counts[p-1]
		}
		next := append([]int32(nil), counts[:parts]...)
		for i, h := range hashes {
			p := h >> shift
			order[next[p]] = int32(i)
			ordHash[next[p]] = h
			next[p]++
		}
	} else {
		counts[1] = int32(n)
		for i := range order {
			order[i] = int32(i)
		}
	}
	largest := 0
	for p := 0; p < parts; p++ {
		largest = max(largest, int(counts[p+1]-counts[p]))
	}
	size := 1
	for size < 2*largest {
		size <<= 1
	}
	slots := make([]uint64, size) // fingerprint<<32 | row+1; 0 is empty
	const low = 1<<32 - 1
	var dups [][2]int
	for p := 0; p < parts; p++ {
		rows := order[counts[p]:counts[p+1]]
		rowHash := ordHash[counts[p]:counts[p+1]]
		if len(rows) < 2 {
			continue
		}
		tsize := 1
		for tsize < 2*len(rows) {
			tsize <<= 1
		}
		table := slots[:tsize]
		clear(table)
		mask := uint64(tsize - 1)
		var found [][2]int
		var reported map[string]bool
	rowLoop:
		for x, r32 := range rows {
			i := int(r32)
			h := rowHash[x]
			fp := h &^ low
			for k := h & mask; ; k = (k + 1) & mask {
				e := table[k]
				if e == 0 {
					table[k] = fp | uint64(i+1)
					break
				}
				if e&^low != fp {
					continue
				}
				first := int(e&low) - 1
				if !bytes.Equal(s.Bytes(first), s.Bytes(i)) {
					continue
				}
				if reported == nil {
					reported = map[string]bool{}
				}
				if id := string(s.Bytes(i)); !reported[id] {
					reported[id] = true
					found = append(found, [2]int{first, i})
					if len(found) == limit { // the partition's earliest ones
						break rowLoop
					}
				}
				break
			}
		}
		dups = append(dups, found...)
	}
	sort.Slice(dups, func(a, b int) bool { return dups[a][1] < dups[b][1] })
	if len(dups) > limit {
		dups = dups[:limit]
	}
	return dups
}
