package experiment

import (
	"context"
	"math"
	"testing"

	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/estimate"
)

// TestRowsMatchMetricsBits checks that the rows a pool keeps and sinks
// (slowdowns and missed flags computed from the responses) are, bit for
// bit, sim.Metrics.ComputeRun's columns of the same run, on jobs with
// zero sizes, times alone and a slowdown floor (Experiment.Alone), and deadlines that are NaN,
// ±Inf, earlier than the arrival or exact, with and without size errors.
func TestRowsMatchMetricsBits(t *testing.T) {
	jobs := make([]sim.Job, 400)
	dl := make([]float64, len(jobs))
	alone := sim.Alone{Times: make([]float64, len(jobs)), Floor: 2}
	for i := range jobs {
		s := float64(i%6) * 0.3
		jobs[i] = sim.Job{Arrival: 1.7e9 + float64(i)*0.5, Size: s, Estimate: s}
		if i%5 == 1 {
			alone.Times[i] = 0.9
		}
		dl[i] = jobs[i].Arrival + s*float64(1+i%3)
		switch i % 11 {
		case 3:
			dl[i] = math.NaN()
		case 4:
			dl[i] = math.Inf(1)
		case 5:
			dl[i] = math.Inf(-1)
		case 6:
			dl[i] = jobs[i].Arrival - 1
		}
	}
	for _, errs := range []estimate.ErrorModel{{}, {Kind: estimate.LogNormal, Sigma: 0.7}} {
		var sunk []*JobRows
		x := &Experiment{Jobs: jobs, Capacity: 1.25, Deadlines: dl, Alone: alone, Policies: []string{"fifo", "srpt", "gps"}, Runs: 2, Seed: 3, Errors: errs, KeepRows: true}
		y := &Experiment{Jobs: jobs, Capacity: 1.25, Deadlines: dl, Alone: alone, Policies: x.Policies, Runs: 2, Seed: 3, Errors: errs, Sink: func(rr *RunRows) error {
			r := &JobRows{}
			rr.AppendTo(r, 0, rr.Len(), nil)
			sunk = append(sunk, r)
			return nil
		}}
		out, err := RunExperiments(context.Background(), RunOptions{Workers: 2}, x, y)
		if err != nil {
			t.Fatal(err)
		}
		k := 0
		for p, pr := range out[0].Policies {
			rows := pr.Rows
			for ri, run := range pr.Runs[:pr.Simulated] {
				// The run again, by hand, with Metrics' columns.
				js := append([]sim.Job(nil), jobs...)
				if !errs.IsExact() {
					rng := estimate.RunRand(x.Seed, uint64(run))
					for i := range js {
						js[i].Estimate = errs.Draw(js[i].Size, rng)
					}
				}
				pol, err := sim.ParsePolicy(x.Policies[p])
				if err != nil {
					t.Fatal(err)
				}
				var s sim.Simulator
				res, err := s.Run(js, x.Capacity, pol)
				if err != nil {
					t.Fatal(err)
				}
				m := sim.Metrics{Alone: alone}
				m.ComputeRun(js, res, x.Capacity, dl)
				for _, r := range []*JobRows{rows, sunk[k]} {
					off := 0
					if r == rows {
						off = ri * len(jobs)
					}
					for i := range jobs {
						if math.Float64bits(r.Slowdown[off+i]) != math.Float64bits(m.Slowdown[i]) || r.Missed[off+i] != m.Missed[i] || math.Float64bits(r.Response[off+i]) != math.Float64bits(m.Response[i]) {
							t.Fatalf("%v, %s run %d job %d: slowdown %v missed %v response %v, Metrics %v %v %v", errs, x.Policies[p], run, i,
								r.Slowdown[off+i], r.Missed[off+i], r.Response[off+i], m.Slowdown[i], m.Missed[i], m.Response[i])
						}
					}
				}
				k++
			}
		}
	}
}
