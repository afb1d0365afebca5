package sim

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// Small cases computed by hand (capacity 1 unless said).
func TestHandCases(t *testing.T) {
	type job struct{ a, s, e, w float64 }
	for _, tc := range []struct {
		name string
		spec string
		c    float64
		jobs []job
		want []float64 // responses
	}{
		{"fifo", "fifo", 1, []job{{0, 2, 2, 1}, {1, 1, 1, 1}}, []float64{2, 2}},
		{"fifo zero size waits", "fifo", 1, []job{{0, 2, 2, 1}, {1, 0, 0, 1}}, []float64{2, 1}},
		{"ps", "ps", 1, []job{{0, 2, 2, 1}, {1, 1, 1, 1}}, []float64{3, 2}},
		{"ps capacity 2", "ps", 2, []job{{0, 2, 2, 1}, {1, 1, 1, 1}}, []float64{1, 0.5}},
		{"ps zero size", "ps", 1, []job{{0, 2, 2, 1}, {1, 0, 0, 1}}, []float64{2, 0}},
		// A gets 2/3 until it finishes at 4.5; B has 1.5 left, alone.
		{"gps", "gps", 1, []job{{0, 3, 3, 2}, {0, 3, 3, 1}}, []float64{4.5, 6}},
		{"ps ignores weights", "ps", 1, []job{{0, 3, 3, 2}, {0, 3, 3, 1}}, []float64{6, 6}},
		{"srpt", "srpt", 1, []job{{0, 3, 3, 1}, {1, 1, 1, 1}}, []float64{4, 1}},
		// A's estimate runs out at t=1: under SRPT it keeps the server.
		{"srpt underestimate", "srpt", 1, []job{{0, 3, 1, 1}, {1, 1, 1, 1}}, []float64{3, 3}},
		// Under SRPT+PS A becomes late at 1 and shares with B.
		{"srpt+ps", "srpt+ps", 1, []job{{0, 3, 1, 1}, {1, 1, 1, 1}}, []float64{4, 2}},
		{"fsp", "fsp", 1, []job{{0, 3, 3, 1}, {1, 1, 1, 1}}, []float64{4, 1}},
		// Virtual PS: A and B finish virtually at 3 (A got all real
		// service: 1 left; B none: 4 left); both late.
		{"fsp+fifo late", "fsp+fifo", 1, []job{{0, 4, 1, 1}, {0, 4, 1, 1}, {0, 1, 10, 1}}, []float64{4, 8, 9}},
		{"fsp+ps late", "fsp+ps", 1, []job{{0, 4, 1, 1}, {0, 4, 1, 1}, {0, 1, 10, 1}}, []float64{5, 8, 9}},
		{"las", "las", 1, []job{{0, 1, 1, 1}, {0, 3, 3, 1}}, []float64{2, 4}},
		{"las capacity 2", "las", 2, []job{{0, 4, 4, 1}, {1, 4, 4, 1}, {2, 1, 1, 1}}, []float64{4.5, 3.5, 0.5}},
		// Equal queue weights: see the comment in the test body.
		{"las_mq weighted", "las_mq:k=2,alpha0=1", 1, []job{{0, 4, 4, 1}, {1, 4, 4, 1}, {2, 1, 1, 1}}, []float64{6, 8, 3}},
		{"las_mq k=1 is fifo", "las_mq:k=1", 1, []job{{0, 2, 2, 1}, {1, 1, 1, 1}}, []float64{2, 2}},
		// PFSP serves C (virtually behind B) before B: B's slack (14)
		// covers C's 8; FSP serves B first (A=10, B=22, C=20, D=120).
		{"pfsp", "pfsp", 1, []job{{0, 10, 10, 1}, {0, 12, 12, 1}, {10, 8, 8, 1}, {10, 100, 100, 1}}, []float64{10, 30, 8, 120}},
		{"fsp vs pfsp", "fsp", 1, []job{{0, 10, 10, 1}, {0, 12, 12, 1}, {10, 8, 8, 1}, {10, 100, 100, 1}}, []float64{10, 22, 20, 120}},
	} {
		jobs := make([]Job, len(tc.jobs))
		for i, j := range tc.jobs {
			jobs[i] = Job{Arrival: j.a, Size: j.s, Estimate: j.e, Weight: j.w}
		}
		got := responses(t, jobs, tc.c, tc.spec)
		for i := range got {
			if !close(got[i], tc.want[i], 1e-12) {
				t.Errorf("%s (%s): responses %v, want %v", tc.name, tc.spec, got, tc.want)
				break
			}
		}
	}
	// las_mq weighted, by hand: A alone in q0 until t=1, then in q1. From
	// t=1, q0 (B, then C behind it) and q1 (A) get 1/2 each. B reaches 1 at
	// t=3 and joins q1 behind A; C (q0) and A (q1) share until C ends at
	// t=5; A (3 done) ends at 6, B at 9.
}

// randomJobs draws n jobs: Poisson arrivals at load ~0.9 for capacity c,
// log-normal sizes spanning several orders of magnitude, some zero sizes,
// some simultaneous arrivals, estimates with log-normal error sigma.
func randomJobs(rng *rand.Rand, n int, c, sigma float64) []Job {
	jobs := make([]Job, n)
	t := 0.0
	for i := range jobs {
		s := math.Exp(rng.NormFloat64() * 2)
		if rng.IntN(20) == 0 {
			s = 0
		}
		if rng.IntN(10) != 0 {
			t += rng.ExpFloat64() * math.Exp(2) / (0.9 * c) // mean size e^2
		}
		jobs[i] = Job{Arrival: t, Size: s, Estimate: s * math.Exp(sigma*rng.NormFloat64()), Weight: float64(1 + rng.IntN(3))}
	}
	return jobs
}

var allSpecs = []string{"fifo", "ps", "gps", "srpt", "srpt+ps", "fsp+fifo", "fsp+ps", "las", "las_mq:k=4,alpha0=1,p=5", "las_mq:k=3,alpha0=0.5,p=10,strict=true", "las_mq:k=3,alpha0=2,p=3,weights=4/2/1", "las_mq:k=80,alpha0=0.001,p=1.3", "las_mq:k=12,alpha0=0.01,p=3,strict=true,order=ps", "las_mq:k=4,alpha0=1,p=5,order=remaining", "pfsp"}

func TestInvariantsRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var sim Simulator
	for inst := 0; inst < 30; inst++ {
		c := []float64{1, 3.5}[inst%2]
		sigma := []float64{0, 0, 1}[inst%3]
		jobs := randomJobs(rng, 100+rng.IntN(200), c, sigma)
		work := 0.0
		for _, j := range jobs {
			work += j.Size
		}
		ps, err := PSCompletions(jobs, c)
		if err != nil {
			t.Fatal(err)
		}
		means := map[string]float64{}
		for _, spec := range allSpecs {
			r, err := sim.Run(jobs, c, mustPolicy(t, spec))
			if err != nil {
				t.Fatalf("instance %d %s: %v", inst, spec, err)
			}
			if !close(r.Busy, work/c, 1e-9) {
				t.Errorf("instance %d %s: busy %v, Σ sizes / C = %v (not work-conserving)", inst, spec, r.Busy, work/c)
			}
			sum := 0.0
			for i, j := range jobs {
				if r.Completion[i] < j.Arrival+j.Size/c-1e-9*(1+r.Completion[i]) {
					t.Errorf("instance %d %s: job %d done at %v, before arrival %v + size/C %v", inst, spec, i, r.Completion[i], j.Arrival, j.Size/c)
				}
				sum += r.Completion[i] - j.Arrival
			}
			means[spec] = sum / float64(len(jobs))
			if sigma == 0 && (spec == "fsp+fifo" || spec == "fsp+ps" || spec == "pfsp") {
				for i := range jobs {
					if r.Completion[i] > ps[i]*(1+1e-9)+1e-9 {
						t.Errorf("instance %d %s: job %d done at %v, after its PS completion %v", inst, spec, i, r.Completion[i], ps[i])
						break
					}
				}
			}
		}
		if sigma == 0 {
			for spec, m := range means {
				if means["srpt"] > m*(1+1e-9) {
					t.Errorf("instance %d: SRPT mean %v > %s mean %v", inst, means["srpt"], spec, m)
				}
			}
		}
	}
}

// Same inputs, same results, whatever ran before on the Simulator.
func TestDeterministicReuse(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	jobs := randomJobs(rng, 300, 1, 0.5)
	var fresh [][]float64
	for _, spec := range allSpecs {
		r, err := Simulate(jobs, 1, mustPolicy(t, spec))
		if err != nil {
			t.Fatal(err)
		}
		fresh = append(fresh, r.Completion)
	}
	var sim Simulator
	pols := make([]Policy, len(allSpecs))
	for i, spec := range allSpecs {
		pols[i] = mustPolicy(t, spec)
	}
	for round := 0; round < 2; round++ {
		for i := len(allSpecs) - 1; i >= 0; i-- {
			r, err := sim.Run(jobs[:len(jobs)-round*100], 1, pols[i])
			if err != nil {
				t.Fatal(err)
			}
			if round == 0 && !slices.Equal(r.Completion, fresh[i]) {
				t.Errorf("%s: reused simulator and policy give different results", allSpecs[i])
			}
		}
	}
}

func TestParsePolicy(t *testing.T) {
	if _, err := ParsePolicy("nope"); err == nil || !contains(err.Error(), "fsp+ps") {
		t.Errorf("unknown policy error should list the known ones: %v", err)
	}
	for _, bad := range []string{"ps:x=1", "las_mq:k=0", "las_mq:p=1", "las_mq:alpha0=-1", "las_mq:k=2,weights=1", "las_mq:kk=2", "las_mq:k", "las_mq:k=x", "las_mq:k=2,k=3", "las_mq:weights=1/2,decay=0.5,k=2", "las_mq:decay=NaN", "las_mq:decay=2", "las_mq:k=100000"} {
		if _, err := ParsePolicy(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
	p, err := ParsePolicy(" LAS_MQ:k=3, alpha0=2 ,p=4,weights=4/2/1")
	if err != nil {
		t.Fatal(err)
	}
	m := p.(*LASMQ)
	if m.K != 3 || m.Alpha0 != 2 || m.P != 4 || !slices.Equal(m.Weights, []float64{4, 2, 1}) || !slices.Equal(m.Thresholds(), []float64{2, 8}) {
		t.Errorf("parsed %+v", m)
	}
	got := SplitPolicies("fsp+ps, las_mq:k=4,p=10,ps,las_mq:decay=0.5")
	want := []string{"fsp+ps", "las_mq:k=4,p=10", "ps", "las_mq:decay=0.5"}
	if !slices.Equal(got, want) {
		t.Errorf("SplitPolicies: %q, want %q", got, want)
	}
}

func contains(s, sub string) bool {
	return len(s) >= len(sub) && (s == sub || len(sub) == 0 || indexOf(s, sub) >= 0)
}

func indexOf(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}

func TestCheckJobs(t *testing.T) {
	for _, jobs := range [][]Job{
		{{Arrival: 1, Size: 1}, {Arrival: 0, Size: 1}},
		{{Arrival: math.NaN(), Size: 1}},
		{{Arrival: 0, Size: -1}},
		{{Arrival: 0, Size: math.Inf(1)}},
		{{Arrival: 0, Size: 1, Estimate: math.NaN()}},
	} {
		if _, err := Simulate(jobs, 1, &PS{}); err == nil {
			t.Errorf("%v: no error", jobs)
		}
	}
	if _, err := Simulate(nil, 0, &PS{}); err == nil {
		t.Error("capacity 0: no error")
	}
	r, err := Simulate(nil, 1, &PS{})
	if err != nil || len(r.Completion) != 0 {
		t.Errorf("empty: %v %v", r, err)
	}
}

// Sizes over 18 orders of magnitude, many exact ties (equal sizes and
// arrivals), bursts of zero-size jobs: every policy must finish every job
// without stalling and conserve work.
func TestExtremeRanges(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for inst := 0; inst < 12; inst++ {
		n := 400
		jobs := make([]Job, n)
		at := 1e6 * float64(inst) // late clock: absolute times far above small sizes
		for i := range jobs {
			s := math.Pow(10, float64(rng.IntN(19)-9))
			switch rng.IntN(6) {
			case 0:
				s = 0
			case 1:
				s = 1 // many equal sizes
			}
			if rng.IntN(3) == 0 {
				at += rng.ExpFloat64() * 3
			}
			e := s
			if inst%2 == 1 {
				e = s * math.Exp(rng.NormFloat64())
			}
			jobs[i] = Job{Arrival: at, Size: s, Estimate: e, Weight: 1}
		}
		work := 0.0
		for _, j := range jobs {
			work += j.Size
		}
		for _, spec := range allSpecs {
			r, err := Simulate(jobs, 1, mustPolicy(t, spec))
			if err != nil {
				t.Fatalf("instance %d %s: %v", inst, spec, err)
			}
			if !close(r.Busy, work, 1e-9) {
				t.Errorf("instance %d %s: busy %v, work %v", inst, spec, r.Busy, work)
			}
		}
	}
}

func TestInvalidPolicyStruct(t *testing.T) {
	jobs := []Job{{Arrival: 0, Size: 1, Estimate: 1}}
	for _, p := range []Policy{&LASMQ{}, &LASMQ{K: 3, Alpha0: 1, P: 0.5}, &LASMQ{K: 2, Alpha0: 1, P: 2, Weights: []float64{1}}} {
		if _, err := Simulate(jobs, 1, p); err == nil {
			t.Errorf("%+v: no error", p)
		}
	}
}
