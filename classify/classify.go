package classify

import (
	"errors"
	"fmt"
	"math"
	"sort"

	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/estimate"
	"github.com/schedplan/schedplan/internal/offheap"
	"gonum.org/v1/gonum/mat"
)

// Special values of Options.K.
const (
	KAuto  = 0  // choose k over [KMin, KMax] by silhouette
	KUsers = -1 // one class per user of the jobs classified (COSHH's default)
)

// Options parameterise a classification. The zero value chooses k
// automatically over 2..12 with the default features and scaling, 10
// restarts and seed 0.
type Options struct {
	// K is the number of classes: > 0 fixed, KAuto or KUsers. A fixed k
	// (or the number of users) larger than the number of distinct feature
	// vectors is reduced to that number, with a warning in
	// Result.Warnings; identical jobs make one class.
	K int
	// KMin and KMax bound the automatic choice. Defaults 2 and 12.
	KMin, KMax int
	// Features to classify on (see AllFeatures); nil: the features of
	// FeatureSet.
	Features []string
	// FeatureSet chooses the features when Features is nil: PaperFeatures
	// (seed 003 §3.1), SizeFeatures (every column feature the log supplies
	// for every job: DefaultFeatures) or DefaultFeatureSet (paper for
	// COSHH, size for Classify and ClassifyRows).
	FeatureSet FeatureSet
	// TimeErrors perturbs the execution-time estimates the paper features
	// and μ are computed from (seed 003 §6.3: L̂ = L·(1 + E), E ~ U[−I, I]
	// with estimate.Uniform; I < 1). The draws are seeded by Seed. The zero
	// value is exact.
	TimeErrors estimate.ErrorModel
	// BlockBytes is the slice of a map task when the log does not count
	// map tasks (see Demand). Default DefaultBlockBytes.
	BlockBytes float64
	// SizeScale, when not 0, is the unit of the sizes: size i is read as
	// sizes[i]·SizeScale (estimate.ContainerScale: the bits of
	// estimate.ContainerSeconds without its copy of the sizes). The
	// Result's methods that take sizes (FeatureRows, Refit, …) take them
	// scaled.
	SizeScale float64
	// Scaling applies to every feature; Auto picks DefaultMethod per feature.
	Scaling Method
	// FeatureScaling overrides Scaling for the features it names.
	FeatureScaling map[string]Method
	// Init, Restarts, MaxIter, Tol, Seed and Workers are passed to KMeans.
	// Restarts defaults to 10 here.
	Init     Init
	Restarts int
	MaxIter  int
	Tol      float64
	Seed     uint64
	Workers  int
	// SilhouetteSample caps the rows the silhouette is computed on.
	// Default 5000; negative: all rows.
	SilhouetteSample int
	// SmallBytes is the total of input, shuffle and output bytes below
	// which a class is labelled "small". Default 1 GiB.
	SmallBytes float64
	// Sample bounds the rows k is chosen and centres are fitted on: a log
	// of more rows is classified on a stratified sample of this many rows
	// (see SampleInfo), and the centres are then refined by Lloyd's
	// iterations on every row. Default DefaultSample; negative: all rows.
	Sample int
	// OnK, when set, is called for each candidate k of an automatic
	// choice, in order, once the silhouettes are formed (after every k's
	// fit; for progress reports).
	OnK func(KScore)
}

func (o Options) withDefaults() Options {
	if o.KMin <= 0 {
		o.KMin = 2
	}
	if o.KMax <= 0 {
		o.KMax = 12
	}
	if o.Restarts <= 0 {
		o.Restarts = 10
	}
	if o.SilhouetteSample == 0 {
		o.SilhouetteSample = 5000
	}
	if o.SmallBytes <= 0 {
		o.SmallBytes = 1 << 30
	}
	if o.Sample == 0 {
		o.Sample = DefaultSample
	}
	if !(o.BlockBytes > 0) {
		o.BlockBytes = DefaultBlockBytes
	}
	if o.SizeScale == 0 {
		o.SizeScale = 1
	}
	return o
}

// Class is one class of jobs.
type Class struct {
	ID    int     `json:"id"`    // index in Result.Classes (classes are ordered by mean size)
	Label string  `json:"label"` // short description from the byte ratios (see Label)
	Count int     `json:"count"`
	Share float64 `json:"share"` // Count / jobs classified
	// Centroid is the fitted centre in original units, one value per
	// Result.Features. With log scaling it is a geometric-mean-like centre,
	// not the arithmetic mean of the class.
	Centroid []float64 `json:"centroid"`
	// MeanSize is the mean job size (work, as estimate.Sizes derives it).
	MeanSize float64 `json:"mean_size"`
	// MeanDuration is the mean observed finish_time − start_time, NaN when
	// the log lacks them (means are over the jobs that have the value).
	MeanDuration          float64 `json:"mean_duration_s"`
	MeanInputBytes        float64 `json:"mean_input_bytes"`
	MeanShuffleBytes      float64 `json:"mean_shuffle_bytes"`
	MeanOutputBytes       float64 `json:"mean_output_bytes"`
	MeanMapTaskSeconds    float64 `json:"mean_map_task_seconds"`
	MeanReduceTaskSeconds float64 `json:"mean_reduce_task_seconds"`
	// Alpha is the arrival rate: Count over the span of the whole log's
	// submit times (jobs/s), so the α of a classification's classes sum to
	// the arrival rate of the jobs it classifies.
	Alpha float64 `json:"alpha_per_s"`
	// Mu is, per resource type of the cluster spec (Result.Resources), the
	// rate at which one machine of that type serves jobs of the class
	// (jobs/s), from the execution-time model (see the package doc): 1 /
	// the mean estimated time of the class's jobs on the type, 0 when the
	// class's mean task data do not fit the type's memory.
	Mu []float64 `json:"mu_per_s"`
	// MeanTaskBytes is the mean over the class's jobs of the bytes one
	// task holds (Demand.TaskData): what the memory-fit rule compares.
	MeanTaskBytes float64 `json:"mean_task_bytes"`
	// Radius is the largest distance of a job of the class to its centre,
	// in the scaled feature space: a new job "fits" the class (seed 003
	// Alg. 1) when it is within the radius (times a tolerance).
	Radius float64 `json:"radius"`
	// MuSource says, per type, where Mu comes from: "model", or
	// "measured" after MeasureMu found the class's tasks on the type.
	MuSource []string `json:"mu_source"`
}

// Result is a classification.
type Result struct {
	Name string `json:"name"` // "primary", "secondary" or "all"
	// Reason says why a classification is empty (no classes).
	Reason string `json:"reason,omitempty"`
	// FeatureSet is the set the features came from: PaperFeatures or
	// SizeFeatures (also when Options.Features named them).
	FeatureSet FeatureSet `json:"feature_set"`
	Features   []string   `json:"features"`
	Scaling    Scaling    `json:"scaling"`
	K          int        `json:"k"`
	// KRule says how K was chosen: "fixed", "users" or "auto".
	KRule string `json:"k_rule"`
	// Rows are the rows of the jobs table classified, in order; Assign[q]
	// is the class of row Rows[q]. Rows is nil when every row is classified
	// (then Assign is indexed by row).
	Rows   []int   `json:"-"`
	Assign []int32 `json:"-"`
	// Classes are ordered by mean size (ties: larger count first).
	Classes []Class `json:"classes"`
	// Inertia is the k-means objective in scaled feature space.
	Inertia float64 `json:"inertia"`
	// Silhouette is the mean silhouette of the result (sampled on large
	// inputs; NaN for one class).
	Silhouette float64 `json:"silhouette"`
	// Elbow is the k at the elbow of the inertia curve (automatic choice
	// only; 0 otherwise), and Curve holds every candidate k.
	Elbow int      `json:"elbow_k,omitempty"`
	Curve []KScore `json:"curve,omitempty"`
	// Resources names the resource types Class.Mu refers to, in order.
	Resources []string `json:"resources"`
	// Span is the span of the whole log's submit times (s) used for α.
	Span float64 `json:"span_s"`
	// SizeFloor is the smallest positive job size of the log: the
	// execution-time model uses it in place of a smaller size, so that
	// times stay positive and μ finite (a zero-work job is served as fast
	// as the smallest real job). 1 when no job has positive size.
	SizeFloor float64 `json:"size_floor"`
	// Model is what μ and the paper features were computed from.
	Model      *Model `json:"model"`
	Iterations int    `json:"iterations"`
	Converged  bool   `json:"converged"`
	// Sample says how a large log was sampled (nil: every row was used).
	Sample   *SampleInfo `json:"sample,omitempty"`
	Warnings []string    `json:"warnings,omitempty"`

	centers []float64 // K × len(Features), scaled, in class order
	dropped int       // Jobs() once DropLabels dropped Assign
}

// Jobs returns how many jobs were classified.
func (r *Result) Jobs() int {
	if r.Assign == nil {
		return r.dropped
	}
	return len(r.Assign)
}

// DropLabels drops the per-row assignment (Rows and Assign: 4 B a row
// classified, 8 more a row of a subset) of a result whose classes alone
// are read from now on: Jobs still counts the rows, ClassOf knows none,
// Predict and Refit work as before.
func (r *Result) DropLabels() {
	r.dropped = r.Jobs()
	r.Rows, r.Assign = nil, nil
}

// ClassOf returns the class of table row i, or -1 when the row was not
// classified.
func (r *Result) ClassOf(i int) int32 {
	if r.Rows == nil {
		if i < 0 || i >= len(r.Assign) {
			return -1
		}
		return r.Assign[i]
	}
	q := sort.SearchInts(r.Rows, i)
	if q < len(r.Rows) && r.Rows[q] == i {
		return r.Assign[q]
	}
	return -1
}

// Predict returns the class whose centre is nearest (in scaled space) to a
// job with the given feature values, in original units, one per Features.
func (r *Result) Predict(features []float64) (int32, error) {
	if len(r.Classes) == 0 {
		return -1, errors.New("classify: the classification has no classes")
	}
	if len(features) != len(r.Features) {
		return -1, fmt.Errorf("classify: %d feature values for %d features", len(features), len(r.Features))
	}
	for j, v := range features {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return -1, fmt.Errorf("classify: feature %q is %v, not a finite number", r.Features[j], v)
		}
	}
	z := r.Scaling.Transform(nil, features)
	return r.nearest(z), nil
}

func (r *Result) nearest(z []float64) int32 {
	d := len(z)
	best, bestD := 0, math.Inf(1)
	for c := range r.Classes {
		if dd := sqDist(z, r.centers[c*d:c*d+d]); dd < bestD {
			best, bestD = c, dd
		}
	}
	return int32(best)
}

// PredictRows assigns rows of j (all when rows is nil) to the nearest class,
// reading the same features the classification used (see FeatureRows).
func (r *Result) PredictRows(j *data.Jobs, sizes []float64, rows []int) ([]int32, error) {
	x, err := r.FeatureRows(j, sizes, rows)
	if err != nil {
		return nil, err
	}
	n, _ := x.Dims()
	out := make([]int32, n)
	var row, z []float64
	for i := 0; i < n; i++ {
		row = mat.Row(row, i, x)
		z = r.Scaling.Transform(z, row)
		out[i] = r.nearest(z)
	}
	return out, nil
}

// FeatureRows returns the classification's features of rows of j (all when
// rows is nil), in original units, one row per job: what Predict takes.
// Paper features use the model's execution-time estimates with the
// classification's errors (Options.TimeErrors; on the table classified,
// the same draws).
func (r *Result) FeatureRows(j *data.Jobs, sizes []float64, rows []int) (*mat.Dense, error) {
	if len(r.Classes) == 0 {
		return nil, errors.New("classify: the classification has no classes")
	}
	if r.FeatureSet != PaperFeatures {
		return Features(j, sizes, rows, r.Features)
	}
	if r.Model == nil {
		return nil, errors.New("classify: a paper-feature classification without its model")
	}
	if len(sizes) != j.Len() {
		return nil, fmt.Errorf("%s: %d sizes for %d jobs", j.Source, len(sizes), j.Len())
	}
	for q, i := range rows {
		if i < 0 || i >= j.Len() || (q > 0 && i <= rows[q-1]) {
			return nil, fmt.Errorf("classify: rows must be increasing row numbers below %d", j.Len())
		}
	}
	x := r.Model.paperMatrix(j, rows, r.Model.estimatedTimesOf(j, sizes, r.SizeFloor, rows), nil)
	if n, _ := x.Dims(); n > 0 {
		if err := finiteRows(j, rows, x, r.Features); err != nil {
			return nil, err
		}
	}
	return x, nil
}

// ScaledRows returns the feature vectors of rows of j (all when rows is nil)
// in the classification's scaled space — the space of Centres and
// Class.Radius, where a job's nearest class is its class (what COSHH's
// queuing process compares, seed 003 Alg. 1).
func (r *Result) ScaledRows(j *data.Jobs, sizes []float64, rows []int) ([][]float64, error) {
	x, err := r.FeatureRows(j, sizes, rows)
	if err != nil {
		return nil, err
	}
	n, _ := x.Dims()
	out := make([][]float64, n)
	var row []float64
	for i := range out {
		row = mat.Row(row, i, x)
		out[i] = r.Scaling.Transform(nil, row)
	}
	return out, nil
}

// Centres returns the class centres in the scaled space, one per class in
// class order.
func (r *Result) Centres() [][]float64 {
	d := len(r.Features)
	out := make([][]float64, 0, len(r.Classes))
	for c := 0; c+d <= len(r.centers) && d > 0; c += d {
		out = append(out, append([]float64(nil), r.centers[c:c+d]...))
	}
	return out
}

// finiteRows checks that every value of x (rows of j) is finite, naming the
// job and the feature of the first that is not.
func finiteRows(j *data.Jobs, rows []int, x *mat.Dense, names []string) error {
	raw := x.RawMatrix()
	k := 0
	var err error
	forRows(j.Len(), rows, func(i int) {
		if err != nil {
			return
		}
		for c, v := range raw.Data[k*raw.Stride : k*raw.Stride+len(names)] {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				err = fmt.Errorf("%s: %s: feature %q is %v, not a finite number", j.Source, rowName(j, i), names[c], v)
				return
			}
		}
		k++
	})
	return err
}

// COSHH computes seed 003's two classifications: primary, of the jobs whose
// users have min_share > 0 in spec, and secondary, of all jobs. When no job
// qualifies for the primary classification, primary has no classes and its
// Reason says why; that is not an error. spec nil means cluster.DefaultSpec().
//
// By default (Options.FeatureSet) both classify on seed 003's features
// (PaperFeatures); both read the same execution-time estimates.
func COSHH(j *data.Jobs, sizes []float64, spec *cluster.Spec, opt Options) (primary, secondary *Result, err error) {
	if spec == nil {
		spec = cluster.DefaultSpec()
	}
	in, err := prepare(j, sizes, spec, opt)
	if err != nil {
		return nil, nil, err
	}
	var rows []int
	names, index := j.Users()
	shared := make([]bool, len(names))
	for u, name := range names {
		shared[u] = spec.User(name).MinShare > 0
	}
	for i, u := range index {
		if shared[u] {
			rows = append(rows, i)
		}
	}
	if len(rows) == 0 {
		primary = in.emptyResult("primary", fmt.Sprintf("no job belongs to a user with min_share > 0 in the cluster spec %q (the log's users: %s)", spec.Name, listNames(names, 5)))
		primary.Rows = []int{}
		primary.Span = span(j.Submit)
	} else {
		primary, err = in.classifyRows("primary", rows, opt, PaperFeatures)
		if err != nil {
			return nil, nil, fmt.Errorf("primary classification: %w", err)
		}
	}
	secondary, err = in.classifyRows("secondary", nil, opt, PaperFeatures)
	if err != nil {
		return nil, nil, fmt.Errorf("secondary classification: %w", err)
	}
	return primary, secondary, nil
}

// Classify classifies every job of j (a secondary classification), by
// default on the log's size features (Options.FeatureSet).
func Classify(j *data.Jobs, sizes []float64, spec *cluster.Spec, opt Options) (*Result, error) {
	if spec == nil {
		spec = cluster.DefaultSpec()
	}
	in, err := prepare(j, sizes, spec, opt)
	if err != nil {
		return nil, err
	}
	return in.classifyRows("all", nil, opt, SizeFeatures)
}

// ClassifyRows classifies the given rows of j (for example the training
// part of a hold-out split); Result.Rows records them.
func ClassifyRows(j *data.Jobs, sizes []float64, spec *cluster.Spec, rows []int, opt Options) (*Result, error) {
	if spec == nil {
		spec = cluster.DefaultSpec()
	}
	if rows == nil {
		rows = []int{}
	}
	for q, i := range rows {
		if i < 0 || i >= j.Len() || (q > 0 && i <= rows[q-1]) {
			return nil, fmt.Errorf("classify: rows must be increasing row numbers below %d", j.Len())
		}
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("%s: no jobs to classify", j.Source)
	}
	in, err := prepare(j, sizes, spec, opt)
	if err != nil {
		return nil, err
	}
	return in.classifyRows("rows", rows, opt, SizeFeatures)
}

func listNames(names []string, max int) string {
	s := ""
	for i, n := range names {
		if i == max {
			return s + fmt.Sprintf(", … (%d in all)", len(names))
		}
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprintf("%q", n)
	}
	return s
}

// prepared is a log ready to classify: its jobs, sizes (each read
// multiplied by scale: Options.SizeScale) and cluster, and every job's
// execution-time estimates on every machine type.
type prepared struct {
	j     *data.Jobs
	sizes []float64
	scale float64
	spec  *cluster.Spec
	model Model
	floor float64
	times *jobTimes
}

// prepare checks the inputs and computes the execution-time estimates.
func prepare(j *data.Jobs, sizes []float64, spec *cluster.Spec, opt Options) (*prepared, error) {
	opt = opt.withDefaults()
	if len(sizes) != j.Len() {
		return nil, fmt.Errorf("%s: %d sizes for %d jobs (derive them with estimate.Sizes)", j.Source, len(sizes), j.Len())
	}
	if j.Len() == 0 {
		return nil, fmt.Errorf("%s: no jobs to classify", j.Source)
	}
	if err := checkTimeErrors(opt.TimeErrors); err != nil {
		return nil, err
	}
	switch opt.FeatureSet {
	case DefaultFeatureSet, PaperFeatures, SizeFeatures:
	default:
		return nil, fmt.Errorf("classify: unknown feature set %q (want paper or size)", opt.FeatureSet)
	}
	in := &prepared{j: j, sizes: sizes, scale: opt.SizeScale, spec: spec, floor: 1,
		model: Model{Types: MachineTypes(spec), BlockBytes: opt.BlockBytes, TimeErrors: opt.TimeErrors.String(),
			Errors: opt.TimeErrors, ErrorSeed: opt.Seed}}
	floor := math.Inf(1)
	for i, v := range sizes {
		if v *= in.scale; math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			return nil, fmt.Errorf("%s: %s: size %v is not a finite non-negative number", j.Source, rowName(j, i), v)
		}
		if v > 0 && v < floor {
			floor = v
		}
	}
	if !math.IsInf(floor, 1) {
		in.floor = floor
	}
	in.times = newJobTimes(j, sizes, in.scale, in.model.Types, in.floor, opt.BlockBytes, opt.TimeErrors, opt.Seed, j.Len())
	return in, nil
}

func (in *prepared) emptyResult(name string, reason string) *Result {
	m := in.model
	r := &Result{Name: name, Reason: reason, Inertia: math.NaN(), Silhouette: math.NaN(), SizeFloor: in.floor,
		Features: []string{}, Classes: []Class{}, Assign: []int32{}, Model: &m}
	for _, rt := range in.spec.Resources {
		r.Resources = append(r.Resources, rt.Name)
	}
	return r
}

// classifyRows classifies the given rows (all when rows is nil); set is the
// feature set when opt names neither features nor a set.
func (in *prepared) classifyRows(name string, rows []int, opt Options, set FeatureSet) (*Result, error) {
	opt = opt.withDefaults()
	j := in.j
	res := in.emptyResult(name, "")
	res.Rows = rows
	if opt.FeatureSet != DefaultFeatureSet {
		set = opt.FeatureSet
	}
	features := opt.Features
	n := j.Len()
	if rows != nil {
		n = len(rows)
	}
	// The feature matrix, scaled in place, is the classification's largest
	// buffer (10 M rows × 3 paper features: 0.23 GB) and lives only in this
	// call: it is held off the heap (offheap) and freed on return.
	var x *mat.Dense
	var free func()
	defer func() {
		if free != nil {
			free()
		}
	}()
	switch {
	case features == nil && set == PaperFeatures:
		res.Model.fillUsers(j, rows, in.spec, span(j.Submit))
		features = PaperFeatureNames(res.Model.Types)
		var data []float64
		data, free = offheap.Make[float64](n * len(features))
		x = res.Model.paperMatrix(j, rows, in.times, data)
		if err := finiteRows(j, rows, x, features); err != nil {
			return nil, err
		}
	default:
		set = SizeFeatures
		sizes := in.scaledSizes()
		if features == nil {
			var notes []string
			features, notes = DefaultFeatures(j, sizes, rows, nil)
			res.Warnings = append(res.Warnings, notes...)
			if len(features) == 0 {
				return nil, fmt.Errorf("%s: the job log supplies no feature for every job (features: %v)", j.Source, AllFeatures)
			}
		}
		var data []float64
		data, free = offheap.Make[float64](n * len(features))
		var err error
		if x, err = featureMatrix(j, sizes, rows, features, data); err != nil {
			return nil, err
		}
	}
	res.FeatureSet = set
	_, d := x.Dims()
	res.Features = append([]string(nil), features...)
	methods := make([]Method, d)
	for c, f := range features {
		methods[c] = opt.Scaling
		if m, ok := opt.FeatureScaling[f]; ok {
			methods[c] = m
		}
		if methods[c] == Auto {
			methods[c] = DefaultMethod(f)
		}
	}
	var z *mat.Dense
	var err error
	res.Scaling, z, err = fitApply(x, methods, true)
	if err != nil {
		return nil, err
	}

	km, err := fitClasses(res, j, rows, z, opt)
	if err != nil {
		return nil, err
	}
	res.Inertia = km.Inertia
	res.Iterations = km.Iterations
	res.Converged = km.Converged

	res.Span = span(j.Submit)
	if !(res.Span > 0) {
		res.Warnings = append(res.Warnings, fmt.Sprintf("the log's submit times span %v s: arrival rates α are undefined (NaN)", res.Span))
	}
	buildClasses(res, j, in.sizes, in.scale, rows, in.times, km, z, opt)
	if note := rankOneNote(res); note != "" {
		res.Warnings = append(res.Warnings, note)
	}
	return res, nil
}

// scaledSizes returns the sizes as read (a copy when scaled): what the size
// features take.
func (in *prepared) scaledSizes() []float64 {
	if in.scale == 1 {
		return in.sizes
	}
	out := make([]float64, len(in.sizes))
	for i, s := range in.sizes {
		out[i] = s * in.scale
	}
	return out
}

func countUsers(j *data.Jobs, rows []int) int {
	_, index := j.Users()
	seen := map[int32]bool{}
	forRows(j.Len(), rows, func(i int) { seen[index[i]] = true })
	return len(seen)
}

func span(submit []float64) float64 {
	if len(submit) == 0 {
		return 0
	}
	lo, hi := submit[0], submit[0]
	for _, t := range submit {
		lo, hi = min(lo, t), max(hi, t)
	}
	return hi - lo
}

// acc accumulates a mean over the values that are present.
type acc struct {
	sum float64
	n   int
}

func (a *acc) add(v float64, ok bool) {
	if ok {
		a.sum += v
		a.n++
	}
}

func (a acc) mean() float64 {
	if a.n == 0 {
		return math.NaN()
	}
	return a.sum / float64(a.n)
}

// timesChunk is the rows whose execution times buildClasses computes at
// once.
const timesChunk = 1 << 16

// buildClasses turns the k-means clusters into classes ordered by mean size,
// with their statistics, labels, α, μ (from the execution times jt) and
// radius in the scaled space z, and relabels res.Assign; size i is
// sizes[i]·scale.
func buildClasses(res *Result, j *data.Jobs, sizes []float64, scale float64, rows []int, jt *jobTimes, km *KMeansResult, z *mat.Dense, opt Options) {
	n, _ := z.Dims()
	k, d := km.Centroids.Dims()
	type stats struct {
		count                            int
		size, dur, in, sh, out, mts, rts acc
		rates                            classRates
		radius2                          float64
	}
	st := make([]stats, k)
	zr, cr := z.RawMatrix(), km.Centroids.RawMatrix()
	// The times of timesChunk rows at a time, computed on every core, are
	// read in row order (the class sums add in row order).
	nt := len(jt.types)
	times, taskData := make([]float64, min(n, timesChunk)*nt), make([]float64, min(n, timesChunk))
	q := 0
	forRows(j.Len(), rows, func(i int) {
		k := q % timesChunk
		if k == 0 {
			jt.fillRows(rows, q, min(n, q+timesChunk), times, taskData)
		}
		c := km.Assign[q]
		s := &st[c]
		s.radius2 = math.Max(s.radius2, sqDist(zr.Data[q*zr.Stride:q*zr.Stride+d], cr.Data[int(c)*cr.Stride:int(c)*cr.Stride+d]))
		q++
		s.count++
		s.rates.add(times[k*nt:(k+1)*nt], taskData[k])
		if sizes != nil {
			s.size.add(sizes[i]*scale, true)
		}
		s.dur.add(featureValue(j, sizes, FeatDuration, i))
		s.in.add(featureValue(j, sizes, data.ColInputBytes, i))
		s.sh.add(featureValue(j, sizes, data.ColShuffleBytes, i))
		s.out.add(featureValue(j, sizes, data.ColOutputBytes, i))
		s.mts.add(featureValue(j, sizes, data.ColMapTaskSeconds, i))
		s.rts.add(featureValue(j, sizes, data.ColReduceTaskSeconds, i))
	})
	// Order: non-empty clusters by mean size, then larger count, then index.
	order := make([]int, 0, k)
	for c := 0; c < k; c++ {
		if st[c].count > 0 {
			order = append(order, c)
		}
	}
	sort.SliceStable(order, func(a, b int) bool {
		sa, sb := st[order[a]].size.mean(), st[order[b]].size.mean()
		if sa != sb && !math.IsNaN(sa) && !math.IsNaN(sb) {
			return sa < sb
		}
		return st[order[a]].count > st[order[b]].count
	})
	if len(order) < k {
		res.Warnings = append(res.Warnings, fmt.Sprintf("%d of %d clusters ended empty and were dropped", k-len(order), k))
	}
	newID := make([]int32, k)
	for c := range newID {
		newID[c] = -1
	}
	res.centers = make([]float64, 0, len(order)*d)
	raw := km.Centroids.RawMatrix()
	for id, c := range order {
		newID[c] = int32(id)
		s := st[c]
		centre := raw.Data[c*raw.Stride : c*raw.Stride+d]
		res.centers = append(res.centers, centre...)
		cl := Class{
			ID:                    id,
			Count:                 s.count,
			Share:                 float64(s.count) / float64(n),
			Centroid:              res.Scaling.Inverse(nil, centre),
			MeanSize:              s.size.mean(),
			MeanDuration:          s.dur.mean(),
			MeanInputBytes:        s.in.mean(),
			MeanShuffleBytes:      s.sh.mean(),
			MeanOutputBytes:       s.out.mean(),
			MeanMapTaskSeconds:    s.mts.mean(),
			MeanReduceTaskSeconds: s.rts.mean(),
			Alpha:                 math.NaN(),
			Mu:                    s.rates.mu(jt.types),
			MeanTaskBytes:         s.rates.taskData.mean(),
			Radius:                math.Sqrt(s.radius2),
		}
		if res.Span > 0 {
			cl.Alpha = float64(s.count) / res.Span
		}
		for range cl.Mu {
			cl.MuSource = append(cl.MuSource, MuModel)
		}
		res.Classes = append(res.Classes, cl)
	}
	res.Assign = make([]int32, len(km.Assign))
	for q, a := range km.Assign {
		res.Assign[q] = newID[a]
	}
	res.K = len(res.Classes)
	labelClasses(res.Classes, opt.SmallBytes)
}

// Label returns the short description of a class from its mean input,
// shuffle and output bytes (I, S, O; T = I + S + O), after the job categories
// of Chen et al.'s workload study (seed 003, Table 4). The first rule that
// holds wins:
//
//	small      T < smallBytes
//	load       O ≥ 100·I and S ≤ O/10          (reads little, writes a lot)
//	summary    I ≥ 10·(S + O) and O ≤ I/1000   (reads a lot, writes almost nothing)
//	aggregate  max(S, O) ≤ I/4                 (reduces its input)
//	expand     max(S, O) ≥ 4·I                 (shuffle or output grows)
//	transform  otherwise                       (volumes of the same order)
//
// It returns "" when the bytes are unknown (NaN).
func Label(in, shuffle, out, smallBytes float64) string {
	if math.IsNaN(in) || math.IsNaN(shuffle) || math.IsNaN(out) {
		return ""
	}
	t := in + shuffle + out
	switch {
	case t < smallBytes:
		return "small"
	case out >= 100*in && shuffle <= out/10:
		return "load"
	case in >= 10*(shuffle+out) && out <= in/1000:
		return "summary"
	case math.Max(shuffle, out) <= in/4:
		return "aggregate"
	case math.Max(shuffle, out) >= 4*in:
		return "expand"
	}
	return "transform"
}

// labelClasses labels classes (ordered by mean size). A log without byte
// columns (any of the three may be absent: it counts as 0 if at least one is
// present) is labelled by size relative to the mean job size: small (< 1/10),
// medium (< 10×), large. Labels that repeat get a suffix -1, -2, … in
// order of mean size.
func labelClasses(cl []Class, smallBytes float64) {
	anyBytes := false
	for _, c := range cl {
		if !math.IsNaN(c.MeanInputBytes) || !math.IsNaN(c.MeanShuffleBytes) || !math.IsNaN(c.MeanOutputBytes) {
			anyBytes = true
		}
	}
	total, count := 0.0, 0
	for _, c := range cl {
		total += c.MeanSize * float64(c.Count)
		count += c.Count
	}
	mean := total / float64(max(count, 1))
	zeroNaN := func(v float64) float64 {
		if math.IsNaN(v) {
			return 0
		}
		return v
	}
	for i := range cl {
		c := &cl[i]
		switch {
		case anyBytes:
			c.Label = Label(zeroNaN(c.MeanInputBytes), zeroNaN(c.MeanShuffleBytes), zeroNaN(c.MeanOutputBytes), smallBytes)
		case math.IsNaN(c.MeanSize):
			c.Label = "class"
		case c.MeanSize < mean/10:
			c.Label = "small"
		case c.MeanSize < 10*mean:
			c.Label = "medium"
		default:
			c.Label = "large"
		}
	}
	seen := map[string]int{}
	for _, c := range cl {
		seen[c.Label]++
	}
	next := map[string]int{}
	for i := range cl {
		if seen[cl[i].Label] > 1 {
			next[cl[i].Label]++
			cl[i].Label = fmt.Sprintf("%s-%d", cl[i].Label, next[cl[i].Label])
		}
	}
}
