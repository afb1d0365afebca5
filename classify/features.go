package classify

import (
	"fmt"
	"math"
	"runtime"
	"strings"

	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/internal/par"
	"gonum.org/v1/gonum/mat"
)

// Feature names. Besides the canonical numeric columns of the jobs table
// there are two derived features: "size" (the job's work, as estimate.Sizes
// derives it) and "duration" (finish_time − start_time).
const (
	FeatSize     = "size"
	FeatDuration = "duration"
)

// AllFeatures lists every feature in canonical order.
var AllFeatures = []string{
	FeatSize, FeatDuration,
	data.ColInputBytes, data.ColShuffleBytes, data.ColOutputBytes,
	data.ColMapTaskSeconds, data.ColReduceTaskSeconds,
	data.ColMapTasks, data.ColReduceTasks,
	data.ColPriority,
}

// SubmitFeatures are the features known when a job is submitted (before it
// runs): what a size predictor may use.
var SubmitFeatures = []string{data.ColInputBytes, data.ColMapTasks, data.ColReduceTasks, data.ColPriority}

// DefaultMethod returns the Auto scaling of a feature: ZScore for
// priority, LogUnit for the paper features' rates, Log for the other
// (heavy-tailed) ones.
func DefaultMethod(feature string) Method {
	switch {
	case feature == data.ColPriority:
		return ZScore
	case isRateFeature(feature):
		return LogUnit
	}
	return Log
}

// featureValue returns job i's value of a feature and whether it is known.
// sizes may be nil when the feature is not "size".
func featureValue(j *data.Jobs, sizes []float64, name string, i int) (float64, bool) {
	switch name {
	case FeatSize:
		return sizes[i], true
	case FeatDuration:
		s, ok1 := j.Start.At(i)
		f, ok2 := j.Finish.At(i)
		return f - s, ok1 && ok2
	case data.ColInputBytes:
		v, ok := j.InputBytes.At(i)
		return float64(v), ok
	case data.ColShuffleBytes:
		v, ok := j.ShuffleBytes.At(i)
		return float64(v), ok
	case data.ColOutputBytes:
		v, ok := j.OutputBytes.At(i)
		return float64(v), ok
	case data.ColMapTaskSeconds:
		return j.MapTaskSeconds.At(i)
	case data.ColReduceTaskSeconds:
		return j.ReduceTaskSeconds.At(i)
	case data.ColMapTasks:
		v, ok := j.MapTasks.At(i)
		return float64(v), ok
	case data.ColReduceTasks:
		v, ok := j.ReduceTasks.At(i)
		return float64(v), ok
	case data.ColPriority:
		v, ok := j.Priority.At(i)
		return float64(v), ok
	}
	return math.NaN(), false
}

// featurePresent reports whether the table has the feature at all.
func featurePresent(j *data.Jobs, sizes []float64, name string) bool {
	switch name {
	case FeatSize:
		return sizes != nil
	case FeatDuration:
		return j.Start.Present() && j.Finish.Present()
	}
	return j.Present(name)
}

func knownFeature(name string) bool {
	for _, f := range AllFeatures {
		if f == name {
			return true
		}
	}
	return false
}

// ParseFeatures splits a comma-separated feature list and checks the names.
func ParseFeatures(s string) ([]string, error) {
	if strings.TrimSpace(s) == "" {
		return nil, nil
	}
	var out []string
	seen := map[string]bool{}
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if !knownFeature(f) {
			return nil, fmt.Errorf("feature %q: want one of %s", f, strings.Join(AllFeatures, ", "))
		}
		if seen[f] {
			return nil, fmt.Errorf("feature %q is listed twice", f)
		}
		seen[f] = true
		out = append(out, f)
	}
	return out, nil
}

// DefaultFeatures returns the features of AllFeatures (or of among, when not
// nil) the table can supply for every row in rows (all rows when rows is
// nil), and a note for each present feature it leaves out because some row
// lacks it.
func DefaultFeatures(j *data.Jobs, sizes []float64, rows []int, among []string) (names []string, notes []string) {
	if among == nil {
		among = AllFeatures
	}
	for _, f := range among {
		if !featurePresent(j, sizes, f) {
			continue
		}
		missing := 0
		forRows(j.Len(), rows, func(i int) {
			if _, ok := featureValue(j, sizes, f, i); !ok {
				missing++
			}
		})
		if missing > 0 {
			notes = append(notes, fmt.Sprintf("feature %q left out of the default set: %d jobs lack it", f, missing))
			continue
		}
		names = append(names, f)
	}
	return names, notes
}

// rowBlock is the rows one item of forRowBlocks covers.
const rowBlock = 1 << 15

// forRowBlocks calls fn(lo, hi) for consecutive blocks of rows [0, n) on
// every core: the loops over every job whose rows are independent (each
// writes its own output rows and reads shared data only), which were
// serial phases of the classify stage at 10 M jobs. The results are the
// same as one pass in row order.
func forRowBlocks(n int, fn func(lo, hi int)) {
	par.For((n+rowBlock-1)/rowBlock, runtime.GOMAXPROCS(0), func(b int) {
		fn(b*rowBlock, min(n, (b+1)*rowBlock))
	})
}

func forRows(n int, rows []int, fn func(i int)) {
	if rows == nil {
		for i := 0; i < n; i++ {
			fn(i)
		}
		return
	}
	for _, i := range rows {
		fn(i)
	}
}

// Features builds the feature matrix of the given rows of j (all rows when
// rows is nil), one column per name, in original units. A missing column, a
// null or a NaN/Inf value is an error naming the job's row (1-based, in the
// table) and the feature.
func Features(j *data.Jobs, sizes []float64, rows []int, names []string) (*mat.Dense, error) {
	return featureMatrix(j, sizes, rows, names, nil)
}

// featureMatrix is Features into data (n × len(names) values, row-major;
// nil: a matrix of its own).
func featureMatrix(j *data.Jobs, sizes []float64, rows []int, names []string, data []float64) (*mat.Dense, error) {
	if len(names) == 0 {
		return nil, fmt.Errorf("%s: no features to classify on", j.Source)
	}
	for _, f := range names {
		if !knownFeature(f) {
			return nil, fmt.Errorf("feature %q: want one of %s", f, strings.Join(AllFeatures, ", "))
		}
		if !featurePresent(j, sizes, f) {
			return nil, fmt.Errorf("%s: feature %q: the job log has no such column", j.Source, f)
		}
	}
	if sizes != nil && len(sizes) != j.Len() {
		return nil, fmt.Errorf("%s: %d sizes for %d jobs", j.Source, len(sizes), j.Len())
	}
	n := j.Len()
	if rows != nil {
		n = len(rows)
	}
	d := len(names)
	if n == 0 {
		return nil, fmt.Errorf("%s: no jobs to classify", j.Source)
	}
	x := mat.NewDense(n, d, data)
	raw := x.RawMatrix()
	var err error
	for c, f := range names {
		k := 0
		forRows(j.Len(), rows, func(i int) {
			if err != nil {
				return
			}
			v, ok := featureValue(j, sizes, f, i)
			switch {
			case !ok:
				err = fmt.Errorf("%s: %s: feature %q is null", j.Source, rowName(j, i), f)
			case math.IsNaN(v) || math.IsInf(v, 0):
				err = fmt.Errorf("%s: %s: feature %q is %v, not a finite number", j.Source, rowName(j, i), f, v)
			}
			raw.Data[k*raw.Stride+c] = v
			k++
		})
		if err != nil {
			return nil, err
		}
	}
	return x, nil
}
