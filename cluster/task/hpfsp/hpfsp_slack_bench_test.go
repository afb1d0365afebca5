package hpfsp

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// slackBench builds a slack system with m running jobs in the virtual PS
// (log-normal sizes, σ = 2 as seed 001's traces), after a warm-up in which
// the best completable job is served, the virtual PS advances and
// estimates drift, so that slacks and w vary as in a run. Room is left
// for extra arrivals.
func slackBench(b *testing.B, m, extra int) (*SlackSystem, *rand.Rand) {
	b.Helper()
	rng := rand.New(rand.NewPCG(uint64(m), 2013))
	x, err := NewSlackSystem(SlackConfig{}, m+extra)
	if err != nil {
		b.Fatal(err)
	}
	for k := 0; k < m; k++ {
		if err := x.AddJob(k, math.Exp(2*rng.NormFloat64()), 2); err != nil {
			b.Fatal(err)
		}
		if err := x.SetRunnable(k, true); err != nil {
			b.Fatal(err)
		}
	}
	for i := 0; i < 2*m; i++ {
		if c, _ := x.BestCompletable(); c >= 0 {
			slkMust(b, x.Serve(c, 0.01*x.Remaining(c)))
		}
		k := rng.IntN(m)
		if x.js[k].state == slkPS {
			slkMust(b, x.Reestimate(k, x.Remaining(k)*math.Exp(0.1*rng.NormFloat64())))
		}
	}
	return x, rng
}

func slkMust(b testing.TB, err error) {
	b.Helper()
	if err != nil {
		b.Fatal(err)
	}
}

// randomRunning returns a random running job of the virtual PS.
func randomRunning(x *SlackSystem, rng *rand.Rand, m int) int {
	for {
		if k := rng.IntN(m); x.js[k].state == slkPS {
			return k
		}
	}
}

// BenchmarkSlackSystem measures each operation at 1,000 and 100,000 jobs
// in the virtual PS (ns/op; fixes/op: kinetic recomputations per
// operation).
func BenchmarkSlackSystem(b *testing.B) {
	for _, m := range []int{1000, 100000} {
		b.Run(fmt.Sprintf("jobs=%d/Serve", m), func(b *testing.B) {
			x, rng := slackBench(b, m, 0)
			f0 := x.Fixes
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				k := randomRunning(x, rng, m)
				slkMust(b, x.Serve(k, 1e-9*x.Remaining(k)))
			}
			b.ReportMetric(float64(x.Fixes-f0)/float64(b.N), "fixes/op")
		})
		// Re-estimation: a drift of 10 % (a job moves a little in the
		// virtual PS) and a jump by a factor e^±1 (it passes many jobs).
		for _, sd := range []float64{0.1, 1} {
			b.Run(fmt.Sprintf("jobs=%d/Reestimate-sd%g", m, sd), func(b *testing.B) {
				x, rng := slackBench(b, m, 0)
				f0 := x.Fixes
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					k := randomRunning(x, rng, m)
					w := x.Remaining(k) * math.Exp(sd*rng.NormFloat64())
					slkMust(b, x.Reestimate(k, math.Min(w, 1e6)))
				}
				b.ReportMetric(float64(x.Fixes-f0)/float64(b.N), "fixes/op")
			})
		}
		b.Run(fmt.Sprintf("jobs=%d/AdvanceVirtual", m), func(b *testing.B) {
			x, _ := slackBench(b, m, 0)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				slkMust(b, x.AdvanceVirtual(1e-12))
			}
		})
		// An arrival and a virtual completion: m stays the same.
		b.Run(fmt.Sprintf("jobs=%d/Arrive+Leave", m), func(b *testing.B) {
			x, rng := slackBench(b, m, b.N)
			f0 := x.Fixes
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				slkMust(b, x.AddJob(m+i, math.Exp(2*rng.NormFloat64()), 2))
				x.AdvanceVirtualToFront()
			}
			b.ReportMetric(float64(x.Fixes-f0)/float64(b.N), "fixes/op")
		})
		b.Run(fmt.Sprintf("jobs=%d/Next", m), func(b *testing.B) {
			x, rng := slackBench(b, m, 0)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				// Flip one job's runnable flag so that the search differs.
				k := randomRunning(x, rng, m)
				slkMust(b, x.SetRunnable(k, !x.js[k].runnable))
				if j, _ := x.Next(); j < -1 {
					b.Fatal("no job")
				}
			}
		})
		b.Run(fmt.Sprintf("jobs=%d/Slack", m), func(b *testing.B) {
			x, rng := slackBench(b, m, 0)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if math.IsNaN(x.SlackAhead(randomRunning(x, rng, m))) {
					b.Fatal("NaN slack")
				}
			}
		})
	}
}
