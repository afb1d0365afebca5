package experiment

import (
	"bufio"
	"container/heap"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/pipeline/report"
)

// Which jobs' rows results.parquet holds (RunConfig.Results):
//
//	all        every validation job, for every configuration;
//	sample:N   N validation jobs (all when there are fewer), chosen by a hash
//	           of their job id, so that every configuration has the same jobs
//	           and a re-run the same file;
//	none       no results.parquet;
//	auto       all when the validation window has at most AutoResultsJobs
//	           jobs, else sample:AutoResultsJobs (the default).
//
// The validation table, the CDF and the per-class means are computed from
// every job whichever is chosen: the option only sets what is written.
const (
	ResultsAll    = "all"
	ResultsNone   = "none"
	ResultsAuto   = "auto"
	ResultsSample = "sample"
	// AutoResultsJobs is where auto switches from all to a sample: 1 M
	// validation jobs, about 9 M rows and 300 MB of Parquet with the
	// default configurations.
	AutoResultsJobs = 1_000_000
)

// ResultsChoice is a parsed --results.
type ResultsChoice struct {
	// Mode is ResultsAll, ResultsNone, ResultsAuto or ResultsSample.
	Mode string
	// N is the sample's size (ResultsSample).
	N int
}

// ParseResults parses all, none, auto or sample:N (N a positive integer).
func ParseResults(s string) (ResultsChoice, error) {
	switch s {
	case ResultsAll, ResultsNone, ResultsAuto:
		return ResultsChoice{Mode: s}, nil
	}
	if rest, ok := strings.CutPrefix(s, ResultsSample+":"); ok {
		n, err := strconv.Atoi(rest)
		if err != nil || n < 1 {
			return ResultsChoice{}, fmt.Errorf("sample size %q: want a positive integer", rest)
		}
		return ResultsChoice{Mode: ResultsSample, N: n}, nil
	}
	return ResultsChoice{}, fmt.Errorf("want all, none, auto or sample:N")
}

// Resolve turns auto into all or a sample for a window of n jobs, and a
// sample of at least n jobs into all.
func (c ResultsChoice) Resolve(n int) ResultsChoice {
	if c.Mode == ResultsAuto {
		if n <= AutoResultsJobs {
			return ResultsChoice{Mode: ResultsAll}
		}
		return ResultsChoice{Mode: ResultsSample, N: AutoResultsJobs}
	}
	if c.Mode == ResultsSample && c.N >= n {
		return ResultsChoice{Mode: ResultsAll}
	}
	return c
}

// String is the choice as the flag spells it.
func (c ResultsChoice) String() string {
	if c.Mode == ResultsSample {
		return fmt.Sprintf("%s:%d", ResultsSample, c.N)
	}
	return c.Mode
}

// JobIDHash is the hash a results sample ranks jobs by: FNV-1a (64-bit) of
// the job id's bytes.
func JobIDHash(id []byte) uint64 {
	h := fnv.New64a()
	h.Write(id)
	return h.Sum64()
}

// SampleJobs returns which of n jobs a sample of size k keeps: the k whose
// id (id(i)) hashes lowest (JobIDHash; ties by position). It holds k
// candidates at a time.
func SampleJobs(n, k int, id func(i int) []byte) []bool {
	keep := make([]bool, n)
	if k >= n {
		for i := range keep {
			keep[i] = true
		}
		return keep
	}
	h := make(hashHeap, 0, k)
	for i := 0; i < n; i++ {
		e := hashed{JobIDHash(id(i)), i}
		switch {
		case len(h) < k:
			heap.Push(&h, e)
		case k > 0 && e.less(h[0]):
			h[0] = e
			heap.Fix(&h, 0)
		}
	}
	for _, e := range h {
		keep[e.i] = true
	}
	return keep
}

type hashed struct {
	h uint64
	i int
}

func (a hashed) less(b hashed) bool { return a.h < b.h || a.h == b.h && a.i < b.i }

// hashHeap is a max-heap: its root is the candidate the next lower hash
// replaces.
type hashHeap []hashed

func (h hashHeap) Len() int           { return len(h) }
func (h hashHeap) Less(a, b int) bool { return h[b].less(h[a]) }
func (h hashHeap) Swap(a, b int)      { h[a], h[b] = h[b], h[a] }
func (h *hashHeap) Push(x any)        { *h = append(*h, x.(hashed)) }
func (h *hashHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// cdfPoints is how many quantiles of a configuration's responses the
// validation state keeps for the report's CDF: the k/(cdfPoints−1)
// quantiles, k = 0…cdfPoints−1, exact (nearest rank of the sorted
// responses), so the curve drawn from them is within 1/(cdfPoints−1) =
// 0.05% of the whole sample's, in the fraction of jobs, at every response
// (the plot drew at most 2,000 points of the whole sample before).
const cdfPoints = 2001

// ValidateJobBytes is what validation holds per validation job, whatever
// the number of configurations (results are streamed): each of the
// GOMAXPROCS workers' buffers (the jobs with this run's estimates, 56 B;
// responses, slowdowns and the metrics' sorted copy, 8 B each; the
// simulator's completions and responses, 16 B; missed flags), about
// 100 B, plus the classes, the sample's flags and one
// configuration's sorted responses (13 B).
func ValidateJobBytes() float64 {
	return 100*float64(runtime.GOMAXPROCS(0)) + 13
}

// resultChunkRows is how many rows results.parquet's writer builds at a
// time (one row group each): about 20 MB of buffers.
const resultChunkRows = 1 << 17

// ResultsSink is the validation's Experiment.Sink for the exact-size runs:
// it writes each configuration's per-job rows to results.parquet as the
// configuration's simulation finishes, a row group at a time, and keeps of
// the responses only what the report draws: the CDF's quantiles and the
// per-class means. Its memory is the classes of the window's jobs (4 B a
// job), the sample's flags (1 B a job) and one configuration's sorted
// responses while it is summarised (not between two configurations),
// whatever the number of configurations.
type ResultsSink struct {
	pw      *data.ParquetWriter // nil: no rows written
	keep    []bool              // nil: every job
	id      func(i int) []byte
	classOf []int32
	classes int
	names   []string // configuration names, by policy index

	chunk  JobRows
	sorted []float64
	Cdf    []report.Series
	Class  []report.Series
	// Current is the policy index whose per-job responses are kept
	// (currentResp, in job order) for the calibration; −1: none.
	Current     int
	CurrentResp []float64
}

// resultsSchema is results.parquet's columns (empty): JobRows.Table's with
// job ids, and the job's class.
func resultsSchema() *data.Table {
	r := &JobRows{}
	t := r.table(func(int32) string { return "" })
	t.Add("class", []int32{})
	return t
}

// NewResultsSink starts a sink writing to w (nil: no rows).
func NewResultsSink(w io.Writer, keep []bool, id func(i int) []byte, classOf []int32, classes int, names []string) (*ResultsSink, error) {
	s := &ResultsSink{keep: keep, id: id, classOf: classOf, classes: classes, names: names,
		Cdf: make([]report.Series, len(names)), Class: make([]report.Series, len(names)), Current: -1}
	if w != nil {
		pw, err := data.NewParquetWriter(w, resultsSchema())
		if err != nil {
			return nil, err
		}
		s.pw = pw
	}
	return s, nil
}

// Sink is the Experiment.Sink.
func (s *ResultsSink) Sink(rr *RunRows) error {
	resp := rr.Responses()
	s.summarise(rr.Policy, resp)
	// The sorted buffer (8 B a job) is not kept between configurations,
	// beside the next one's simulation and its rows, nor through the runs
	// that follow the last (the σ runs, the load factors).
	s.sorted = nil
	if rr.Policy == s.Current {
		s.CurrentResp = append(s.CurrentResp[:0], resp...)
	}
	if s.pw == nil {
		return nil
	}
	var keep func(i int) bool
	if s.keep != nil {
		keep = func(i int) bool { return s.keep[i] }
	}
	for lo := 0; lo < rr.Len(); lo += resultChunkRows {
		hi := min(lo+resultChunkRows, rr.Len())
		s.chunk.Reset()
		rr.AppendTo(&s.chunk, lo, hi, keep)
		t := s.chunk.table(func(j int32) string { return string(s.id(int(j))) })
		cls := make([]int32, len(s.chunk.Job))
		for k, j := range s.chunk.Job {
			cls[k] = s.classOf[j]
		}
		t.Add("class", cls)
		if err := s.pw.Write(t); err != nil {
			return fmt.Errorf("results.parquet: %w", err)
		}
	}
	return nil
}

// summarise keeps a configuration's CDF quantiles and per-class means.
func (s *ResultsSink) summarise(p int, resp []float64) {
	if cap(s.sorted) < len(resp) {
		// One buffer of the responses' size, not one grown by appends:
		// at 3 M jobs their chain held 62 MB at once where 24 MB do.
		s.sorted = make([]float64, 0, len(resp))
	}
	s.sorted = s.sorted[:0]
	sum, cnt := make([]float64, s.classes), make([]float64, s.classes)
	for i, x := range resp {
		if report.Finite(x) {
			s.sorted = append(s.sorted, x)
		}
		if k := s.classOf[i]; k >= 0 && int(k) < len(sum) {
			sum[k] += x
			cnt[k]++
		}
	}
	for k := range sum {
		if cnt[k] > 0 {
			sum[k] /= cnt[k]
		}
	}
	s.Class[p] = report.Series{Name: s.names[p], Values: sum}
	slices.Sort(s.sorted)
	s.Cdf[p] = report.Series{Name: report.Dropped(s.names[p], len(resp)-len(s.sorted), "not finite"), Values: QuantilePoints(s.sorted, cdfPoints)}
}

// QuantilePoints returns m evenly spaced quantiles of sorted (nearest rank:
// sorted[round(k(n−1)/(m−1))]), or a copy of sorted when it has at most m
// values.
func QuantilePoints(sorted []float64, m int) []float64 {
	n := len(sorted)
	if n <= m {
		return append([]float64(nil), sorted...)
	}
	out := make([]float64, m)
	for k := range out {
		out[k] = sorted[int(math.Round(float64(k)*float64(n-1)/float64(m-1)))]
	}
	return out
}

// Close finishes results.parquet.
func (s *ResultsSink) Close() error {
	if s.pw == nil {
		return nil
	}
	return s.pw.Close()
}

// BufferedFile is a file written through a buffer, flushed, synced and
// closed by finish.
type BufferedFile struct {
	F  *os.File
	Bw *bufio.Writer
}

func (b *BufferedFile) Write(p []byte) (int, error) { return b.Bw.Write(p) }

func (b *BufferedFile) Finish() error {
	if err := b.Bw.Flush(); err != nil {
		b.F.Close()
		return err
	}
	if err := b.F.Sync(); err != nil {
		b.F.Close()
		return err
	}
	return b.F.Close()
}
