package sim

import (
	"encoding/binary"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
)

// slotSpecs are the LAS_MQ configurations whose schedules
// TestLASMQSlotsPinned pins: every in-level order, k = 1 (GPS, SRPT, FIFO),
// strict priority, weights with zeros and all zero, k above the one-word
// limit (64) and fine levels.
var slotSpecs = []string{
	"las_mq",
	"las_mq:k=1,alpha0=1,p=2",
	"las_mq:k=1,alpha0=1,p=2,order=ps",
	"las_mq:k=1,alpha0=1,p=2,order=remaining",
	"las_mq:k=2,alpha0=0.5,p=2,order=containers",
	"las_mq:k=4,alpha0=1,p=5",
	"las_mq:k=4,alpha0=1,p=5,order=ps",
	"las_mq:k=4,alpha0=1,p=5,order=remaining",
	"las_mq:k=4,alpha0=1,p=5,order=containers",
	"las_mq:k=5,alpha0=0.2,p=3,strict=true",
	"las_mq:k=5,alpha0=0.2,p=3,strict=true,order=ps",
	"las_mq:k=5,alpha0=0.2,p=3,strict=true,order=remaining",
	"las_mq:k=4,alpha0=0.5,p=4,weights=0/2/0/1",
	"las_mq:k=4,alpha0=0.5,p=4,weights=0/2/0/1,order=ps",
	"las_mq:k=4,alpha0=0.5,p=4,weights=0/0/0/0,order=remaining",
	"las_mq:k=80,alpha0=0.001,p=1.3",
	"las_mq:k=80,alpha0=0.001,p=1.3,order=ps",
	"las_mq:k=70,alpha0=0.01,p=1.2,order=containers",
	"las_mq:k=200,alpha0=0.0001,p=1.1,strict=true,order=ps",
}

// slotPinned are FNV-64a hashes of every completion's and response's bits
// of the runs slotRunsHash makes, as LAS_MQ computed them when it held its
// state in per-job arrays of the run's length (before the slots): the
// slots must give the same bits. Computed on amd64 (other architectures
// may fuse multiply-adds and round differently).
var slotPinned = map[string]uint64{
	"las_mq":                                                    0x968d46cdef5e61b0,
	"las_mq:k=1,alpha0=1,p=2":                                   0x12756f56215f511d,
	"las_mq:k=1,alpha0=1,p=2,order=ps":                          0x1b00f4977df44233,
	"las_mq:k=1,alpha0=1,p=2,order=remaining":                   0x7304e0dc9caacb3c,
	"las_mq:k=2,alpha0=0.5,p=2,order=containers":                0x1db55254f23e5fe1,
	"las_mq:k=4,alpha0=1,p=5":                                   0x594f061e060a4f17,
	"las_mq:k=4,alpha0=1,p=5,order=ps":                          0xaca854d85764694b,
	"las_mq:k=4,alpha0=1,p=5,order=remaining":                   0xa6de6f418557c2e,
	"las_mq:k=4,alpha0=1,p=5,order=containers":                  0x166ec4819496e47b,
	"las_mq:k=5,alpha0=0.2,p=3,strict=true":                     0x65293dde25c502ec,
	"las_mq:k=5,alpha0=0.2,p=3,strict=true,order=ps":            0x80cf649e74598c24,
	"las_mq:k=5,alpha0=0.2,p=3,strict=true,order=remaining":     0x6dc34c20590b2320,
	"las_mq:k=4,alpha0=0.5,p=4,weights=0/2/0/1":                 0x7ded278bc1191098,
	"las_mq:k=4,alpha0=0.5,p=4,weights=0/2/0/1,order=ps":        0xed3c0b7fde1ebf44,
	"las_mq:k=4,alpha0=0.5,p=4,weights=0/0/0/0,order=remaining": 0xd44c0e3c87ac2b22,
	"las_mq:k=80,alpha0=0.001,p=1.3":                            0x92736ebc88c15ed0,
	"las_mq:k=80,alpha0=0.001,p=1.3,order=ps":                   0xd08bb49166e6b5b6,
	"las_mq:k=70,alpha0=0.01,p=1.2,order=containers":            0x3cfc3fbe503e434f,
	"las_mq:k=200,alpha0=0.0001,p=1.1,strict=true,order=ps":     0xa2589b46e05bdd98,
}

// slotJobs draws n adversarial jobs from a PCG stream through its Uint64s
// alone (so that the jobs do not depend on math/rand/v2's distributions):
// runs of equal arrivals, zero sizes, sizes on and just below m's
// thresholds, repeats of the previous job (ties in every heap and order),
// weights ≤ 0, container counts and estimates (some 0), arrivals at load
// ~0.7-1.3 of capacity c; with caps, 2 jobs in 3 capped (1% to 100% of
// c); absolute: arrivals near the Unix epoch.
func slotJobs(seed uint64, n int, m *LASMQ, c float64, caps, absolute bool) []Job {
	r := rand.New(rand.NewPCG(seed, 77))
	u := func() float64 { return float64(r.Uint64()>>11) / (1 << 53) }
	pick := func(k int) int { return int(r.Uint64() % uint64(k)) }
	thr := m.Thresholds()
	jobs := make([]Job, n)
	sum := 0.0
	for i := range jobs {
		j := &jobs[i]
		if i > 0 && pick(8) == 0 {
			*j = jobs[i-1]
			j.Arrival = 0
			sum += j.Size
			continue
		}
		j.Size = math.Exp(4 * (u() + u() + u() - 1.5))
		switch pick(10) {
		case 0:
			j.Size = 0
		case 1:
			if len(thr) > 0 {
				j.Size = thr[pick(len(thr))] * []float64{1, 1 - Tol/2, 1 + Tol}[pick(3)]
			}
		}
		j.Weight = []float64{0, -1, 1, 2.5, float64(1 + pick(3))}[pick(5)]
		if pick(3) > 0 {
			j.Containers = float64(1 + pick(40))
		}
		switch pick(4) {
		case 0:
		case 1:
			j.Estimate = j.Size
		default:
			j.Estimate = j.Size * math.Exp(2*(u()-0.5))
		}
		if caps && pick(3) > 0 {
			j.Cap = c * math.Pow(10, -2*u())
		}
		sum += j.Size
	}
	gap := sum / float64(n) / c / []float64{0.7, 1, 1.3}[seed%3]
	t := 0.0
	if absolute {
		t = 1.7e9
	}
	for i := range jobs {
		if pick(4) > 0 {
			t += -math.Log(1-u()) * gap
		}
		jobs[i].Arrival = t
	}
	return jobs
}

// slotRun is one run of slotRunsHash: job set seed, count, capacity, caps
// and clock.
type slotRun struct {
	seed          uint64
	n             int
	c             float64
	caps, absTime bool
}

var slotRuns = []slotRun{
	{1, 400, 1, false, false},
	{2, 1500, 3.5, false, true},
	{3, 800, 1, true, false},
	{4, 300, 2, true, true},
	{5, 2000, 1, false, false},
}

// slotRunsHash runs policy p (one policy and one Simulator reused across
// the runs, as the tuner reuses them) over slotRuns and hashes the bits of
// every completion and response.
func slotRunsHash(t *testing.T, p Policy, m *LASMQ) uint64 {
	t.Helper()
	h := fnv.New64a()
	var s Simulator
	var buf []byte
	for _, run := range slotRuns {
		jobs := slotJobs(run.seed, run.n, m, run.c, run.caps, run.absTime)
		r, err := s.Run(jobs, run.c, p)
		if err != nil {
			t.Fatalf("%s, jobs %d: %v", m.Spec(), run.seed, err)
		}
		buf = buf[:0]
		for i, c := range r.Completion {
			buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(c))
			buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(r.Response[i]))
		}
		h.Write(buf)
	}
	return h.Sum64()
}

// TestLASMQSlotsPinned compares LAS_MQ's schedules with the pinned hashes
// of the per-job-array implementation: FIFO lists, heaps and served lists
// now name slots taken again after completions, and must give the same
// bits in every mode (uncapped and capped, every order, strict, weights,
// k beyond one word, equal arrivals, zero sizes, reused policy).
func TestLASMQSlotsPinned(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skip("hashes pinned on amd64")
	}
	for _, spec := range slotSpecs {
		m := mustPolicy(t, spec).(*LASMQ)
		got := slotRunsHash(t, m, m)
		if want, ok := slotPinned[spec]; !ok || got != want {
			t.Errorf("%s: hash %#x, pinned %#x", spec, got, want)
		}
	}
}

// slotsFree counts m's free slots (the free list's length).
func slotsFree(m *LASMQ) int {
	n := 0
	for s := m.free; s >= 0; s = m.sl[s].link {
		n++
	}
	return n
}

// TestLASMQReuseAcrossModes runs one LAS_MQ over a sequence of runs that
// change its queues, order, strictness, caps and job count between runs
// (the Simulator reuse path: Start again on grown slots, heaps and
// buffers), and each run on a fresh policy too: the bits must agree, and
// after every run each slot must be free again (none held by a completed
// job) and no more slots held than jobs in the system at once.
func TestLASMQReuseAcrossModes(t *testing.T) {
	reused := &LASMQ{}
	var rs, fs Simulator
	for i := range 3 * len(slotSpecs) {
		spec := slotSpecs[(i*7)%len(slotSpecs)]
		cfg := mustPolicy(t, spec).(*LASMQ)
		reused.K, reused.Alpha0, reused.P, reused.Weights, reused.Strict, reused.Order = cfg.K, cfg.Alpha0, cfg.P, cfg.Weights, cfg.Strict, cfg.Order
		run := slotRuns[i%len(slotRuns)]
		jobs := slotJobs(uint64(100+i), 50+(i*37)%600, cfg, run.c, i%3 == 0, run.absTime)
		a, err := rs.Run(jobs, run.c, reused)
		if err != nil {
			t.Fatal(err)
		}
		b, err := fs.Run(jobs, run.c, cfg)
		if err != nil {
			t.Fatal(err)
		}
		for j := range jobs {
			if math.Float64bits(a.Completion[j]) != math.Float64bits(b.Completion[j]) {
				t.Fatalf("run %d, %s: job %d completes at %v reused, %v fresh", i, spec, j, a.Completion[j], b.Completion[j])
			}
		}
		if free := slotsFree(reused); free != len(reused.sl) {
			t.Errorf("run %d, %s: %d of %d slots free after the run", i, spec, free, len(reused.sl))
		}
		if most := mostInSystem(jobs, a.Completion); len(reused.sl) > most {
			t.Errorf("run %d, %s: %d slots for at most %d jobs in the system", i, spec, len(reused.sl), most)
		}
	}
}

// mostInSystem is the most jobs in the system at once, a job counting from
// its arrival to its completion inclusive (a zero-size job counts at its
// instant; arrivals at a time count before the completions then).
func mostInSystem(jobs []Job, completion []float64) int {
	done := slices.Clone(completion)
	slices.Sort(done)
	most, in, k := 0, 0, 0
	for _, j := range jobs {
		for k < len(done) && done[k] < j.Arrival {
			k++
			in--
		}
		in++
		most = max(most, in)
	}
	return most
}

// TestLASMQHoldsJobsInSystem checks that a LAS_MQ run allocates per job of
// the run no more than the Simulator's two result slices: its own state
// is sized by the jobs in the system at once (the per-job arrays it held
// before took 12 to 28 bytes a job, 84 MB at 3 M jobs).
func TestLASMQHoldsJobsInSystem(t *testing.T) {
	const n = 1 << 16
	jobs := synthetic(n, 0.9, 0.5, 5)
	capped := slices.Clone(jobs)
	for i := range capped {
		if i%4 != 0 {
			capped[i].Cap = 0.05 + float64(i%7)/7
		}
	}
	for _, spec := range []string{"las_mq", "las_mq:k=10,alpha0=1,p=10,order=ps", "las_mq:k=10,alpha0=1,p=10,order=remaining", "las_mq:k=3,alpha0=1,p=10,order=ps"} {
		for _, js := range [][]Job{jobs, capped} {
			m := mustPolicy(t, spec).(*LASMQ)
			var s Simulator
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			r, err := s.Run(js, 1, m)
			runtime.ReadMemStats(&after)
			if err != nil {
				t.Fatal(err)
			}
			most := mostInSystem(js, r.Completion)
			got := after.TotalAlloc - before.TotalAlloc
			// Results, plus slots (32 B), heap entries (16 B), served
			// lists (16 B) and their bookkeeping, twice for growth.
			want := uint64(2*8*n + 2*64*most + 64<<10)
			t.Logf("%s, caps %v: %d B beyond the results (%d jobs at most in the system)", spec, js[1].Cap > 0, int64(got)-2*8*n, most)
			if got > want {
				t.Errorf("%s, caps %v: a run of %d jobs (at most %d in the system) allocated %d B, want at most %d", spec, js[1].Cap > 0, n, most, got, want)
			}
			if len(m.sl) > most {
				t.Errorf("%s: %d slots for at most %d jobs in the system", spec, len(m.sl), most)
			}
		}
	}
}

// BenchmarkLASMQWindow3M runs LAS_MQ on 3,000,000 synthetic jobs (Weibull
// 0.5 sizes, Poisson arrivals at load 0.9, as BenchmarkSynthetic1M), the
// size of validation's window at 10 M jobs, and reports the heap the
// policy holds after a run beyond the Simulator's results (policy-B/job)
// and its slots (the most jobs in the system at once).
func BenchmarkLASMQWindow3M(b *testing.B) {
	jobs := synthetic(3_000_000, 0.9, 0.5, 1)
	for _, spec := range []string{"las_mq", "las_mq:k=10,alpha0=1,p=10,order=ps", "las_mq:k=10,alpha0=1,p=10,order=remaining"} {
		b.Run(spec, func(b *testing.B) {
			var s Simulator
			if _, err := s.Run(jobs, 1, &instant{}); err != nil {
				b.Fatal(err)
			}
			var held uint64
			slots := 0
			for b.Loop() {
				m := mustPolicy(b, spec).(*LASMQ)
				var before, after runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&before)
				if _, err := s.Run(jobs, 1, m); err != nil {
					b.Fatal(err)
				}
				runtime.GC()
				runtime.ReadMemStats(&after)
				held = after.HeapAlloc - before.HeapAlloc
				slots = len(m.sl)
				runtime.KeepAlive(m)
			}
			b.ReportMetric(float64(held)/float64(len(jobs)), "policy-B/job")
			b.ReportMetric(float64(slots), "slots")
		})
	}
}
