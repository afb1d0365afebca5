package tasklevel

import (
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/schedplan/schedplan/classify"
	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/cluster/task"
	"github.com/schedplan/schedplan/cluster/task/coshh"
	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/estimate"
	"github.com/schedplan/schedplan/pipeline/experiment"
)

// execModel is the one execution-time model of a cluster spec that every
// capacity view uses (seed 003 §3.1, classify.MachineType.ExecTime): a job
// of compute W (reference-container seconds), retrieving D bytes, whose
// tasks hold T bytes each, takes on one machine of type t
//
//	time_t = W / (slots_t · exec_rate_t) + D / retrieve_rate_t
//
// (the data term only when the type gives a retrieval rate), and cannot run
// there when T exceeds the machine's memory (the memory rule). The LP's μ
// is 1 / the class's mean time_t; at task level a job's tasks run
// TypeScale_t = time_t · slots_t · exec_rate_t / W times slower than at the
// container's exec_rate (coshh.COSHHTypeScale; MaxCOSHHTypeScale where they
// do not fit); the fluid capacity and the plain task level are the model
// without its two terms (time_t = W / (slots_t · exec_rate_t)).
// COSHHTypeScales (the task-level validation, COSHH's rows, the what-ifs)
// and LogLoadModel (the capacity command's decomposition) both call scales.
type execModel struct {
	types []classify.MachineType
	slots []int
	rates []float64
	times []float64 // scratch
}

func newExecModel(spec *cluster.Spec) *execModel {
	m := &execModel{types: classify.MachineTypes(spec)}
	m.slots, m.rates, m.times = make([]int, len(m.types)), make([]float64, len(m.types)), make([]float64, len(m.types))
	for t, mt := range m.types {
		m.slots[t], m.rates[t] = mt.Slots, mt.ExecRate
	}
	return m
}

// scales returns a job's TypeScale for demand d (a new slice).
func (m *execModel) scales(d classify.Demand) []float64 {
	for t, mt := range m.types {
		m.times[t] = mt.ExecTime(d)
	}
	return coshh.COSHHTypeScale(m.times, m.slots, m.rates, d.Compute)
}

// LoadModel is a job set's offered load in the one cluster model every
// view shares, decomposed into named factors whose product reproduces each
// view's figure:
//
//	Plain                          the containers at their exec_rate: Σ W ÷ (Σ_t N_t·exec_t × span),
//	                               the fluid views' and the plain task level's load (FluidLoadDef, TaskLoadDef)
//	× MemoryFactor                 the memory rule: a job runs MaxCOSHHTypeScale× slower on a type its tasks do not fit
//	× DataFactor                   data retrieval: the data term of the execution-time model
//	= Exec                         the execution-time load, every job spread over every type (ExecTimeLoad, ExecLoadDef)
//	× PlacementFactor              the LP's placement of classes on the types that run them fastest (with class means)
//	= 1/λ                          the capacity LP's load
//
// On a homogeneous cluster without memory or retrieval rates both factors
// are 1 and Plain = Exec = 1/λ (λ·Plain = 1 exactly, a test). A type scale
// at MaxCOSHHTypeScale counts as the memory rule (a job whose data term
// alone makes it that slow is counted there too).
type LoadModel struct {
	Jobs         int     `json:"jobs"`
	Span         float64 `json:"span_s"`
	Rate         float64 `json:"rate_container_seconds_per_s"`
	Plain        float64 `json:"plain"`
	MemoryFactor float64 `json:"memory_factor"`
	DataFactor   float64 `json:"data_factor"`
	Exec         float64 `json:"exec"`
	// Bound is the least load any placement needs (ExecTimeLoad's bound).
	Bound float64 `json:"bound"`
	// Lambda is the LP's λ (0: not given) and PlacementFactor
	// 1/(λ·Exec).
	Lambda          float64 `json:"lambda,omitempty"`
	PlacementFactor float64 `json:"placement_factor,omitempty"`
	// Types are the terms per machine type.
	Types []LoadTypeTerms `json:"types"`
}

// LoadTypeTerms are the execution-time model's terms on one machine type.
type LoadTypeTerms struct {
	Name string `json:"name"`
	// Rate is the type's container-seconds per second (N·slots·exec_rate).
	Rate float64 `json:"rate_container_seconds_per_s"`
	// NoFit is the share of the work whose tasks do not fit the type's
	// memory; DataAdds the time the data term adds on the type, as a
	// share of the compute of the work that fits.
	NoFit    float64 `json:"no_fit_share"`
	DataAdds float64 `json:"data_adds"`
}

// loadAcc accumulates a LoadModel job by job.
type loadAcc struct {
	cl                        *task.Cluster
	c                         []float64 // c_t = N_t·containers_t·exec_t
	total, containers         float64
	plain, mem, exec, bound   float64
	work                      float64
	noFit, fitWork, dataExtra []float64
	first, last               float64
	n                         int
}

func newLoadAcc(cl *task.Cluster) *loadAcc {
	a := &loadAcc{cl: cl, c: make([]float64, len(cl.Types)), noFit: make([]float64, len(cl.Types)),
		fitWork: make([]float64, len(cl.Types)), dataExtra: make([]float64, len(cl.Types))}
	for t, mt := range cl.Types {
		if mt.Count > 0 && mt.Containers > 0 {
			a.c[t] = float64(mt.Count*mt.Containers) * mt.ExecRate
			a.total += a.c[t]
			a.containers += float64(mt.Count * mt.Containers)
		}
	}
	return a
}

// add counts a job arriving at arrival with work w (container-seconds at
// exec rate 1) and type scales scale (nil: 1 on every type).
func (a *loadAcc) add(arrival, w float64, scale []float64) {
	if a.n == 0 {
		a.first, a.last = arrival, arrival
	}
	a.n++
	a.first, a.last = math.Min(a.first, arrival), math.Max(a.last, arrival)
	if !(w > 0) {
		return
	}
	a.work += w
	var memRate, execRate, best float64
	for t, mt := range a.cl.Types {
		if a.c[t] == 0 {
			continue
		}
		s, m := 1.0, 1.0
		if scale != nil {
			s = scale[t]
		}
		if s >= coshh.MaxCOSHHTypeScale {
			m = s
			a.noFit[t] += w
		} else {
			a.fitWork[t] += w
			a.dataExtra[t] += w * (s - 1)
		}
		memRate += a.c[t] / m
		execRate += a.c[t] / s
		best = math.Max(best, mt.ExecRate/s)
	}
	a.plain += w / a.total
	a.mem += w / memRate
	a.exec += w / execRate
	a.bound += w / (a.containers * best)
}

// model returns the accumulated LoadModel; its loads are NaN when the jobs
// arrive at one instant.
func (a *loadAcc) model() LoadModel {
	span := a.last - a.first
	lm := LoadModel{Jobs: a.n, Span: span, Rate: a.total}
	if !(span > 0) {
		span = math.NaN()
	}
	lm.Plain, lm.Exec, lm.Bound = a.plain/span, a.exec/span, a.bound/span
	lm.MemoryFactor, lm.DataFactor = a.mem/a.plain, a.exec/a.mem
	for t, mt := range a.cl.Types {
		tt := LoadTypeTerms{Name: mt.Name, Rate: a.c[t]}
		if a.work > 0 {
			tt.NoFit = a.noFit[t] / a.work
		}
		if a.fitWork[t] > 0 {
			tt.DataAdds = a.dataExtra[t] / a.fitWork[t]
		}
		lm.Types = append(lm.Types, tt)
	}
	return lm
}

// Defined reports whether every term of m is a number: the jobs' arrivals
// span some time and they have work (a window of one job, or of
// simultaneous ones, has no rate of arrival, and its terms are NaN, which
// JSON cannot hold).
func (m *LoadModel) Defined() bool {
	for _, v := range []float64{m.Span, m.Plain, m.MemoryFactor, m.DataFactor, m.Exec, m.Bound} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return m.Span > 0
}

// TaskLoadModel is the LoadModel of task jobs on cl: their work
// (Job.Work), arrivals and TypeScale (nil: the plain model). Its Exec is
// ExecTimeLoad(jobs, cl).
func TaskLoadModel(jobs []task.Job, cl *task.Cluster) LoadModel {
	a := newLoadAcc(cl)
	for i := range jobs {
		a.add(jobs[i].Arrival, jobs[i].Work(), jobs[i].TypeScale)
	}
	return a.model()
}

// LogLoadModel is the LoadModel of a whole log on spec, with the LP's own
// demands (classify.JobDemand: cs in container-seconds of spec, floored at
// floor; block the HDFS block size, 0 for classify.DefaultBlockBytes), so
// that on a homogeneous cluster without memory or retrieval rates its
// Plain is exactly 1/λ. lambda > 0 sets the placement factor.
func LogLoadModel(j *data.Jobs, cs []float64, spec *cluster.Spec, floor, block, lambda float64) (LoadModel, error) {
	cl, err := TaskCluster(spec)
	if err != nil {
		return LoadModel{}, err
	}
	if block == 0 {
		block = classify.DefaultBlockBytes
	}
	m := newExecModel(spec)
	a := newLoadAcc(cl)
	for i := 0; i < j.Len(); i++ {
		d := classify.JobDemand(j, cs, i, floor, block)
		a.add(j.Submit[i], d.Compute, m.scales(d))
	}
	lm := a.model()
	lm.setLambda(lambda)
	return lm, nil
}

// setLambda records the LP's λ and the placement factor 1/(λ·Exec).
func (lm *LoadModel) setLambda(lambda float64) {
	if lambda > 0 && !math.IsInf(lambda, 0) {
		lm.Lambda, lm.PlacementFactor = lambda, 1/(lambda*lm.Exec)
	}
}

// WriteText prints the decomposition: each view's load and the named
// factors between them, each with its size. what names the job set.
func (lm *LoadModel) WriteText(w io.Writer, what string) {
	fmt.Fprintf(w, "offered load in one execution-time model (%s: %d jobs over %.6g s; the product of the factors reproduces each view):\n", what, lm.Jobs, lm.Span)
	fmt.Fprintf(w, "  %-8s containers at their exec_rate: Σ work ÷ (%.4g container-s/s × span) — the fluid views' and the plain task level's load\n", experiment.LoadText(lm.Plain), lm.Rate)
	fmt.Fprintf(w, "  ×%-7.4g memory rule: %s\n", lm.MemoryFactor, lm.memoryText())
	fmt.Fprintf(w, "  ×%-7.4g data retrieval: %s\n", lm.DataFactor, lm.dataText())
	fmt.Fprintf(w, "  = %-6s execution-time load (every job spread over every type, as FIFO and Fair place it): the task-level validation's and COSHH's rows\n", experiment.LoadText(lm.Exec))
	if lm.Lambda > 0 {
		fmt.Fprintf(w, "  ×%-7.4g placement: the LP's classes on the types that run them fastest (class means; below 1 routing helps)\n", lm.PlacementFactor)
		fmt.Fprintf(w, "  = %-6s 1/λ, the capacity LP's load (λ = %.4g)\n", experiment.LoadText(1/lm.Lambda), lm.Lambda)
	}
}

// memoryText names the types the memory rule takes work from, with the
// share of the work that does not fit each.
func (lm *LoadModel) memoryText() string {
	var parts []string
	for _, t := range lm.Types {
		if t.NoFit > 0 {
			parts = append(parts, fmt.Sprintf("%s %.3g%%", t.Name, 100*t.NoFit))
		}
	}
	if len(parts) == 0 {
		return "every job's tasks fit every type (or the spec gives no memory)"
	}
	return fmt.Sprintf("share of the work whose tasks do not fit (run %g× slower there): %s", float64(coshh.MaxCOSHHTypeScale), strings.Join(parts, ", "))
}

// dataText says what the data term adds on each type, types with the same
// figure (to 3 digits) together.
func (lm *LoadModel) dataText() string {
	groups := map[string][]string{}
	var keys []string
	for _, t := range lm.Types {
		if t.DataAdds <= 0 {
			continue
		}
		k := fmt.Sprintf("%.3g%%", 100*t.DataAdds)
		if groups[k] == nil {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], t.Name)
	}
	if len(keys) == 0 {
		return "no data term (the spec gives no retrieve_rate)"
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("adds %s of the work on %s", k, strings.Join(groups[k], ", ")))
	}
	return strings.Join(parts, "; ")
}

// SizesNote says where a log's work comes from and whether the loads are
// measured or assumed: sizes from a size column or task-seconds are
// measured container-seconds and no --load normalisation is applied
// (unless NormaliseAll asked for it); sizes from bytes are normalised so
// that the whole log's load is opt.Load — an assumption, with how to
// calibrate it.
func SizesNote(src estimate.Source, opt estimate.SizeOptions) string {
	load := opt.Load
	if load == 0 {
		load = estimate.DefaultSizeOptions().Load
	}
	switch {
	case src == estimate.FromBytes:
		return fmt.Sprintf("sizes from bytes, normalised so that the whole log's load on the spec is %g (--load): an ASSUMPTION, not a measurement — calibrate it with the spec of the cluster the log ran on and the utilisation you observe there (--load <observed utilisation>), or give task-seconds or a size column", load)
	case opt.NormaliseAll:
		return fmt.Sprintf("sizes from %s, normalised to load %g (normalise all): an assumption; without it the loads are measured", src, load)
	}
	return fmt.Sprintf("sizes measured from the log's %s (container-seconds): no --load normalisation is applied; every load above is measured", src)
}

// ModelTaskJobs returns the task-level jobs of rows lo, lo+1, … of j (fluid
// jobs fl with sizes in units of capacity; real tasks from t when it is not
// nil, else synthesised at rate with seed: TaskJobsWith) in the
// execution-time model of spec (ExecModelScales): the one way every
// task-level view builds its jobs.
func ModelTaskJobs(j *data.Jobs, t *data.Tasks, fl []sim.Job, lo int, capacity float64, spec *cluster.Spec, rate float64, seed uint64) ([]task.Job, error) {
	jobs, err := TaskJobsWith(j, t, fl, lo, capacity, rate, seed)
	if err != nil {
		return nil, err
	}
	return jobs, ExecModelScales(jobs, j, fl, lo, capacity, spec)
}

// ExecModelScales sets the execution-time model's Job.TypeScale (execModel)
// of the task jobs of rows lo, lo+1, … of j, whose fluid jobs fl have sizes
// in units of capacity: container-seconds of spec are size ×
// spec.Capacity() / capacity, as TaskJobs converts them. Every task-level
// view runs its jobs so — the validation, COSHH's rows, simulate --level
// task, the what-ifs and replays —, as the LP's μ: one cluster model. A
// zero-size job keeps scale 1 (its tasks do no work).
func ExecModelScales(jobs []task.Job, j *data.Jobs, fl []sim.Job, lo int, capacity float64, spec *cluster.Spec) error {
	if len(fl) != len(jobs) || !(capacity > 0) {
		return fmt.Errorf("execution-time model: %d task jobs, %d fluid jobs at capacity %v", len(jobs), len(fl), capacity)
	}
	cs := make([]float64, len(fl))
	for i := range fl {
		cs[i] = fl[i].Size * spec.Capacity() / capacity
	}
	return COSHHTypeScales(jobs, j.Rows(lo, lo+len(jobs)), cs, spec, 0, 0) // a view: no copy of the rows
}

// ExecLoad is the task jobs' load on cl in the execution-time model
// (ExecTimeLoad; the plain load when no job has type scales).
func ExecLoad(jobs []task.Job, cl *task.Cluster) float64 {
	l, _ := ExecTimeLoad(jobs, cl)
	return l
}

// AutoClusterSpec sizes --cluster auto to a sized log: on measured sizes
// (a size column or task-seconds), the smallest homogeneous cluster at which
// the log's load is cluster.AutoLoad (cluster.AutoSpec); on sizes
// normalised to a load — which is that load on any cluster — as many
// containers as seed 003's Table 3, and the name says so.
func AutoClusterSpec(j *data.Jobs, sizes []float64, src estimate.Source, opt estimate.SizeOptions) *cluster.Spec {
	if src == estimate.FromBytes || opt.NormaliseAll {
		load := opt.Load
		if load == 0 {
			load = estimate.DefaultSizeOptions().Load
		}
		return cluster.AutoSpecOf(cluster.DefaultSpec().Containers(),
			fmt.Sprintf("as many containers as seed 003's Table 3: sizes normalised to load %g are at that load on any cluster", load))
	}
	work := 0.0
	for _, s := range sizes {
		work += s
	}
	span := 0.0
	if n := j.Len(); n > 0 {
		span = slices.Max(j.Submit) - slices.Min(j.Submit)
	}
	return cluster.AutoSpec(work, span, 0, fmt.Sprintf("this log's measured work (%s)", src))
}
