package sim

import (
	"math"
	"strings"
	"testing"
)

// TestCheckJobsEveryField puts each bad value of each field on the second
// of two jobs: CheckJobs (whose common case is one combined test) must
// refuse it and name the job and the field; a good list passes, and
// checkJobs reports rate caps as HasCaps does.
func TestCheckJobsEveryField(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	good := Job{Arrival: 5, Size: 1, Estimate: 1, Weight: 1, Containers: 2, Cap: 0.5}
	for _, tc := range []struct {
		field string
		set   func(*Job, float64)
		bad   []float64
		want  string
	}{
		{"arrival", func(j *Job, v float64) { j.Arrival = v }, []float64{nan, inf, -inf, 4}, "arrival"},
		{"size", func(j *Job, v float64) { j.Size = v }, []float64{nan, inf, -inf, -1}, "size"},
		{"estimate", func(j *Job, v float64) { j.Estimate = v }, []float64{nan, inf, -inf, -1}, "estimate"},
		{"weight", func(j *Job, v float64) { j.Weight = v }, []float64{nan, inf, -inf}, "weight"},
		{"containers", func(j *Job, v float64) { j.Containers = v }, []float64{nan, inf, -inf, -1}, "containers"},
		{"cap", func(j *Job, v float64) { j.Cap = v }, []float64{nan, inf, -inf, -1}, "rate cap"},
	} {
		for _, v := range tc.bad {
			j := good
			tc.set(&j, v)
			err := CheckJobs([]Job{good, j})
			if err == nil || !strings.Contains(err.Error(), "job 2: "+tc.want) {
				t.Errorf("%s = %v: error %v, want one naming job 2's %s", tc.field, v, err, tc.want)
			}
		}
	}
	for _, tc := range []struct {
		jobs             []Job
		caps, containers bool
	}{
		{nil, false, false},
		{[]Job{{Arrival: -1, Size: 0, Weight: -2}, {Arrival: -1}}, false, false},
		{[]Job{good, good}, true, true},
		{[]Job{{}, {Cap: 1}}, true, false},
		{[]Job{{Containers: 3}, {}}, false, true},
	} {
		f, err := checkJobs(tc.jobs)
		if err != nil || !f.set || f.caps != tc.caps || f.caps != HasCaps(tc.jobs) || f.containers != tc.containers || f.containers != HasContainers(tc.jobs) {
			t.Errorf("%v: facts %+v, err %v; want caps %v, containers %v", tc.jobs, f, err, tc.caps, tc.containers)
		}
	}
}

// TestValidMatchesComparisons compares Job.valid, which tests bits, with
// the chain of comparisons it stands for, on every combination of special
// values in every field and of the previous arrival.
func TestValidMatchesComparisons(t *testing.T) {
	inf := math.Inf(1)
	chain := func(j *Job, prev float64) bool {
		return j.Arrival >= prev && j.Arrival > -inf && j.Arrival < inf && j.Size >= 0 && j.Size < inf &&
			j.Estimate >= 0 && j.Estimate < inf && j.Weight > -inf && j.Weight < inf &&
			j.Containers >= 0 && j.Containers < inf && j.Cap >= 0 && j.Cap < inf
	}
	nan := math.NaN()
	vals := []float64{nan, math.Copysign(nan, -1), inf, -inf, -1, math.Copysign(0, -1), 0, 1, 2.5,
		math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64, 0x1p-1022}
	prevs := []float64{-inf, -1, 0, math.Copysign(0, -1), 1, math.MaxFloat64}
	n, ok := 0, 0
	var j Job
	for _, a := range vals {
		for _, s := range vals {
			for _, e := range vals {
				for _, w := range vals {
					for _, c := range vals {
						for _, k := range vals {
							j = Job{Arrival: a, Size: s, Estimate: e, Weight: w, Containers: c, Cap: k}
							for _, p := range prevs {
								want := chain(&j, p)
								if got := j.valid(p); got != want {
									t.Fatalf("%+v after %v: valid %v, comparisons %v", j, p, got, want)
								}
								n++
								if want {
									ok++
								}
							}
						}
					}
				}
			}
		}
	}
	t.Logf("%d cases, %d valid", n, ok)
}

// TestDeadlineUlpInline checks Metrics' inline successor of |d| against
// math.Nextafter on the special values and random ones.
func TestDeadlineUlpInline(t *testing.T) {
	xs := []float64{0, math.Copysign(0, -1), 1, -1, 1.7e9, -1.7e9, math.SmallestNonzeroFloat64, math.MaxFloat64, -math.MaxFloat64, math.Inf(1), math.Inf(-1), math.NaN()}
	for i := range 1000 {
		xs = append(xs, math.Ldexp(float64(i)+0.37, i%200-100))
	}
	for _, d := range xs {
		a := math.Abs(d)
		got := math.Float64frombits(math.Float64bits(a)+1) - a
		want := math.Nextafter(a, math.Inf(1)) - a
		if math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Errorf("d = %v: %v, want %v", d, got, want)
		}
	}
}

// TestJobFactsOnlyForRunsStart checks that the facts Run's check hands to
// a policy's Start (jobFacts) hold for that Start alone: after a run over
// capped jobs with container counts, a Start called outside Run on jobs
// without either must find that itself (a stale fact would run LAS_MQ in
// its capped mode and order by absent counts), and the run's facts must
// match HasCaps and HasContainers.
func TestJobFactsOnlyForRunsStart(t *testing.T) {
	capped := []Job{{Arrival: 0, Size: 1, Cap: 0.5, Containers: 3}, {Arrival: 1, Size: 2}}
	plain := []Job{{Arrival: 0, Size: 1}, {Arrival: 1, Size: 2}}
	m := mustPolicy(t, "las_mq:k=3,alpha0=1,p=2,order=containers").(*LASMQ)
	f, p := &FIFO{}, &PS{}
	var s Simulator
	for _, pol := range []Policy{m, f, p} {
		if _, err := s.Run(capped, 1, pol); err != nil {
			t.Fatal(err)
		}
	}
	if !m.capped || !f.capped || !p.capped || m.order != ordContainers {
		t.Fatalf("run over capped jobs: capped %v %v %v, order %v", m.capped, f.capped, p.capped, m.order)
	}
	for _, pol := range []Policy{m, f, p} {
		pol.Start(plain, 1)
	}
	if m.capped || f.capped || p.capped || m.order != ordFIFO {
		t.Errorf("Start outside Run after it: capped %v %v %v, order %v; want uncapped, FIFO (no container counts)", m.capped, f.capped, p.capped, m.order)
	}
}
