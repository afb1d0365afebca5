package data

import (
	"fmt"
	"math"
	"strings"
)

// Column names of the tasks table (DESIGN.md, "Data model": the optional
// tasks table) that the jobs table does not already name. job_id,
// start_time and finish_time are shared with the jobs table.
const (
	ColStage          = "stage"
	ColTaskID         = "task_id"
	ColStatus         = "status"
	ColContainers     = "containers"
	ColMemoryMB       = "memory_mb"
	ColVcores         = "vcores"
	ColNode           = "node"
	ColNodeType       = "node_type"
	ColMapSeconds     = "map_seconds"
	ColShuffleSeconds = "shuffle_seconds"
	ColMergeSeconds   = "merge_seconds"
	ColSortSeconds    = "sort_seconds"
	ColReduceSeconds  = "reduce_seconds"
	ColCPUSeconds     = "cpu_seconds"
	ColMemBytes       = "mem_bytes"
	ColDiskBytes      = "disk_bytes"
	ColNetBytes       = "net_bytes"
)

// TaskColumns lists the tasks table's columns in table order.
var TaskColumns = []string{
	ColJobID, ColStage, ColTaskID, ColStart, ColFinish, ColStatus,
	ColContainers, ColMemoryMB, ColVcores, ColNode, ColNodeType,
	ColMapSeconds, ColShuffleSeconds, ColMergeSeconds, ColSortSeconds, ColReduceSeconds,
	ColCPUSeconds, ColMemBytes, ColDiskBytes, ColNetBytes,
}

// Tasks is the tasks table: one row per task (attempt), held column by
// column like Jobs. JobID and TaskID are always present; (job_id, task_id)
// is unique. Times are in seconds, on the same clock as the jobs table.
//
//   - Stage names the stage the task belongs to ("map", "reduce", a Spark
//     stage id, an Alibaba task name such as "M5"); see StageKind.
//   - Status is the source's final state of the attempt (SUCCEEDED, FAILED,
//     KILLED, ...); a null status means succeeded.
//   - Containers, MemoryMB and Vcores are what the task held (containers
//     default to 1); Node and NodeType say where it ran.
//   - The phase columns are seconds spent in each phase of a MapReduce task;
//     CPUSeconds, MemBytes (peak), DiskBytes and NetBytes its resource use.
type Tasks struct {
	Source string

	JobID  Strings
	Stage  Dict
	TaskID Strings

	Start  Column[float64]
	Finish Column[float64]
	Status Dict

	Containers Column[int32]
	MemoryMB   Column[int64]
	Vcores     Column[int32]
	Node       Dict
	NodeType   Dict

	MapSeconds     Column[float64]
	ShuffleSeconds Column[float64]
	MergeSeconds   Column[float64]
	SortSeconds    Column[float64]
	ReduceSeconds  Column[float64]

	CPUSeconds Column[float64]
	MemBytes   Column[int64]
	DiskBytes  Column[int64]
	NetBytes   Column[int64]
}

// Len returns the number of tasks.
func (t *Tasks) Len() int { return t.JobID.Len() }

// taskCol is one column of a Tasks table, for code that handles every
// column alike (I/O, validation). ptr is *Strings, *Dict, *Column[float64],
// *Column[int64] or *Column[int32].
type taskCol struct {
	name string
	ptr  any
	time bool // a time column (mapping units apply)
	neg  bool // negative values are valid
}

// cols returns t's columns in TaskColumns order.
func (t *Tasks) cols() []taskCol {
	return []taskCol{
		{name: ColJobID, ptr: &t.JobID},
		{name: ColStage, ptr: &t.Stage},
		{name: ColTaskID, ptr: &t.TaskID},
		{name: ColStart, ptr: &t.Start, time: true, neg: true},
		{name: ColFinish, ptr: &t.Finish, time: true, neg: true},
		{name: ColStatus, ptr: &t.Status},
		{name: ColContainers, ptr: &t.Containers},
		{name: ColMemoryMB, ptr: &t.MemoryMB},
		{name: ColVcores, ptr: &t.Vcores},
		{name: ColNode, ptr: &t.Node},
		{name: ColNodeType, ptr: &t.NodeType},
		{name: ColMapSeconds, ptr: &t.MapSeconds},
		{name: ColShuffleSeconds, ptr: &t.ShuffleSeconds},
		{name: ColMergeSeconds, ptr: &t.MergeSeconds},
		{name: ColSortSeconds, ptr: &t.SortSeconds},
		{name: ColReduceSeconds, ptr: &t.ReduceSeconds},
		{name: ColCPUSeconds, ptr: &t.CPUSeconds},
		{name: ColMemBytes, ptr: &t.MemBytes},
		{name: ColDiskBytes, ptr: &t.DiskBytes},
		{name: ColNetBytes, ptr: &t.NetBytes},
	}
}

// present reports whether column c exists in the table.
func (c taskCol) present() bool {
	switch p := c.ptr.(type) {
	case *Strings:
		return true
	case *Dict:
		return p.Present()
	case *Column[float64]:
		return p.Present()
	case *Column[int64]:
		return p.Present()
	case *Column[int32]:
		return p.Present()
	}
	return false
}

// Present reports whether the named column exists in the table.
func (t *Tasks) Present(col string) bool {
	for _, c := range t.cols() {
		if c.name == col {
			return c.present()
		}
	}
	return false
}

// ContainersAt returns task i's container count, 1 when the log gives none.
func (t *Tasks) ContainersAt(i int) int32 {
	if c, ok := t.Containers.At(i); ok {
		return c
	}
	return 1
}

// Succeeded reports whether task i ended well: a null status, or one that
// names success (SUCCEEDED, SUCCESS, FINISHED, Terminated, ...).
func (t *Tasks) Succeeded(i int) bool {
	s, ok := t.Status.At(i)
	return !ok || StatusSucceeded(s)
}

// StatusSucceeded tells the success states of the supported logs from
// failure, kill and loss states.
func StatusSucceeded(s string) bool {
	switch strings.ToUpper(s) {
	case "", "SUCCEEDED", "SUCCESS", "FINISHED", "FINISH", "TERMINATED", "DONE", "JOBSUCCEEDED", "OK", "COMPLETED":
		return true
	}
	return false
}

// ValidateTasks checks a tasks table the way Validate checks jobs: every
// column as long as the table; job and task ids non-empty and (job_id,
// task_id) unique; times finite and no task finishing before it starts;
// phase durations, CPU seconds and resources finite and non-negative. The
// error (an *InputError) names the source, row and column of the first
// problem.
func ValidateTasks(t *Tasks) error {
	n := t.Len()
	for _, c := range t.cols() {
		if !c.present() {
			continue
		}
		l, bm := colLenOf(c.ptr)
		if l != n {
			return inputErrorf(t.Source, 0, c.name, "has %d rows, the table %d", l, n)
		}
		if bm != 0 && bm < (n+63)/64 {
			return inputErrorf(t.Source, 0, c.name, "validity bitmap covers %d rows, the table has %d", bm*64, n)
		}
		if err := checkTaskValues(t, c, n); err != nil {
			return err
		}
	}
	for i := 0; i < n; i++ {
		s, ok1 := t.Start.At(i)
		f, ok2 := t.Finish.At(i)
		if ok1 && ok2 && f < s {
			return inputErrorf(t.Source, i+1, ColFinish, "finish time %v is before the start time %v", f, s)
		}
	}
	return checkTaskPairs(t, n)
}

// checkTaskValues checks the n values of tasks column c: ids non-empty,
// dictionary codes in range, floats finite (and non-negative unless c.neg),
// integers non-negative.
func checkTaskValues(t *Tasks, c taskCol, n int) error {
	switch p := c.ptr.(type) {
	case *Strings:
		for i := 0; i < n; i++ {
			if len(p.Bytes(i)) == 0 {
				return inputErrorf(t.Source, i+1, c.name, "empty id")
			}
		}
	case *Dict:
		for i, k := range p.Codes {
			if int(k) >= len(p.Values) {
				return inputErrorf(t.Source, i+1, c.name, "dictionary code %d out of range", k)
			}
		}
	case *Column[float64]:
		for i, v := range p.Values {
			if !p.Valid.Valid(i) {
				continue
			}
			if math.IsNaN(v) || math.IsInf(v, 0) || (!c.neg && v < 0) {
				what := "a finite number"
				if !c.neg {
					what = "a finite non-negative number"
				}
				return inputErrorf(t.Source, i+1, c.name, "%v is not %s", v, what)
			}
		}
	case *Column[int64]:
		for i, v := range p.Values {
			if v < 0 && p.Valid.Valid(i) {
				return inputErrorf(t.Source, i+1, c.name, "negative value %d", v)
			}
		}
	case *Column[int32]:
		for i, v := range p.Values {
			if v < 0 && p.Valid.Valid(i) {
				return inputErrorf(t.Source, i+1, c.name, "negative value %d", v)
			}
		}
	}
	return nil
}

// checkTaskPairs reports duplicate (job_id, task_id) pairs among t's n rows.
func checkTaskPairs(t *Tasks, n int) error {
	// (job_id, task_id) pairs, as one string column for duplicateIDs.
	var pairs Strings
	pairs.Offsets = make([]int32, 1, n+1)
	for i := 0; i < n; i++ {
		if int64(len(pairs.Data))+int64(len(t.JobID.Bytes(i)))+int64(len(t.TaskID.Bytes(i)))+1 > maxStringBytes {
			return inputErrorf(t.Source, i+1, ColTaskID, "more than 2 GiB of job and task ids")
		}
		pairs.Data = append(pairs.Data, t.JobID.Bytes(i)...)
		pairs.Data = append(pairs.Data, 0)
		pairs.Data = append(pairs.Data, t.TaskID.Bytes(i)...)
		pairs.Offsets = append(pairs.Offsets, int32(len(pairs.Data)))
	}
	if dups := duplicateIDs(&pairs, maxDuplicatesListed); len(dups) > 0 {
		var parts []string
		for _, d := range dups {
			parts = append(parts, fmt.Sprintf("job %q task %q (rows %d and %d)", t.JobID.Bytes(d[1]), t.TaskID.Bytes(d[1]), d[0]+1, d[1]+1))
		}
		return inputErrorf(t.Source, dups[0][1]+1, ColTaskID, "duplicate (job_id, task_id): %s", strings.Join(parts, ", "))
	}
	return nil
}

// colLenOf returns a column's length and the length of its validity bitmap
// in words.
func colLenOf(ptr any) (n, bitmapWords int) {
	switch p := ptr.(type) {
	case *Strings:
		return p.Len(), 0
	case *Dict:
		return len(p.Codes), 0
	case *Column[float64]:
		return len(p.Values), len(p.Valid)
	case *Column[int64]:
		return len(p.Values), len(p.Valid)
	case *Column[int32]:
		return len(p.Values), len(p.Valid)
	}
	return 0, 0
}

// StageKind tells whether a stage is a map stage (true) or a reduce stage
// (false) in schedplan's two-stage job model, from its name alone: "map",
// "m", "MAP", Alibaba's "M5" or "M5_3" are map stages, "reduce", "r",
// "R3_1" reduce stages. known is false for other names (Spark stage ids,
// "join", ...).
func StageKind(name string) (isMap, known bool) {
	s := strings.ToLower(name)
	switch s {
	case "map", "m", "maps", "shufflemaptask":
		return true, true
	case "reduce", "r", "reduces", "resulttask":
		return false, true
	}
	if len(s) >= 2 && (s[0] == 'm' || s[0] == 'r') && s[1] >= '0' && s[1] <= '9' {
		return s[0] == 'm', true
	}
	return false, false
}

// FillFromTasks derives, for every job of j that has tasks in t, the
// columns map_tasks, reduce_tasks, map_task_seconds and reduce_task_seconds
// where j leaves them absent or null (values the job log gives win). Only
// tasks that succeeded count (Tasks.Succeeded); a task's seconds are
// containers × (finish − start), tasks without both times count as tasks
// with no seconds. A stage is a map or reduce stage by its name
// (StageKind); a stage with another name is the job's map stage when it is
// the job's first stage (by its first task's start) and a reduce stage
// otherwise (schedplan's model has two stages: map, then reduce — seed 000
// §2). It
// returns how many jobs had tasks, and the number of tasks whose job is not
// in j.
func (j *Jobs) FillFromTasks(t *Tasks) (jobsWithTasks, orphanTasks int) {
	n := j.Len()
	index := make(map[string]int32, n)
	for i := 0; i < n; i++ {
		index[string(j.ID.Bytes(i))] = int32(i)
	}
	var mapN, redN []int32
	var mapS, redS []float64
	has := make([]bool, n)
	mapN, redN = make([]int32, n), make([]int32, n)
	mapS, redS = make([]float64, n), make([]float64, n)
	// First start of each (job, stage), to find each job's first stage.
	type stageKey struct {
		job   int32
		stage int32
	}
	firstStart := map[stageKey]float64{}
	jobFirst := map[int32]int32{}              // job → its earliest unnamed stage code
	kinds := make([]int8, len(t.Stage.Values)) // 1 map, 2 reduce, 3 unknown
	for k, v := range t.Stage.Values {
		isMap, known := StageKind(v)
		switch {
		case !known:
			kinds[k] = 3
		case isMap:
			kinds[k] = 1
		default:
			kinds[k] = 2
		}
	}
	job := make([]int32, t.Len())
	for i := range job {
		ji, ok := index[string(t.JobID.Bytes(i))]
		if !ok {
			job[i] = -1
			orphanTasks++
			continue
		}
		job[i] = ji
		if _, ok := t.Stage.At(i); ok {
			k := stageKey{ji, t.Stage.Codes[i]}
			s, ok := t.Start.At(i)
			if !ok {
				s = math.Inf(1)
			}
			if old, seen := firstStart[k]; !seen || s < old {
				firstStart[k] = s
			}
		}
	}
	for k, s := range firstStart {
		cur, ok := jobFirst[k.job]
		if !ok || s < firstStart[stageKey{k.job, cur}] || (s == firstStart[stageKey{k.job, cur}] && k.stage < cur) {
			jobFirst[k.job] = k.stage
		}
	}
	for i, ji := range job {
		if ji < 0 {
			continue
		}
		has[ji] = true
		if !t.Succeeded(i) {
			continue
		}
		isMap := true // a task without a stage is a map task
		if t.Stage.Codes != nil && t.Stage.Codes[i] >= 0 {
			code := t.Stage.Codes[i]
			switch kinds[code] {
			case 1:
			case 2:
				isMap = false
			default:
				isMap = jobFirst[ji] == code
			}
		}
		secs := 0.0
		s, ok1 := t.Start.At(i)
		f, ok2 := t.Finish.At(i)
		if ok1 && ok2 && f > s {
			secs = float64(t.ContainersAt(i)) * (f - s)
		}
		if isMap {
			mapN[ji]++
			mapS[ji] += secs
		} else {
			redN[ji]++
			redS[ji] += secs
		}
	}
	for _, h := range has {
		if h {
			jobsWithTasks++
		}
	}
	if jobsWithTasks == 0 {
		return 0, orphanTasks
	}
	fillCol(&j.MapTasks, mapN, has)
	fillCol(&j.ReduceTasks, redN, has)
	fillCol(&j.MapTaskSeconds, mapS, has)
	fillCol(&j.ReduceTaskSeconds, redS, has)
	return jobsWithTasks, orphanTasks
}

// fillCol sets c's value to v[i] at every row i with has[i] where c is
// absent or null; rows without tasks stay (or become) null.
func fillCol[T Number](c *Column[T], v []T, has []bool) {
	n := len(v)
	switch {
	case !c.Present():
		c.Values = make([]T, n)
		c.Valid = NewBitmap(n)
		for i := range has {
			if has[i] {
				c.Values[i] = v[i]
			} else {
				c.Valid.SetNull(i)
			}
		}
	case c.Valid != nil:
		for i := range has {
			if has[i] && !c.Valid.Valid(i) {
				c.Valid.setValid(i)
				c.Values[i] = v[i]
			}
		}
	}
	if c.Valid != nil && c.Valid.Nulls(n) == 0 {
		c.Valid = nil
	}
}

// setValid marks row i valid. b must not be nil.
func (b Bitmap) setValid(i int) { b[i>>6] |= 1 << (uint(i) & 63) }
