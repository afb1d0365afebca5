package classify

import (
	"fmt"
	"math"

	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/estimate"
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
	in, _ := j.InputBytes.At(i)
	sh, _ := j.ShuffleBytes.At(i)
	maps, mok := j.MapTasks.At(i)
	reds, rok := j.ReduceTasks.At(i)
	return Demand{
		Compute:  math.Max(sizes[i], floor),
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

// jobTimes holds every job's estimated execution time on every machine type
// (the model's times, perturbed by Options.TimeErrors), and its task data.
type jobTimes struct {
	types []MachineType
	// lo is the first row held: t and taskData cover rows [lo, lo+n).
	lo       int
	t        []float64 // row-major n × len(types); +Inf: the job cannot run on the type
	taskData []float64
}

func (jt *jobTimes) at(i, t int) float64 { return jt.t[(i-jt.lo)*len(jt.types)+t] }

func (jt *jobTimes) taskDataAt(i int) float64 { return jt.taskData[i-jt.lo] }

// newJobTimesSpan computes the exact (error-free) execution times of rows
// [lo, hi) of j only: what a few rows of a large log need.
func newJobTimesSpan(j *data.Jobs, sizes []float64, types []MachineType, floor, block float64, lo, hi int) *jobTimes {
	nt := len(types)
	jt := &jobTimes{types: types, lo: lo, t: make([]float64, (hi-lo)*nt), taskData: make([]float64, hi-lo)}
	for i := lo; i < hi; i++ {
		d := JobDemand(j, sizes, i, floor, block)
		jt.taskData[i-lo] = d.TaskData
		for t, m := range types {
			jt.t[(i-lo)*nt+t] = m.ExecTime(d)
		}
	}
	return jt
}

// newJobTimes computes the execution times of every job of j. Errors
// (seed 003 §6.3: L̂(i, j) = L(i, j)·(1 + E)) are drawn per job and type, in
// row order then type order, from estimate.RunRand(seed, errorStream); they
// perturb the estimates only, never a job's true duration.
func newJobTimes(j *data.Jobs, sizes []float64, types []MachineType, floor, block float64, errs estimate.ErrorModel, seed uint64) *jobTimes {
	n, nt := j.Len(), len(types)
	jt := &jobTimes{types: types, t: make([]float64, n*nt), taskData: make([]float64, n)}
	forRowBlocks(n, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			d := JobDemand(j, sizes, i, floor, block)
			jt.taskData[i] = d.TaskData
			for t, m := range types {
				jt.t[i*nt+t] = m.ExecTime(d)
			}
		}
	})
	if !errs.IsExact() {
		est := errs.Apply(jt.t, estimate.RunRand(seed, errorStream), nil)
		for k, v := range jt.t {
			if !math.IsInf(v, 1) {
				jt.t[k] = est[k]
			}
		}
	}
	return jt
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

func (c *classRates) add(jt *jobTimes, i int) {
	if c.sum == nil {
		c.sum, c.fit = make([]float64, len(jt.types)), make([]int, len(jt.types))
	}
	c.taskData.add(jt.taskDataAt(i), true)
	for t := range jt.types {
		if v := jt.at(i, t); !math.IsInf(v, 1) {
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
