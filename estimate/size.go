package estimate

import (
	"fmt"
	"math"
	"strconv"

	"github.com/schedplan/schedplan/data"
)

// Source says which columns a job's size was derived from.
type Source string

// Size sources, in order of preference.
const (
	FromSize        Source = "size"         // the explicit size column
	FromTaskSeconds Source = "task_seconds" // map_task_seconds + reduce_task_seconds
	FromBytes       Source = "bytes"        // input + (1 + d/n)·shuffle + output, normalised to a load
)

// SizeOptions parameterise size derivation.
type SizeOptions struct {
	// DN is the ratio d/n of aggregate disk to network bandwidth used by the
	// bytes rule. Default 4.
	DN float64
	// Load is the offered load the bytes rule normalises to. Default 0.9.
	Load float64
	// NormaliseAll also normalises explicit sizes and task-seconds to Load
	// (bytes-derived sizes are always normalised).
	NormaliseAll bool
}

// DefaultSizeOptions are the defaults of seed 001: d/n = 4, load = 0.9.
func DefaultSizeOptions() SizeOptions { return SizeOptions{DN: 4, Load: 0.9} }

func (o SizeOptions) withDefaults() SizeOptions {
	if o.DN == 0 {
		o.DN = 4
	}
	if o.Load == 0 {
		o.Load = 0.9
	}
	return o
}

// SourceOf returns the size source a table supports: the explicit size column
// when present, else task-seconds (either stage), else bytes (any of the three
// byte columns). It fails when the table has none of them.
func SourceOf(j *data.Jobs) (Source, error) {
	switch {
	case j.Size.Present():
		return FromSize, nil
	case j.MapTaskSeconds.Present() || j.ReduceTaskSeconds.Present():
		return FromTaskSeconds, nil
	case j.InputBytes.Present() || j.ShuffleBytes.Present() || j.OutputBytes.Present():
		return FromBytes, nil
	}
	return "", fmt.Errorf("%s: no usable size column: a job log needs %q, or %q/%q, or %q/%q/%q",
		j.Source, data.ColSize, data.ColMapTaskSeconds, data.ColReduceTaskSeconds,
		data.ColInputBytes, data.ColShuffleBytes, data.ColOutputBytes)
}

// Sizes derives every job's size from the table.
//
// The bytes rule is exactly the one of seed 001's reference simulator
// (schedsim's swim_parser): w = input + (1 + d/n)·shuffle + output, then every
// size is multiplied by load·t_last/Σw, where t_last is the last row's submit
// time (the clock starts at 0), so that the offered load over [0, t_last] is
// load. The arithmetic is done in the same order as the reference so that
// results agree bit for bit. A null byte count counts as 0.
//
// Explicit sizes and task-seconds are used as they are (container-seconds)
// unless opt.NormaliseAll is set. A null in the chosen column is an error that
// names the row.
//
// Every derived size must be finite and in [0, data.MaxSize], and the total
// work must be positive (a log without work cannot be simulated): otherwise
// the error, a *data.InputError, names the job's row and the column its size
// came from, so that no later sum or share (10000·v/Σ) can overflow.
func Sizes(j *data.Jobs, opt SizeOptions) ([]float64, Source, error) {
	opt = opt.withDefaults()
	w, src, err := Weights(j, opt)
	if err != nil {
		return nil, "", err
	}
	col := sourceColumn(src)
	if src != FromBytes { // byte weights are checked once normalised
		if err := checkSizes(j, w, col, ""); err != nil {
			return nil, "", err
		}
		if total, _ := sumChecked(w); total == 0 { // no overflow: n·MaxSize is finite
			return nil, "", noWork(j, col)
		}
	}
	if src == FromBytes || opt.NormaliseAll {
		if err := normalise(j, w, col, opt.Load); err != nil {
			return nil, "", err
		}
		if err := checkSizes(j, w, col, " (after normalising to a load)"); err != nil {
			return nil, "", err
		}
	}
	return w, src, nil
}

// Weights is the first half of Sizes: every job's weight before
// normalisation (the size column, the task-seconds, or the bytes rule's w),
// with the nulls of the chosen column refused. Sizes of a log read in parts
// (in order) are the parts' weights concatenated and finished by
// FinishWeights.
func Weights(j *data.Jobs, opt SizeOptions) ([]float64, Source, error) {
	opt = opt.withDefaults()
	if err := opt.check(); err != nil {
		return nil, "", fmt.Errorf("size options: %w", err)
	}
	src, err := SourceOf(j)
	if err != nil {
		return nil, "", err
	}
	col := sourceColumn(src)
	n := j.Len()
	w := make([]float64, n)
	switch src {
	case FromSize:
		for i := range w {
			v, ok := j.Size.At(i)
			if !ok {
				return nil, "", inputError(j, i+1, col, "null size")
			}
			w[i] = v
		}
	case FromTaskSeconds:
		for i := range w {
			m, okm := j.MapTaskSeconds.At(i)
			r, okr := j.ReduceTaskSeconds.At(i)
			if !okm && !okr {
				return nil, "", inputError(j, i+1, col, "null task-seconds in both stages")
			}
			w[i] = m + r
		}
	case FromBytes:
		for i := range w {
			in, _ := j.InputBytes.At(i)
			sh, _ := j.ShuffleBytes.At(i)
			out, _ := j.OutputBytes.At(i)
			w[i] = float64(in) + (1+opt.DN)*float64(sh) + float64(out)
		}
	}
	return w, src, nil
}

// FinishWeights is the second half of Sizes for the weights w of a whole
// log (Weights of its parts, concatenated in order) whose first and last
// submit times are given: it checks and, where Sizes does, normalises w in
// place, with Sizes' arithmetic in Sizes' order, so that w ends bit for bit
// as Sizes' result. It returns false where Sizes fails (the caller then
// reads the log whole for Sizes' error, which names the job).
func FinishWeights(w []float64, src Source, opt SizeOptions, first, last float64) bool {
	opt = opt.withDefaults()
	ok := func() bool {
		for _, v := range w {
			if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 || v > data.MaxSize {
				return false
			}
		}
		return true
	}
	if src != FromBytes {
		if !ok() {
			return false
		}
		if total, _ := sumChecked(w); total == 0 {
			return false
		}
	}
	if src != FromBytes && !opt.NormaliseAll {
		return true
	}
	total, row := sumChecked(w)
	duration := Duration([]float64{first, last})
	if row > 0 || total <= 0 || !(duration > 0) || duration > data.MaxTime {
		return false
	}
	mult := opt.Load * duration / total
	for i := range w {
		w[i] *= mult
	}
	return ok()
}

// check rejects options that would make every size NaN, infinite or
// negative.
func (o SizeOptions) check() error {
	if !(o.DN >= 0) || math.IsInf(o.DN, 0) {
		return fmt.Errorf("d/n %v is not a finite non-negative number", o.DN)
	}
	if !(o.Load > 0) || math.IsInf(o.Load, 0) {
		return fmt.Errorf("load %v is not a finite positive number", o.Load)
	}
	return nil
}

// sourceColumn names the column sizes from src come from, for messages.
func sourceColumn(src Source) string {
	switch src {
	case FromSize:
		return data.ColSize
	case FromTaskSeconds:
		return data.ColMapTaskSeconds + "+" + data.ColReduceTaskSeconds
	}
	return data.ColInputBytes + "+" + data.ColShuffleBytes + "+" + data.ColOutputBytes
}

// inputError locates a problem in j. Row is 1-based in j's order (the file's
// when it was sorted by submit time), so the message names the job id too.
func inputError(j *data.Jobs, row int, col, format string, args ...any) *data.InputError {
	msg := fmt.Sprintf(format, args...)
	if row > 0 {
		msg = fmt.Sprintf("job %s: %s", strconv.Quote(j.ID.At(row-1)), msg)
	}
	return &data.InputError{File: j.Source, Row: row, Column: col, Msg: msg}
}

// checkSizes reports the first size that is not finite or lies outside
// [0, data.MaxSize].
func checkSizes(j *data.Jobs, w []float64, col, when string) error {
	for i, v := range w {
		switch {
		case math.IsNaN(v) || math.IsInf(v, 0) || v < 0:
			return inputError(j, i+1, col, "size %v%s is not a finite non-negative number", v, when)
		case v > data.MaxSize:
			return inputError(j, i+1, col, "size %v s%s is larger than %v s, the largest size of one job schedplan accepts (sums over 10^8 jobs must stay finite)", v, when, float64(data.MaxSize))
		}
	}
	return nil
}

// sumChecked returns Σw and 0, or the 1-based index of the element at which
// the running sum overflowed.
func sumChecked(w []float64) (float64, int) {
	total := 0.0
	for i, v := range w {
		total += v
		if math.IsInf(total, 0) || math.IsNaN(total) {
			return total, i + 1
		}
	}
	return total, 0
}

// Duration is the span the load is normalised over: t_last − origin, where
// the origin is 0 for logs whose clock starts near 0 (the first submit time is
// smaller than the log's own span, as in the SWIM traces, whose reference
// simulator counts from 0: this keeps parity with it bit for bit) and the
// first submit time otherwise (logs with epoch timestamps, where counting from
// 1970 would make every size absurdly large). submit must be sorted.
func Duration(submit []float64) float64 {
	if len(submit) == 0 {
		return 0
	}
	first, last := submit[0], submit[len(submit)-1]
	if first < last-first {
		return last
	}
	return last - first
}

// normalise scales w in place so that Σw = load·duration, in the reference
// simulator's order of operations. It fails, naming the job or the column,
// when Σw overflows or is 0, or when the log's span is not positive or
// larger than data.MaxTime.
func normalise(j *data.Jobs, w []float64, col string, load float64) error {
	total, row := sumChecked(w)
	if row > 0 {
		return inputError(j, row, col, "the total work overflows at this job (size %v)", w[row-1])
	}
	if total <= 0 {
		return noWork(j, col)
	}
	duration := Duration(j.Submit)
	if !(duration > 0) || duration > data.MaxTime {
		return inputError(j, 0, data.ColSubmit, "cannot normalise sizes to a load: the trace spans %v s (it must span more than 0 s and at most %v s)", duration, float64(data.MaxTime))
	}
	mult := load * duration / total
	for i := range w {
		w[i] *= mult
	}
	return nil
}

// noWork is the error for a log whose total work is 0.
func noWork(j *data.Jobs, col string) error {
	return inputError(j, 0, col, "every job has size 0: a log without work cannot be simulated or classified")
}

// ContainerSeconds returns sizes in container-seconds of a cluster whose
// total speed is capacity reference containers. Sizes derived from bytes are
// normalised in seconds of the whole cluster (a capacity-1 server: the
// reference simulator's unit), so they are multiplied by capacity; the offered
// load on the cluster is then the load they were normalised to. Explicit
// sizes and task-seconds already are container-seconds and are returned as
// they are (unless they were normalised too, see SizeOptions.NormaliseAll).
func ContainerSeconds(sizes []float64, src Source, opt SizeOptions, capacity float64) []float64 {
	if !scaledToContainers(src, opt) {
		return sizes
	}
	out := make([]float64, len(sizes))
	for i, s := range sizes {
		out[i] = s * capacity
	}
	return out
}

// ContainerScale returns what ContainerSeconds multiplies each size by:
// capacity, or 1 when it returns the sizes as they are. A reader that
// multiplies sizes[i] by it where it reads gets ContainerSeconds's bits
// without its copy of the sizes.
func ContainerScale(src Source, opt SizeOptions, capacity float64) float64 {
	if !scaledToContainers(src, opt) {
		return 1
	}
	return capacity
}

func scaledToContainers(src Source, opt SizeOptions) bool {
	return src == FromBytes || opt.NormaliseAll
}
