package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/schedplan/schedplan/cluster/sim"
)

// resultsOf builds per-chunk experiment results (no queue named, class
// queue named) whose mean responses are the given ones per multiplier.
func resultsOf(chunks ...[2][]float64) []*ExperimentResult {
	var out []*ExperimentResult
	for _, c := range chunks {
		for _, row := range c {
			r := &ExperimentResult{}
			for _, m := range row {
				r.Policies = append(r.Policies, PolicyResult{Summaries: []sim.Summary{{Jobs: 1, Response: sim.Quantiles{Mean: m}}}})
			}
			out = append(out, r)
		}
	}
	return out
}

// The refinement moves off the tuned scale only for a gain of at least
// RefineMinGain on every chunk, by hand.
func TestRefinePick(t *testing.T) {
	ms := []float64{0.5, 1, 2}
	for _, tc := range []struct {
		name   string
		chunks [][2][]float64
		want   float64
		score0 []float64
	}{
		// Chunk scores (no-queue + class-queue)/2: 0.5 → 90, 1 → 100, 2 → 110 on both.
		{"consistent gain", [][2][]float64{{{80, 100, 120}, {100, 100, 100}}, {{90, 100, 110}, {90, 100, 110}}}, 0.5, []float64{90, 100, 110}},
		// 0.5 wins on average (−20 then +5) but loses on the second chunk.
		{"one chunk only", [][2][]float64{{{80, 100, 100}, {80, 100, 100}}, {{105, 100, 100}, {105, 100, 100}}}, 1, []float64{80, 100, 100}},
		// A gain of 0.5%, on both chunks: within the noise.
		{"too small", [][2][]float64{{{99.5, 100, 101}, {99.5, 100, 101}}, {{99.5, 100, 101}, {99.5, 100, 101}}}, 1, []float64{99.5, 100, 101}},
		{"tuned best", [][2][]float64{{{101, 100, 102}, {101, 100, 102}}, {{101, 100, 102}, {101, 100, 102}}}, 1, []float64{101, 100, 102}},
	} {
		rf := &ThresholdRefinement{Multipliers: ms, Chosen: 1}
		rf.pick(resultsOf(tc.chunks...))
		if rf.Chosen != tc.want {
			t.Errorf("%s: chose %v, want %v (scores %v)", tc.name, rf.Chosen, tc.want, rf.Score)
		}
		if len(rf.Score) != len(tc.chunks) || len(rf.MeanNoQueue) != len(ms) {
			t.Fatalf("%s: scores %v, no-queue means %v", tc.name, rf.Score, rf.MeanNoQueue)
		}
		if txt := rf.Text(); !strings.Contains(txt, "× 0.5: ") || (rf.Chosen != 1) != strings.Contains(txt, "tuned ones ×") {
			t.Errorf("%s: text %q", tc.name, txt)
		}
		for k, v := range tc.score0 {
			if rf.Score[0][k] != v {
				t.Errorf("%s: chunk 0 score of × %v = %v, want %v", tc.name, ms[k], rf.Score[0][k], v)
			}
		}
	}
}

// BenchmarkRefine runs the pipeline up to the refine stage on the log named
// by SCHEDPLAN_SCALE_TRACE (default: the embedded trace) and reports the
// refine stage's wall time (refine-s) and the jobs it simulated (five
// multipliers, two rows, RefineChunks chunks).
func BenchmarkRefine(b *testing.B) {
	cfg := DefaultRunConfig()
	if t := os.Getenv("SCHEDPLAN_SCALE_TRACE"); t != "" {
		cfg.Trace = t
	}
	cfg.Stages.Until = "refine"
	in, err := Prepare(cfg)
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < b.N; i++ {
		var t0 time.Time
		var took time.Duration
		r := &Runner{Dir: filepath.Join(b.TempDir(), "out")}
		r.Hook = func(stage string, ev StageEvent, err error) {
			switch {
			case stage == "refine" && ev == StageStart:
				t0 = time.Now()
			case stage == "refine" && ev == StageDone:
				took = time.Since(t0)
			}
		}
		if _, err := Run(context.Background(), in, r); err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(took.Seconds(), "refine-s")
		b.ReportMetric(float64(min(in.Split.TuneJobs, RefineMaxJobs)), "jobs")
		r.Close()
	}
}

// The fluid validation's "tuned las_mq" row is the configuration the
// bundle and capacity-scheduler.xml carry: when the refinement chose a
// multiplier other than 1, its thresholds are the tuned ones × it (as
// scaledLASMQ scales the bundle's), not the fluid tuner's as tuned.
func TestValidatedTunedIsEmitted(t *testing.T) {
	best := LASMQParams{K: 3, Alpha0: 8, P: 2, Order: sim.OrderPS}
	tr := &TuneReport{Best: best, Result: &TuneResult{FirstGuess: LASMQParams{K: 1}}}
	for _, m := range []float64{1, 0.5} {
		vc, err := validatedConfigs(testConfig(), tr, m)
		if err != nil {
			t.Fatal(err)
		}
		if want := scaledLASMQ(best.Config(), m).Spec(); vc[0].name != "tuned las_mq" || vc[0].spec != want {
			t.Errorf("multiplier %v: validated %s %s, want the emitted %s", m, vc[0].name, vc[0].spec, want)
		}
	}
}
