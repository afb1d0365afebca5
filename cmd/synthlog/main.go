// Command synthlog writes a synthetic SWIM-like job log for scale tests
// and benchmarks: Poisson arrivals, a number of users chosen uniformly, and
// Weibull(shape 0.5) input, shuffle and output bytes (the heavy tail of the
// SWIM Facebook traces). Sizes are left to schedplan's bytes rule, so the
// log exercises the same path as a real SWIM trace. The same flags and
// seed give the same file, byte for byte.
//
//	synthlog -jobs 1000000 -out log-1M.parquet
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
	if err := fs.Parse(args); err != nil {
		return err
	}
	switch {
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
	}
	f, err := data.FormatOf(*out)
	if err != nil {
		return err
	}
	j := Generate(*n, *users, *gap, *seed)
	for u := range j.User.Values {
		j.User.Values[u] = *prefix + strconv.Itoa(*from+u)
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
