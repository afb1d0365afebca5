package pipeline

import (
	"math"
	"math/rand/v2"
	"runtime"
	"runtime/metrics"
	"slices"
	"testing"

	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/pipeline/bundle"
	"github.com/schedplan/schedplan/pipeline/inputs"
	"github.com/schedplan/schedplan/pipeline/tuner"
)

// replayPolicies are LAS_MQ configurations of every mode the replay can
// meet: each in-level order, strict priority (decay 0), weighted queues,
// one queue.
var replayPolicies = []tuner.LASMQParams{
	{K: 4, Alpha0: 0.5, P: 8, Decay: 0.5},
	{K: 4, Alpha0: 0.5, P: 8, Decay: 0},
	{K: 6, Alpha0: 0.1, P: 4, Decay: 0.3, Order: sim.OrderPS},
	{K: 3, Alpha0: 1, P: 10, Decay: 0.5, Order: sim.OrderRemaining},
	{K: 3, Alpha0: 1, P: 10, Decay: 0, Order: sim.OrderContainers},
	{K: 1, Order: sim.OrderPS},
}

// onePass is the replay as fluidPeaks ran it before it was chunked: every
// job at once, finish = response + arrival, and PeakApplications of all.
func onePass(t *testing.T, in *inputs.Inputs, n int, p *sim.LASMQ, user []int32, users int) ([]float64, []int) {
	t.Helper()
	jobs, err := in.Window(0, n)
	if err != nil {
		t.Fatal(err)
	}
	res, err := sim.Simulate(jobs, in.Capacity, p)
	if err != nil {
		t.Fatal(err)
	}
	finish := res.Response
	for i := range finish {
		finish[i] += in.Jobs.Submit[i]
	}
	return finish, bundle.PeakApplications(in.Jobs.Submit[:n], finish, user[:n], users)
}

// chunked runs r and returns its finishes, its peaks swept a chunk at a
// time (as fluidPeaks sweeps them) and the number of chunks.
func chunked(t *testing.T, r *peakReplay, arrival []float64, user []int32, users int) ([]float64, []int, int) {
	t.Helper()
	var finish []float64
	peak := make([]int, users)
	chunks := 0
	err := r.run(func(lo int, f []float64) {
		if lo != len(finish) {
			t.Fatalf("chunk at job %d after %d jobs", lo, len(finish))
		}
		finish = append(finish, f...)
		bundle.MaxPeakApplications(peak, arrival[lo:lo+len(f)], f, user[lo:lo+len(f)])
		chunks++
	})
	if err != nil {
		t.Fatal(err)
	}
	return finish, peak, chunks
}

// sameBits reports the first job whose finish differs in any bit (−1:
// none).
func sameBits(a, b []float64) int {
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return i
		}
	}
	return -1
}

// checkReplay compares the chunked replay of in's first n jobs (chunks of
// at least chunk jobs) with the one-pass one, for every replayPolicies
// configuration, and returns the most chunks a configuration was cut into.
func checkReplay(t *testing.T, in *inputs.Inputs, n, chunk int, user []int32, users int) int {
	t.Helper()
	most := 0
	for _, c := range replayPolicies {
		wantF, wantP := onePass(t, in, n, c.Policy(), user, users)
		r := newPeakReplay(in, n, c.Policy, chunk)
		gotF, gotP, chunks := chunked(t, r, in.Jobs.Submit, user, users)
		if i := sameBits(gotF, wantF); i >= 0 {
			t.Errorf("%v (%d chunks): job %d finishes at %v, the one-pass replay at %v", c, chunks, i, gotF[min(i, len(gotF)-1)], wantF[min(i, len(wantF)-1)])
		}
		if !slices.Equal(gotP, wantP) {
			t.Errorf("%v (%d chunks): peaks %v, the one-pass replay's %v", c, chunks, gotP, wantP)
		}
		most = max(most, chunks)
	}
	return most
}

// TestPeakReplayEmbeddedTrace: on the embedded trace's tuning window the
// chunked replay gives the one-pass replay's finishes and peaks to the bit.
func TestPeakReplayEmbeddedTrace(t *testing.T) {
	in, err := Prepare(testConfig())
	if err != nil {
		t.Fatal(err)
	}
	names, user := in.Jobs.Users()
	n := in.Split.TuneJobs
	if chunks := checkReplay(t, in, n, 64, user, len(names)); chunks < 2 {
		t.Errorf("the embedded trace's %d jobs replayed in %d chunk: no cut tested", n, chunks)
	}
}

// replayInputs are Inputs holding jobs (their arrivals the log's submit
// times) whose sizes column, which predicts the cuts, is sizes.
func replayInputs(jobs []sim.Job, sizes []float64, c float64) *inputs.Inputs {
	submit := make([]float64, len(jobs))
	for i, j := range jobs {
		submit[i] = j.Arrival
	}
	return &inputs.Inputs{Jobs: &data.Jobs{Source: "synthetic", Submit: submit}, Sizes: sizes, Capacity: c, SimJobs: jobs}
}

// synthReplay returns n jobs of Poisson arrivals (rate 1) with
// exponential sizes of mean load at capacity 1, a container count on the
// jobs before withContainers, and the users of 7.
func synthReplay(n int, load float64, withContainers int, seed uint64) ([]sim.Job, []float64, []int32) {
	rng := rand.New(rand.NewPCG(seed, 7))
	jobs, sizes, user := make([]sim.Job, n), make([]float64, n), make([]int32, n)
	t := 0.0
	for i := range jobs {
		t += rng.ExpFloat64()
		s := load * rng.ExpFloat64()
		jobs[i] = sim.Job{Arrival: t, Size: s, Estimate: s * math.Exp(rng.NormFloat64()/2), Weight: float64(1 + i%3)}
		if i < withContainers {
			jobs[i].Containers = float64(1 + rng.IntN(50))
		}
		sizes[i], user[i] = s, int32(rng.IntN(7))
	}
	return jobs, sizes, user
}

// TestPeakReplayChunks: the chunked replay gives the one-pass replay's
// bits on logs of many busy periods, of busy periods longer than a chunk
// (the chunk grows), of one long busy period (no cut: one chunk), with
// container counts on part of the log only (the containers order must
// not fall back to FIFO in a chunk without them), with rate caps (one
// chunk), and with every job done exactly when the next arrives (never
// empty, though a job's work ends at each arrival).
func TestPeakReplayChunks(t *testing.T) {
	many, manySizes, manyUsers := synthReplay(20000, 0.6, 20000, 1)
	heavy, heavySizes, heavyUsers := synthReplay(20000, 0.97, 20000, 6)
	long, longSizes, longUsers := synthReplay(5000, 3, 5000, 2)
	part, partSizes, partUsers := synthReplay(20000, 0.6, 3000, 3)
	capped := slices.Clone(many)
	capped[100].Cap = 0.5
	tight := make([]sim.Job, 3000)
	tightSizes, tightUsers := make([]float64, len(tight)), make([]int32, len(tight))
	for i := range tight {
		tight[i] = sim.Job{Arrival: float64(i), Size: 1, Estimate: 1}
		tightSizes[i], tightUsers[i] = 1, int32(i%2)
	}
	for _, tc := range []struct {
		name            string
		jobs            []sim.Job
		sizes           []float64
		user            []int32
		minChunks, most int
	}{
		{"many busy periods", many, manySizes, manyUsers, 100, 1 << 30},
		{"busy periods longer than a chunk", heavy, heavySizes, heavyUsers, 2, 1 << 30},
		{"one busy period", long, longSizes, longUsers, 1, 1},
		{"containers on part of the log", part, partSizes, partUsers, 2, 1 << 30},
		{"rate caps", capped, manySizes, manyUsers, 1, 1},
		{"completions at the next arrival", tight, tightSizes, tightUsers, 1, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := replayInputs(tc.jobs, tc.sizes, 1)
			chunks := checkReplay(t, in, len(tc.jobs), 200, tc.user, 7)
			if chunks < tc.minChunks || chunks > tc.most {
				t.Errorf("most chunks %d, want %d to %d", chunks, tc.minChunks, tc.most)
			}
		})
	}
}

// TestPeakReplayCutsOnBusyPeriods: every cut of the replay is at a busy
// period's start in the one-pass simulation (its jobs before the cut
// all complete before the next arrives), after at least half a chunk,
// and a log of many busy periods is cut about every chunk.
func TestPeakReplayCutsOnBusyPeriods(t *testing.T) {
	jobs, sizes, user := synthReplay(50000, 0.7, 0, 4)
	in := replayInputs(jobs, sizes, 1)
	r := newPeakReplay(in, len(jobs), replayPolicies[0].Policy, 1000)
	finish, _, chunks := chunked(t, r, in.Jobs.Submit, user, 7)
	if chunks < 50 || chunks > 100 {
		t.Errorf("%d chunks of 50,000 jobs simulated 1,000 at a time, want 50 to 100", chunks)
	}
	lo := 0
	err := r.run(func(k int, f []float64) {
		if k > 0 && slices.Max(finish[lo:k]) >= jobs[k].Arrival {
			t.Errorf("cut before job %d, which arrives at %v before the last finish %v", k, jobs[k].Arrival, slices.Max(finish[lo:k]))
		}
		if k > 0 && k-lo < r.chunk/2 {
			t.Errorf("chunk of %d jobs before job %d, fewer than %d", k-lo, k, r.chunk/2)
		}
		lo = k
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestFluidPeaksMemory: the peak applications' replay of 2^21 jobs
// (built from the log's columns, as in a run, where the simulation jobs
// are dropped) holds a chunk's jobs and simulation state at a time, not
// the whole window's: the live heap grows by less than 32 B a job
// (before: 64 B a job for the jobs and 60 more for the simulation,
// 0.26 GB here and 0.7 GB for the 10 M log's 7 M-job tuning window).
func TestFluidPeaksMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("2^21 jobs")
	}
	const n = 1 << 21
	jobs, sizes, user := synthReplay(n, 0.7, 0, 5)
	j := &data.Jobs{Source: "synthetic", Submit: make([]float64, n)}
	j.User.Values, j.User.Codes = []string{"a", "b", "c", "d", "e", "f", "g"}, user
	for i := range jobs {
		j.Submit[i] = jobs[i].Arrival
	}
	jobs = nil
	in := &inputs.Inputs{Jobs: j, Sizes: sizes, Capacity: 1}
	if err := in.BuildSimJobs(); err != nil {
		t.Fatal(err)
	}
	in.ReleaseSimJobs(0, 0) // as Run does: windows built from the columns
	names, userOfRow := in.Jobs.Users()
	p := &pipelineRun{in: in}
	p.tr.Best = tuner.LASMQParams{K: 4, Alpha0: 0.5, P: 8, Decay: 0.5, Order: sim.OrderPS}
	base, high := liveHeap(), uint64(0)
	stop, done := make(chan struct{}), make(chan struct{})
	go func() { // a collection after another: the live heap at every moment of the replay
		defer close(done)
		for {
			select {
			case <-stop:
				return
			default:
			}
			high = max(high, liveHeap())
		}
	}()
	peak, err := p.fluidPeaks(n, userOfRow, len(names))
	close(stop)
	<-done
	if err != nil {
		t.Fatal(err)
	}
	if slices.Max(peak) < 1 {
		t.Fatalf("peaks %v: the replay counted no application", peak)
	}
	grew := int64(high) - int64(base)
	t.Logf("live heap grew by %.1f MB during the replay of %d jobs", float64(grew)/1e6, n)
	if grew > 32*n {
		t.Errorf("live heap grew by %.1f MB during the replay of %d jobs (%.1f B a job), want < 32 B a job", float64(grew)/1e6, n, float64(grew)/n)
	}
}

// liveHeap is the live heap after a full collection.
func liveHeap() uint64 {
	runtime.GC()
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}
