package data

import "math"

// This file builds Jobs and Tasks tables row by row, for the readers of
// logs that arrive one record at a time. An optional column comes into
// being at the first row that gives it a value (earlier rows become null),
// so a log that never names, say, a queue costs nothing for it: ten million
// SWF jobs hold only the columns SWF has.

// Null markers of row values.
const (
	NoInt32 = math.MinInt32
	NoInt64 = math.MinInt64
)

// NoFloat is the null marker of float values (NaN).
var NoFloat = math.NaN()

// JobRow is one job as a reader assembles it. Null values: "" for strings,
// NaN for floats, NoInt32 and NoInt64 for integers (see NewJobRow).
type JobRow struct {
	ID, User, Queue                       string
	Submit                                float64
	Priority                              int32
	Start, Finish                         float64
	MapTasks, ReduceTasks                 int32
	MapTaskSeconds, ReduceTaskSeconds     float64
	InputBytes, ShuffleBytes, OutputBytes int64
	Size                                  float64
}

// NewJobRow returns a row whose every optional value is null.
func NewJobRow() JobRow {
	return JobRow{
		Submit: NoFloat, Priority: NoInt32, Start: NoFloat, Finish: NoFloat,
		MapTasks: NoInt32, ReduceTasks: NoInt32, MapTaskSeconds: NoFloat, ReduceTaskSeconds: NoFloat,
		InputBytes: NoInt64, ShuffleBytes: NoInt64, OutputBytes: NoInt64, Size: NoFloat,
	}
}

// colBuilder grows one optional numeric column.
type colBuilder[T Number] struct {
	c    Column[T]
	hint int // expected rows: the capacity to allocate when the column appears
}

// add appends row i's value (ok false: null). Rows are added in order.
func (b *colBuilder[T]) add(i int, v T, ok bool) {
	if !b.c.Present() {
		if !ok {
			return
		}
		b.c.Values = make([]T, i, max(2*i, 64, b.hint))
		if i > 0 {
			b.c.Valid = NewBitmap(i)
			for k := 0; k < i; k++ {
				b.c.Valid.SetNull(k)
			}
		}
	}
	if !ok {
		var zero T
		v = zero
		if b.c.Valid == nil {
			b.c.Valid = NewBitmap(i + 1)
		}
	}
	b.c.Values = append(b.c.Values, v)
	if b.c.Valid != nil {
		for len(b.c.Valid) <= i>>6 {
			b.c.Valid = append(b.c.Valid, ^uint64(0))
		}
		if !ok {
			b.c.Valid.SetNull(i)
		}
	}
}

func (b *colBuilder[T]) addF(i int, v float64) {
	b.add(i, T(v), !math.IsNaN(v))
}

// column returns the finished column of n rows; force makes an all-null
// column present.
func (b *colBuilder[T]) column(n int, force bool) Column[T] {
	if !b.c.Present() && force {
		b.c.Values = make([]T, n)
		b.c.Valid = NewBitmap(n)
		for k := 0; k < n; k++ {
			b.c.Valid.SetNull(k)
		}
	}
	if b.c.Valid != nil {
		b.c.Valid = b.c.Valid[:(n+63)/64]
	}
	return b.c
}

// dictBuilder grows one optional dictionary column.
type dictBuilder struct {
	d    Dict
	seen map[string]int32
	hint int
}

// add appends row i's value ("" is null).
func (b *dictBuilder) add(i int, v string) {
	if v == "" {
		if b.d.Codes != nil {
			b.d.Codes = append(b.d.Codes, -1)
		}
		return
	}
	if b.d.Codes == nil {
		b.d.Codes = make([]int32, i, max(2*i, 64, b.hint))
		for k := range b.d.Codes {
			b.d.Codes[k] = -1
		}
		b.seen = map[string]int32{}
	}
	c, ok := b.seen[v]
	if !ok {
		c = int32(len(b.d.Values))
		v = string([]byte(v)) // never keep a reader's buffer
		b.seen[v] = c
		b.d.Values = append(b.d.Values, v)
	}
	b.d.Codes = append(b.d.Codes, c)
}

func (b *dictBuilder) dict(n int, force bool) Dict {
	if b.d.Codes == nil && force {
		b.d.Codes = make([]int32, n)
		for k := range b.d.Codes {
			b.d.Codes[k] = -1
		}
	}
	return b.d
}

// JobBuilder builds a Jobs table row by row; the zero value is empty.
type JobBuilder struct {
	j                               Jobs
	user, queue                     dictBuilder
	priority, mapTasks, reduceTasks colBuilder[int32]
	start, finish, mapSecs, redSecs colBuilder[float64]
	size                            colBuilder[float64]
	inBytes, shuffleBytes, outBytes colBuilder[int64]
}

// Len returns the number of rows added.
func (b *JobBuilder) Len() int { return len(b.j.Submit) }

// Reserve makes room for n rows in all, so that a log whose line count is
// known up front is read without growing (and copying) its columns: ten
// million jobs must fit in a bounded memory.
func (b *JobBuilder) Reserve(n int) {
	if n <= cap(b.j.Submit) {
		return
	}
	b.j.Submit = append(make([]float64, 0, n), b.j.Submit...)
	b.j.ID.Offsets = append(make([]int32, 0, n+1), b.j.ID.Offsets...)
	// Ids are short; capacity that is never written costs address space,
	// not memory.
	b.j.ID.Data = append(make([]byte, 0, 16*n), b.j.ID.Data...)
	for _, c := range []*colBuilder[int32]{&b.priority, &b.mapTasks, &b.reduceTasks} {
		c.reserve(n)
	}
	for _, c := range []*colBuilder[float64]{&b.start, &b.finish, &b.mapSecs, &b.redSecs, &b.size} {
		c.reserve(n)
	}
	for _, c := range []*colBuilder[int64]{&b.inBytes, &b.shuffleBytes, &b.outBytes} {
		c.reserve(n)
	}
	for _, d := range []*dictBuilder{&b.user, &b.queue} {
		d.hint = n
		if d.d.Codes != nil && cap(d.d.Codes) < n {
			d.d.Codes = append(make([]int32, 0, n), d.d.Codes...)
		}
	}
}

func (b *colBuilder[T]) reserve(n int) {
	b.hint = n
	if b.c.Values != nil && cap(b.c.Values) < n {
		b.c.Values = append(make([]T, 0, n), b.c.Values...)
	}
}

// Add appends r. r.ID must be non-empty and r.Submit a number (callers drop
// rows without them, with a reason, before).
func (b *JobBuilder) Add(r *JobRow) {
	i := b.Len()
	b.j.ID.Append(r.ID)
	b.j.Submit = append(b.j.Submit, r.Submit)
	b.user.add(i, r.User)
	b.queue.add(i, r.Queue)
	b.priority.add(i, r.Priority, r.Priority != NoInt32)
	b.start.addF(i, r.Start)
	b.finish.addF(i, r.Finish)
	b.mapTasks.add(i, r.MapTasks, r.MapTasks != NoInt32)
	b.reduceTasks.add(i, r.ReduceTasks, r.ReduceTasks != NoInt32)
	b.mapSecs.addF(i, r.MapTaskSeconds)
	b.redSecs.addF(i, r.ReduceTaskSeconds)
	b.inBytes.add(i, r.InputBytes, r.InputBytes != NoInt64)
	b.shuffleBytes.add(i, r.ShuffleBytes, r.ShuffleBytes != NoInt64)
	b.outBytes.add(i, r.OutputBytes, r.OutputBytes != NoInt64)
	b.size.addF(i, r.Size)
}

// Jobs returns the table built so far, named source; the builder must
// not be used after.
func (b *JobBuilder) Jobs(source string) *Jobs {
	n := b.Len()
	j := &b.j
	j.Source = source
	if j.ID.Offsets == nil {
		j.ID.Offsets = []int32{0}
	}
	j.User = b.user.dict(n, false)
	j.Queue = b.queue.dict(n, false)
	j.Priority = b.priority.column(n, false)
	j.Start = b.start.column(n, false)
	j.Finish = b.finish.column(n, false)
	j.MapTasks = b.mapTasks.column(n, false)
	j.ReduceTasks = b.reduceTasks.column(n, false)
	j.MapTaskSeconds = b.mapSecs.column(n, false)
	j.ReduceTaskSeconds = b.redSecs.column(n, false)
	j.InputBytes = b.inBytes.column(n, false)
	j.ShuffleBytes = b.shuffleBytes.column(n, false)
	j.OutputBytes = b.outBytes.column(n, false)
	j.Size = b.size.column(n, false)
	return j
}

// TaskRow is one task as a reader assembles it; nulls as in JobRow.
type TaskRow struct {
	JobID, Stage, TaskID, Status, Node, NodeType string
	Start, Finish                                float64
	Containers, Vcores                           int32
	MemoryMB                                     int64
	Map, Shuffle, Merge, Sort, Reduce            float64 // phase seconds
	CPUSeconds                                   float64
	MemBytes, DiskBytes, NetBytes                int64
}

// NewTaskRow returns a row whose every optional value is null.
func NewTaskRow() TaskRow {
	return TaskRow{
		Start: NoFloat, Finish: NoFloat, Containers: NoInt32, Vcores: NoInt32, MemoryMB: NoInt64,
		Map: NoFloat, Shuffle: NoFloat, Merge: NoFloat, Sort: NoFloat, Reduce: NoFloat,
		CPUSeconds: NoFloat, MemBytes: NoInt64, DiskBytes: NoInt64, NetBytes: NoInt64,
	}
}

// TaskBuilder builds a Tasks table row by row; the zero value is empty.
type TaskBuilder struct {
	t                             Tasks
	stage, status, node, nodeType dictBuilder
	start, finish                 colBuilder[float64]
	containers, vcores            colBuilder[int32]
	memoryMB                      colBuilder[int64]
	phase                         [5]colBuilder[float64]
	cpu                           colBuilder[float64]
	mem, disk, net                colBuilder[int64]
	// force makes the named columns present even when all null (a CSV
	// header that names them).
	force map[string]bool
}

// Len returns the number of rows added.
func (b *TaskBuilder) Len() int { return b.t.JobID.Len() }

// Add appends r.
func (b *TaskBuilder) Add(r *TaskRow) {
	i := b.Len()
	b.t.JobID.Append(r.JobID)
	b.t.TaskID.Append(r.TaskID)
	b.stage.add(i, r.Stage)
	b.start.addF(i, r.Start)
	b.finish.addF(i, r.Finish)
	b.status.add(i, r.Status)
	b.containers.add(i, r.Containers, r.Containers != NoInt32)
	b.memoryMB.add(i, r.MemoryMB, r.MemoryMB != NoInt64)
	b.vcores.add(i, r.Vcores, r.Vcores != NoInt32)
	b.node.add(i, r.Node)
	b.nodeType.add(i, r.NodeType)
	for k, v := range [5]float64{r.Map, r.Shuffle, r.Merge, r.Sort, r.Reduce} {
		b.phase[k].addF(i, v)
	}
	b.cpu.addF(i, r.CPUSeconds)
	b.mem.add(i, r.MemBytes, r.MemBytes != NoInt64)
	b.disk.add(i, r.DiskBytes, r.DiskBytes != NoInt64)
	b.net.add(i, r.NetBytes, r.NetBytes != NoInt64)
}

// Tasks returns the table built so far, named source, nil when no task
// was added.
func (b *TaskBuilder) Tasks(source string) *Tasks {
	n := b.Len()
	if n == 0 && b.force == nil {
		return nil
	}
	t := &b.t
	t.Source = source
	for _, s := range []*Strings{&t.JobID, &t.TaskID} {
		if s.Offsets == nil {
			s.Offsets = []int32{0}
		}
	}
	f := b.force
	t.Stage = b.stage.dict(n, f[ColStage])
	t.Start = b.start.column(n, f[ColStart])
	t.Finish = b.finish.column(n, f[ColFinish])
	t.Status = b.status.dict(n, f[ColStatus])
	t.Containers = b.containers.column(n, f[ColContainers])
	t.MemoryMB = b.memoryMB.column(n, f[ColMemoryMB])
	t.Vcores = b.vcores.column(n, f[ColVcores])
	t.Node = b.node.dict(n, f[ColNode])
	t.NodeType = b.nodeType.dict(n, f[ColNodeType])
	t.MapSeconds = b.phase[0].column(n, f[ColMapSeconds])
	t.ShuffleSeconds = b.phase[1].column(n, f[ColShuffleSeconds])
	t.MergeSeconds = b.phase[2].column(n, f[ColMergeSeconds])
	t.SortSeconds = b.phase[3].column(n, f[ColSortSeconds])
	t.ReduceSeconds = b.phase[4].column(n, f[ColReduceSeconds])
	t.CPUSeconds = b.cpu.column(n, f[ColCPUSeconds])
	t.MemBytes = b.mem.column(n, f[ColMemBytes])
	t.DiskBytes = b.disk.column(n, f[ColDiskBytes])
	t.NetBytes = b.net.column(n, f[ColNetBytes])
	return t
}

// AddBytes adds two non-negative counts; -1 (poisoned: it stays -1) when
// either is -1 or the sum does not fit in int64.
func AddBytes(a, b int64) int64 {
	if a < 0 || b < 0 || a > math.MaxInt64-b {
		return -1
	}
	return a + b
}
