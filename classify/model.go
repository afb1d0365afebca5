package classify

import (
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"

	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/estimate"
	"github.com/schedplan/schedplan/internal/par"
)

// DefaultBlockBytes is the HDFS block size of seed 003's experiments (§5.2:
// 128 MB): the slice a map task reads when the log does not count tasks.
const DefaultBlockBytes = 128 << 20

// MachineType is one machine type as the execution-time model sees it (the
// model's fields of a cluster.ResourceType, in bytes and bytes/s).
type MachineType struct {
	Name     string  `json:"name"`
	Count    int     `json:"count"`
	Slots    int     `json:"slots"`
	ExecRate float64 `json:"exec_rate"`
	// Memory is one machine's memory in bytes; 0: no memory-fit rule.
	Memory float64 `json:"memory_bytes"`
	// RetrieveRate is one machine's data retrieval rate in bytes/s; 0: no
	// data term.
	RetrieveRate float64 `json:"retrieve_rate_bytes_per_s"`
}

// MachineTypes returns the model's view of the spec's resource types, in
// order.
func MachineTypes(spec *cluster.Spec) []MachineType {
	out := make([]MachineType, len(spec.Resources))
	for t, rt := range spec.Resources {
		out[t] = MachineType{Name: rt.Name, Count: rt.Count, Slots: rt.Slots, ExecRate: rt.ExecRate,
			Memory: rt.MemoryBytes(), RetrieveRate: rt.RetrieveBytesPerS()}
	}
	return out
}

// Demand is what one job asks of a machine.
type Demand struct {
	// Compute is the job's work in reference-container seconds (its size:
	// explicit, task-seconds, or derived from bytes; see estimate.Sizes).
	Compute float64
	// Data is the bytes the job's tasks retrieve: input (read by the maps)
	// plus shuffle (read by the reduces). Output is written, not retrieved.
	Data float64
	// TaskData is the bytes one task must hold: the larger of a map task's
	// slice (input / map_tasks, or min(input, block) when the log does not
	// count map tasks) and a reduce task's partition (shuffle / reduce_tasks,
	// likewise).
	TaskData float64
}

// Fits reports whether a task holding taskData bytes fits one machine of
// the type (always, when the type gives no memory).
func (m MachineType) Fits(taskData float64) bool { return m.Memory == 0 || taskData <= m.Memory }

// ExecTime returns the mean execution time (s) of a job of demand d alone on
// one machine of the type, its tasks spread over the machine's slots:
//
//	time = Compute / (Slots × ExecRate) + Data / RetrieveRate
//
// (the data term is left out when the type gives no retrieval rate), and
// +Inf when the job's tasks do not fit the machine's memory.
func (m MachineType) ExecTime(d Demand) float64 {
	if !m.Fits(d.TaskData) {
		return math.Inf(1)
	}
	t := d.Compute / (float64(m.Slots) * m.ExecRate)
	if m.RetrieveRate > 0 {
		t += d.Data / m.RetrieveRate
	}
	return t
}

// Rate returns 1 / ExecTime (jobs/s): seed 003's mean_execRate(J, R) for
// one machine of the type; 0 when the job cannot run there.
func (m MachineType) Rate(d Demand) float64 { return rate(m.ExecTime(d)) }

func rate(t float64) float64 {
	if math.IsInf(t, 1) {
		return 0
	}
	return 1 / t
}

// JobDemand returns job i's demand: compute from sizes[i] (floored at
// floor, so that a zero-work job still takes time), data and task data from
// its byte and task-count columns (nulls count as 0 bytes and unknown
// counts). block is the slice size when tasks are not counted.
func JobDemand(j *data.Jobs, sizes []float64, i int, floor, block float64) Demand {
	return demand(j, math.Max(sizes[i], floor), i, block)
}

// demand is JobDemand of a job of the given compute.
func demand(j *data.Jobs, compute float64, i int, block float64) Demand {
	in, _ := j.InputBytes.At(i)
	sh, _ := j.ShuffleBytes.At(i)
	maps, mok := j.MapTasks.At(i)
	reds, rok := j.ReduceTasks.At(i)
	return Demand{
		Compute:  compute,
		Data:     float64(in) + float64(sh),
		TaskData: math.Max(perTask(float64(in), maps, mok, block), perTask(float64(sh), reds, rok, block)),
	}
}

func perTask(bytes float64, tasks int32, known bool, block float64) float64 {
	if known && tasks > 0 {
		return bytes / float64(tasks)
	}
	return math.Min(bytes, block)
}

// errorStream is the random stream (estimate.RunRand's run number) of the
// execution-time errors, apart from the streams k-means uses.
const errorStream = 0xC05_E443

// timeBlock is the rows of one block of error draws: with errors, the
// generator's state at every block's first row is kept (jobTimes.marks),
// so that a block's estimates are drawn again alone.
const timeBlock = 1 << 12

// jobTimes gives jobs' estimated execution times on every machine type
// (the model's times, perturbed by Options.TimeErrors) and their task data,
// computed where they are read (timeRows), never held for every job: at
// 10 M jobs they would be n × types floats.
//
// Errors (seed 003 §6.3: L̂(i, j) = L(i, j)·(1 + E)) are drawn per job and
// type, in row order then type order, from estimate.RunRand(seed,
// errorStream) over the whole table — a job's draw does not depend on which
// rows are read —; they perturb the estimates only, never a job's true
// duration. One pass of draws at construction keeps the generator's state
// at each block of timeBlock rows, from which a reader draws its block
// again: the same values as one pass in row order.
type jobTimes struct {
	j            *data.Jobs
	sizes        []float64
	scale        float64 // size i is sizes[i]·scale
	types        []MachineType
	floor, block float64
	errs         estimate.ErrorModel
	// marks[b] is the error generator at row b·timeBlock (nil: exact).
	marks []rand.PCG
}

// newJobTimes returns the execution times of j's jobs (size i
// sizes[i]·scale), rows [0, upTo) readable (all of them without errors).
func newJobTimes(j *data.Jobs, sizes []float64, scale float64, types []MachineType, floor, block float64, errs estimate.ErrorModel, seed uint64, upTo int) *jobTimes {
	jt := &jobTimes{j: j, sizes: sizes, scale: scale, types: types, floor: floor, block: block, errs: errs}
	if errs.IsExact() {
		return jt
	}
	src := rand.NewPCG(seed, errorStream) // estimate.RunRand(seed, errorStream)'s source
	rng := rand.New(src)
	jt.marks = make([]rand.PCG, 0, (upTo+timeBlock-1)/timeBlock)
	for lo := 0; lo < upTo; lo += timeBlock {
		if lo > 0 {
			for k := timeBlock * len(types); k > 0; k-- {
				errs.Draw(1, rng)
			}
		}
		jt.marks = append(jt.marks, *src)
	}
	return jt
}

// timeRows reads a jobTimes row by row, for one goroutine: without errors
// each row read is computed alone; with errors the block of timeBlock rows
// holding it is drawn from its mark, and rows of the same block are read
// from it.
type timeRows struct {
	jt          *jobTimes
	lo, hi      int       // the rows held
	t, taskData []float64 // row-major (hi−lo) × types; +Inf: the job cannot run on the type
	src         rand.PCG
	rng         *rand.Rand
}

func (jt *jobTimes) rows() *timeRows {
	c := &timeRows{jt: jt}
	c.rng = rand.New(&c.src)
	return c
}

// row returns row i's estimated times, one per type (valid until the next
// call), and its task data.
func (c *timeRows) row(i int) ([]float64, float64) {
	if i < c.lo || i >= c.hi {
		c.fill(i)
	}
	nt, k := len(c.jt.types), i-c.lo
	return c.t[k*nt : k*nt+nt], c.taskData[k]
}

// fillRows writes the times (row-major, one per type) and task data of
// the classified positions [q0, q1) — table row rows[q], or q when rows
// is nil — into t and td, on every core.
func (jt *jobTimes) fillRows(rows []int, q0, q1 int, t, td []float64) {
	nt := len(jt.types)
	par.For((q1-q0+timeBlock-1)/timeBlock, runtime.GOMAXPROCS(0), func(b int) {
		c := jt.rows()
		for q := q0 + b*timeBlock; q < min(q1, q0+(b+1)*timeBlock); q++ {
			i := q
			if rows != nil {
				i = rows[q]
			}
			ti, d := c.row(i)
			copy(t[(q-q0)*nt:(q-q0+1)*nt], ti)
			td[q-q0] = d
		}
	})
}

// fill computes row i, or with errors its block.
func (c *timeRows) fill(i int) {
	jt := c.jt
	lo, hi := i, i+1
	if jt.marks != nil {
		b := i / timeBlock
		lo, hi = b*timeBlock, min(jt.j.Len(), (b+1)*timeBlock)
		c.src = jt.marks[b]
	}
	nt := len(jt.types)
	c.t, c.taskData = slices.Grow(c.t[:0], (hi-lo)*nt)[:(hi-lo)*nt], slices.Grow(c.taskData[:0], hi-lo)[:hi-lo]
	for r := lo; r < hi; r++ {
		d := demand(jt.j, math.Max(jt.sizes[r]*jt.scale, jt.floor), r, jt.block)
		c.taskData[r-lo] = d.TaskData
		for t, m := range jt.types {
			v := m.ExecTime(d)
			if jt.marks != nil {
				if e := jt.errs.Draw(v, c.rng); !math.IsInf(v, 1) {
					v = e
				}
			}
			c.t[(r-lo)*nt+t] = v
		}
	}
	c.lo, c.hi = lo, hi
}

// checkTimeErrors validates an error model for execution times: estimates
// must stay positive.
func checkTimeErrors(m estimate.ErrorModel) error {
	if err := m.Validate(); err != nil {
		return fmt.Errorf("execution-time errors: %w", err)
	}
	if m.Kind == estimate.Uniform && m.I >= 1 {
		return fmt.Errorf("execution-time errors: uniform I = %v must be below 1 (an execution time must stay positive)", m.I)
	}
	return nil
}

// classRates accumulates one class's μ: per type, the sum of the estimated
// times of the class's jobs that fit, and their count; and the class's mean
// task data.
type classRates struct {
	sum      []float64
	fit      []int
	taskData acc
}

func (c *classRates) add(times []float64, taskData float64) {
	if c.sum == nil {
		c.sum, c.fit = make([]float64, len(times)), make([]int, len(times))
	}
	c.taskData.add(taskData, true)
	for t, v := range times {
		if !math.IsInf(v, 1) {
			c.sum[t] += v
			c.fit[t]++
		}
	}
}

// mu returns the class's execution rate on each type (jobs/s one machine
// serves): 0 when the class's mean job does not fit the type's memory, else
// 1 / the mean estimated time of the class's jobs that fit. Without errors,
// and when every job fits, that is exactly ExecTime of the class's mean
// demand (the model is linear in compute and data).
func (c *classRates) mu(types []MachineType) []float64 {
	out := make([]float64, len(types))
	for t, m := range types {
		if c.fit == nil || c.fit[t] == 0 || !m.Fits(c.taskData.mean()) {
			continue
		}
		out[t] = rate(c.sum[t] / float64(c.fit[t]))
	}
	return out
}
