package main

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedplan/schedplan/lp"
	"github.com/schedplan/schedplan/pipeline/capacity"
)

// multiUserLog writes a synthetic SWIM-like log of n jobs by the ten users
// of the default cluster (seed 003's Table 5: U1…U10, some with a min
// share): Poisson arrivals, Weibull(0.5) bytes, a third with a shuffle,
// a mix of map and reduce task counts.
func multiUserLog(t *testing.T, n int) string {
	t.Helper()
	rng := rand.New(rand.NewPCG(3, 2026))
	weibull := func(scale float64) int64 { return int64(scale * math.Pow(-math.Log(1-rng.Float64()), 2)) }
	var b strings.Builder
	b.WriteString("job_id,submit_time,user,map_tasks,reduce_tasks,input_bytes,shuffle_bytes,output_bytes\n")
	at := 0.0
	for i := 0; i < n; i++ {
		at += rng.ExpFloat64() * 20
		sh := int64(0)
		if rng.IntN(3) == 0 {
			sh = weibull(1e8)
		}
		fmt.Fprintf(&b, "j%d,%.3f,U%d,%d,%d,%d,%d,%d\n", i, at, 1+rng.IntN(10), 1+rng.IntN(200), rng.IntN(20), weibull(1e9), sh, weibull(1e8))
	}
	path := filepath.Join(t.TempDir(), "multi-user.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// `capacity --json` and `capacity --solver gonum --json` give the same
// allocations and suggested sets (to 1e-9) on the embedded trace and on a
// synthetic multi-user log on Table 3's cluster (the default spec), for
// both classifications and several k.
func TestCapacityCanonicalSolversAgree(t *testing.T) {
	if !lp.CLPAvailable() {
		t.Skip("needs CLP and gonum")
	}
	cases := [][]string{{"-t", "embedded:fb2009-50", "--cluster", capacitySpec(t), "--k", "3"}}
	synth := multiUserLog(t, 1000)
	for _, k := range []string{"2", "5", "8", "auto", "users"} {
		cases = append(cases, []string{"-t", "embedded:fb2009-50", "--k", k}, []string{"-t", synth, "--k", k})
	}
	for _, args := range cases {
		reps := map[string]*capacity.CapacityReport{}
		for _, solver := range []string{"clp", "gonum"} {
			out, err := capacityRun(t, append(append([]string(nil), args...), "--json", "--solver", solver)...)
			if err != nil {
				t.Fatal(args, err, out)
			}
			var rep capacity.CapacityReport
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatal(err, out)
			}
			reps[solver] = &rep
		}
		lps := 0
		for k, a := range reps["clp"].Classifications {
			g := reps["gonum"].Classifications[k]
			if a.Reason != "" {
				continue
			}
			lps++
			if !a.Canonical || !g.Canonical {
				t.Errorf("%v %s: canonical clp %v gonum %v (%q, %q)", args, a.Name, a.Canonical, g.Canonical, a.Messages, g.Messages)
			}
			if math.Abs(a.Lambda-g.Lambda) > 1e-9*a.Lambda {
				t.Errorf("%v %s: λ clp %.12g gonum %.12g", args, a.Name, a.Lambda, g.Lambda)
			}
			for i, c := range a.Classes {
				for ty, d := range c.Delta {
					if e := g.Classes[i].Delta[ty]; math.Abs(d-e) > 1e-9 {
						t.Errorf("%v %s: δ of %s on %s: clp %.12g gonum %.12g", args, a.Name, c.Name, a.Types[ty].Name, d, e)
					}
				}
			}
			for ty, tp := range a.Types {
				if fmt.Sprint(tp.Suggested) != fmt.Sprint(g.Types[ty].Suggested) {
					t.Errorf("%v %s: suggested classes of %s: clp %v gonum %v", args, a.Name, tp.Name, tp.Suggested, g.Types[ty].Suggested)
				}
			}
		}
		if lps == 0 {
			t.Errorf("%v: no LP solved", args)
		}
	}
}
