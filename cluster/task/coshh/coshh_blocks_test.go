package coshh

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedplan/schedplan/cluster/task"
)

// Blocks are handed out local first: a job of 4 maps on 6 machines (3
// replicas each) gives node n a local block while one of its pending blocks
// has a replica there; Take reports locality exactly as HasLocal predicted.
func TestCOSHHBlocksLocalFirst(t *testing.T) {
	jobs := []task.Job{{Stages: []task.Stage{{Tasks: make([]task.TaskSpec, 4)}}}}
	for seed := uint64(1); seed <= 20; seed++ {
		b := NewCOSHHBlocks(jobs, 6, seed, nil)
		for k := range 4 {
			node := k % 2
			want := b.HasLocal(0, node)
			if got := b.Take(0, node); got != want {
				t.Fatalf("seed %d, map %d on node %d: Take local %v, HasLocal said %v", seed, k, node, got, want)
			}
		}
		if b.HasLocal(0, 0) || b.HasLocal(0, 5) {
			t.Fatalf("seed %d: blocks left after every map took one", seed)
		}
	}
	// Candidates restrict the replicas (COSHH's suggested machines): all
	// on machines 2, 3 and 4.
	b := NewCOSHHBlocks(jobs, 6, 1, func(dst []int, _ int) []int { return append(dst, 2, 3, 4) })
	if !b.HasLocal(0, 3) || b.HasLocal(0, 0) {
		t.Errorf("replicas outside the candidates")
	}
}

// A job's blocks are drawn as COSHHPlaceReplicas draws them one block at a
// time from the run's stream (candidates or not, fewer machines than
// replicas or not), and the draw allocates per job, not per block.
func TestCOSHHBlocksDraw(t *testing.T) {
	jobs := []task.Job{{Stages: []task.Stage{{Tasks: make([]task.TaskSpec, 7)}}}, {Stages: []task.Stage{{Tasks: make([]task.TaskSpec, 30)}}}}
	for _, machines := range []int{2, 3, 9} {
		for _, cands := range [][]int{nil, {1}, {0, 1}} {
			for seed := uint64(1); seed <= 10; seed++ {
				cand := func(dst []int, _ int) []int { return append(dst, cands...) }
				b := NewCOSHHBlocks(jobs, machines, seed, cand)
				rng := rand.New(rand.NewPCG(seed, 0xB10C5))
				for j := range jobs {
					b.HasLocal(j, 0)
					for k, got := range b.pending[j] {
						if want := COSHHPlaceReplicas(nil, cands, machines, COSHHReplication, rng); !slices.Equal(got, want) {
							t.Fatalf("%d machines, candidates %v, seed %d: job %d block %d on %v, want %v", machines, cands, seed, j, k, got, want)
						}
					}
				}
			}
		}
	}
	big := []task.Job{{Stages: []task.Stage{{Tasks: make([]task.TaskSpec, 500)}}}}
	allocs := testing.AllocsPerRun(5, func() { NewCOSHHBlocks(big, 50, 1, nil).HasLocal(0, 0) })
	if allocs > 100 {
		t.Errorf("drawing 500 blocks: %v allocations, want at most 100 (per job, not per block)", allocs)
	}
}

// The run's locality with Hadoop's preferences, on a case a random draw at
// task start cannot reach: jobs of 60 maps on 6 machines of 2 containers;
// blocks handed out local first make every scheduler's maps ≥ 90 % local,
// and FIFO's preference (a node-local map of any job first) 100 %.
// Fair's delay scheduling is not work-conserving, so the checker is told.
func TestCOSHHLocalityPreference(t *testing.T) {
	var jobs []task.Job
	for i := range 3 {
		st := task.Stage{}
		for range 60 {
			st.Tasks = append(st.Tasks, task.TaskSpec{Duration: 10, Containers: 1})
		}
		jobs = append(jobs, task.Job{Arrival: float64(i), User: "u", Stages: []task.Stage{st}})
	}
	cl := &task.Cluster{Types: []task.MachineType{{Name: "a", Count: 6, Containers: 2, ExecRate: 1}}}
	for _, tc := range []struct {
		name string
		p    task.Policy
		min  float64
	}{
		{"fifo", &task.FIFO{}, 90},
		{"fifo locality", &task.FIFO{LocalityPreference: true}, 100},
		{"fair delay", &task.Fair{Placement: task.PlaceByUser, LocalityDelay: 6}, 95},
	} {
		m, _, err := SimulateCOSHHMetrics(context.Background(), jobs, cl, tc.p, nil, 1, task.Options{Observer: &task.Checker{}})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !(m.Locality >= tc.min) {
			t.Errorf("%s: locality %.1f%%, want ≥ %.0f%%", tc.name, m.Locality, tc.min)
		}
	}
}

// FIFO's preference and Fair's delay by hand: two single-map jobs on two
// one-container machines; job 0's block is only on node 1, job 1's only
// on node 0 (a fixed oracle). Node 0 is offered first. FIFO without the
// preference gives node 0 to job 0 (both maps non-local); with it, to job
// 1 (both local). Fair with delay 1 passes job 0 over on node 0 and gives
// it node 1 (both local).
type fixedOracle map[[2]int]bool

func (o fixedOracle) HasLocal(job, node int) bool { return o[[2]int{job, node}] }

type nodeRecorder struct{ node map[int]int }

func (r *nodeRecorder) TaskStarted(_ *task.State, t task.TaskRef) { r.node[t.Job] = t.Node }
func (*nodeRecorder) TaskEnded(*task.State, task.TaskRef)         {}
func (*nodeRecorder) TaskKilled(*task.State, task.TaskRef)        {}
func (*nodeRecorder) Dispatched(*task.State)                      {}

func TestLocalityPickByHand(t *testing.T) {
	jobs := []task.Job{{Arrival: 0, User: "a", Stages: []task.Stage{{Tasks: []task.TaskSpec{{Duration: 1, Containers: 1}}}}},
		{Arrival: 0, User: "a", Stages: []task.Stage{{Tasks: []task.TaskSpec{{Duration: 1, Containers: 1}}}}}}
	cl := &task.Cluster{Types: []task.MachineType{{Name: "a", Count: 2, Containers: 1, ExecRate: 1}}}
	oracle := fixedOracle{{1, 0}: true, {0, 1}: true}
	fifo := &task.FIFO{}
	pref := &task.FIFO{LocalityPreference: true}
	fair := &task.Fair{Placement: task.PlaceInDefault, DefaultFIFO: true, LocalityDelay: 1}
	for _, tc := range []struct {
		name string
		p    interface {
			task.Policy
			SetLocality(task.LocalityOracle)
		}
		job0 int // node of job 0's map
	}{{"fifo", fifo, 0}, {"fifo locality", pref, 1}, {"fair delay", fair, 1}} {
		tc.p.SetLocality(oracle)
		rec := &nodeRecorder{node: map[int]int{}}
		var s task.Simulator
		if _, err := s.RunContext(context.Background(), jobs, cl, tc.p, task.Options{Observer: rec}); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if rec.node[0] != tc.job0 || rec.node[1] != 1-tc.job0 {
			t.Errorf("%s: job 0 on node %d, job 1 on node %d; want %d, %d", tc.name, rec.node[0], rec.node[1], tc.job0, 1-tc.job0)
		}
	}
}

// The §5.1 metrics at evaluation points: the mean of the instantaneous
// values at the Sample calls.
func TestCOSHHShareMetricsAtCompletions(t *testing.T) {
	m := NewCOSHHShareMetrics([]COSHHUser{{MinShare: 4, Weight: 1}, {MinShare: 0, Weight: 1}}, 0)
	if d, f, n := m.AtCompletions(); !math.IsNaN(d) || !math.IsNaN(f) || n != 0 {
		t.Errorf("no samples: %v %v %d", d, f, n)
	}
	m.Update(0, 0, 1, true) // dissatisfaction 0.75; Δ −3, 0: fairness 3
	m.Sample()
	m.Update(5, 0, 4, true) // 0; Δ 0, 0: 0
	m.Sample()
	if d, f, n := m.AtCompletions(); !coshhNear(d, 0.375) || !coshhNear(f, 1.5) || n != 2 {
		t.Errorf("at completions: dissatisfaction %v, fairness %v over %d, want 0.375, 1.5 over 2", d, f, n)
	}
}
