// Command synthlog writes a synthetic SWIM-like job log for scale tests
// and benchmarks: Poisson arrivals, a number of users chosen uniformly, and
// Weibull(shape 0.5) input, shuffle and output bytes (the heavy tail of the
// SWIM Facebook traces). Sizes are left to schedplan's bytes rule, so the
// log exercises the same path as a real SWIM trace. The same flags and
// seed give the same file, byte for byte.
//
// With -tasks the log also has map_tasks and reduce_tasks, derived from the
// bytes as Hadoop would (TaskCounts), so the task level replays realistic
// task counts instead of synthesising few tasks per job. The bytes, and so
// every other column, are the same with and without -tasks.
//
//	synthlog -jobs 1000000 -out log-1M.parquet
//	synthlog -jobs 1000000 -tasks -out log-1M-tasks.parquet
package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"strconv"

	"github.com/schedplan/schedplan/data"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "synthlog:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("synthlog", flag.ContinueOnError)
	n := fs.Int("jobs", 100_000, "number of jobs (1..100,000,000)")
	users := fs.Int("users", 20, "number of users (1..10,000)")
	prefix := fs.String("user-prefix", "user", `users are named prefix+number ("-user-prefix U -user-from 1": U1, U2, …, the users of the default cluster spec, seed 003's Table 5)`)
	from := fs.Int("user-from", 0, "the first user's number (0..1,000,000)")
	gap := fs.Float64("gap", 1, "mean gap between submissions, in seconds (> 0)")
	seed := fs.Uint64("seed", 1, "random seed")
	out := fs.String("out", "", "output file (.parquet, .arrow, .csv or .tsv; required)")
	force := fs.Bool("force", false, "overwrite an existing output")
	tasks := fs.Bool("tasks", false, "write map_tasks and reduce_tasks derived from the bytes (one map per -split-bytes of input, one reduce per -reduce-bytes of shuffle)")
	split := fs.Int64("split-bytes", DefaultSplitBytes, "input bytes per map task with -tasks (HDFS's block size)")
	perReduce := fs.Int64("reduce-bytes", DefaultReduceBytes, "shuffle bytes per reduce task with -tasks")
	if err := fs.Parse(args); err != nil {
		return err
	}
	bytesFlag := ""
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "split-bytes" || f.Name == "reduce-bytes" {
			bytesFlag = f.Name
		}
	})
	switch {
	case bytesFlag != "" && !*tasks:
		return fmt.Errorf("-%s: only with -tasks (without it the log has no task counts)", bytesFlag)
	case *n < 1 || *n > 100_000_000:
		return fmt.Errorf("-jobs %d: want 1..100000000", *n)
	case *users < 1 || *users > 10_000:
		return fmt.Errorf("-users %d: want 1..10000", *users)
	case !(*gap > 0) || math.IsInf(*gap, 0) || *gap*float64(*n) > 1e10:
		return fmt.Errorf("-gap %v: want a positive gap with jobs × gap ≤ 1e10 s", *gap)
	case *from < 0 || *from > 1_000_000:
		return fmt.Errorf("-user-from %d: want 0..1000000", *from)
	case *out == "":
		return fmt.Errorf("-out is required")
	case *split < 1<<20:
		return fmt.Errorf("-split-bytes %d: want at least 1 MiB", *split)
	case *perReduce < 1<<20:
		return fmt.Errorf("-reduce-bytes %d: want at least 1 MiB", *perReduce)
	}
	f, err := data.FormatOf(*out)
	if err != nil {
		return err
	}
	j := Generate(*n, *users, *gap, *seed)
	for u := range j.User.Values {
		j.User.Values[u] = *prefix + strconv.Itoa(*from+u)
	}
	if *tasks {
		AddTaskCounts(j, *split, *perReduce)
	}
	return data.WriteFileAtomic(*out, *force, func(w io.Writer) error { return data.Write(w, j, f) })
}

// Generate returns n jobs of the given number of users, with exponential
// gaps of the given mean (s) and Weibull(0.5) bytes: input with scale
// 1 GB, shuffle 100 MB for one job in three (map-only otherwise), output
// 100 MB.
func Generate(n, users int, gap float64, seed uint64) *data.Jobs {
	rng := rand.New(rand.NewPCG(seed, 0x5ca1e))
	weibull := func(scale float64) int64 {
		v := scale * math.Pow(-math.Log(1-rng.Float64()), 2) // shape 0.5
		return int64(min(v, 1e15))
	}
	j := &data.Jobs{Source: "synthlog"}
	for u := 0; u < users; u++ {
		j.User.Values = append(j.User.Values, "user"+strconv.Itoa(u))
	}
	j.Submit = make([]float64, n)
	j.User.Codes = make([]int32, n)
	in, sh, out := make([]int64, n), make([]int64, n), make([]int64, n)
	t := 0.0
	buf := make([]byte, 0, 16)
	for i := 0; i < n; i++ {
		t += rng.ExpFloat64() * gap
		j.Submit[i] = math.Round(t*1000) / 1000
		buf = strconv.AppendInt(append(buf[:0], 'j'), int64(i), 10)
		j.ID.Append(string(buf))
		j.User.Codes[i] = int32(rng.IntN(users))
		in[i] = weibull(1e9)
		if rng.IntN(3) == 0 {
			sh[i] = weibull(1e8)
		}
		out[i] = weibull(1e8)
	}
	j.InputBytes.Values, j.ShuffleBytes.Values, j.OutputBytes.Values = in, sh, out
	return j
}

// Task-count defaults of AddTaskCounts: HDFS's default block size
// (dfs.blocksize, 128 MiB) is the split size of FileInputFormat when the
// job sets no minimum or maximum split size; Hive's default bytes per
// reducer (hive.exec.reducers.bytes.per.reducer, 256 MB) and its cap on
// reducers (hive.exec.reducers.max, 1009).
const (
	DefaultSplitBytes  = 128 << 20
	DefaultReduceBytes = 256_000_000
	MaxMaps            = 20_000
	MaxReduces         = 1009
)

// TaskCounts returns a job's map and reduce task counts from its bytes:
//
//   - maps: one per split of splitBytes of input, the last split taking
//     up to 10 % more (FileInputFormat's SPLIT_SLOP of 1.1), at least 1
//     and at most MaxMaps;
//   - reduces: 0 for a map-only job (no shuffle bytes), otherwise
//     ⌈shuffle / reduceBytes⌉, at least 1 and at most MaxReduces (Hive's
//     estimate of the reducers a query needs).
//
// The caps keep a heavy-tailed input (Weibull(0.5) reaches a few hundred
// GB in a million jobs) within the task level's per-job bound.
func TaskCounts(input, shuffle, splitBytes, reduceBytes int64) (maps, reduces int32) {
	// Whole splits while more than 1.1 splits remain, then the rest
	// (between 0.1 and 1.1 splits) as the last one: q splits when the
	// rest r of q whole ones is at most a tenth of a split, else q+1. In
	// integers: x − 1.1 in floating point lands on a whole number as
	// 16.1 splits of 50 MiB do, and made 17 maps where Hadoop makes 16.
	q, r := input/splitBytes, input%splitBytes
	if r > splitBytes/10 {
		q++
	}
	m := max(1, min(q, MaxMaps)) // an empty input is still one (empty) split
	if shuffle > 0 {
		n := shuffle / reduceBytes
		if shuffle%reduceBytes != 0 {
			n++
		}
		reduces = int32(min(n, MaxReduces))
	}
	return int32(m), reduces
}

// AddTaskCounts sets j's map_tasks and reduce_tasks columns from its input
// and shuffle bytes (TaskCounts). It draws no random numbers, so the rest
// of the log is the one written without task counts.
func AddTaskCounts(j *data.Jobs, splitBytes, reduceBytes int64) {
	n := j.Len()
	maps, reduces := make([]int32, n), make([]int32, n)
	for i := range n {
		maps[i], reduces[i] = TaskCounts(j.InputBytes.Values[i], j.ShuffleBytes.Values[i], splitBytes, reduceBytes)
	}
	j.MapTasks.Values, j.ReduceTasks.Values = maps, reduces
}
