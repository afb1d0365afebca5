package coshh

import (
	"context"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/schedplan/schedplan/cluster/task"
)

// scanFIFO is FIFO with its oracle stripped of LocalIndex: the scan in
// queue order that FIFO's index replaces.
type scanFIFO struct{ *task.FIFO }

type oracleOnly struct{ task.LocalityOracle }

func (p scanFIFO) SetLocality(l task.LocalityOracle) { p.FIFO.SetLocality(oracleOnly{l}) }

// countingIndex counts the HasLocal calls made on a LocalIndex.
type countingIndex struct {
	task.LocalIndex
	calls int
}

func (c *countingIndex) HasLocal(job, node int) bool {
	c.calls++
	return c.LocalIndex.HasLocal(job, node)
}

// indexInstance is a random instance for FIFO's index: jobs of one to
// three stages whose tasks need 1 to maxC containers (so that a first-
// stage task may not fit where a later one does), bursts of arrivals, on
// machines of 3, 4 and 5 containers.
func indexInstance(seed uint64, n, maxC int) ([]task.Job, *task.Cluster) {
	cl := &task.Cluster{Types: []task.MachineType{{Name: "a", Count: 4, Containers: 3, ExecRate: 1},
		{Name: "b", Count: 3, Containers: 5, ExecRate: 2}, {Name: "c", Count: 2, Containers: 4, ExecRate: 1.5}}}
	rng := rand.New(rand.NewPCG(seed, 7))
	jobs := make([]task.Job, n)
	at := 0.0
	for i := range jobs {
		if rng.IntN(4) > 0 {
			at += rng.ExpFloat64() * 3
		}
		j := task.Job{Arrival: at, User: fmt.Sprintf("u%d", rng.IntN(3))}
		for range 1 + rng.IntN(3) {
			st := task.Stage{Tasks: make([]task.TaskSpec, 1+rng.IntN(12))}
			c := 1 + rng.IntN(maxC)
			for k := range st.Tasks {
				if rng.IntN(3) == 0 {
					c = 1 + rng.IntN(maxC)
				}
				st.Tasks[k] = task.TaskSpec{Duration: 0.3 + rng.Float64()*8, Containers: c}
			}
			j.Stages = append(j.Stages, st)
		}
		jobs[i] = j
	}
	return jobs, cl
}

// FIFO's locality index picks as the scan in queue order does, and asks
// HasLocal of the same jobs in the same order (the blocks' draws follow
// the calls): runs with the index and with the scan give the same
// completions, first starts and locality, over random instances at events
// and at heartbeats, with slow start on and off.
func TestFIFOIndexMatchesScan(t *testing.T) {
	for seed := uint64(1); seed <= 120; seed++ {
		jobs, cl := indexInstance(seed, 40+int(seed%5)*20, 1+int(seed%3))
		if seed%3 == 0 {
			cl.Heartbeat = 0.5
		}
		opt := task.Options{SlowStart: []float64{0, 0.05, 0.5, 1}[seed%4]}
		run := func(p task.Policy) (*COSHHRunMetrics, *task.Result) {
			c := task.NewChecker(p)
			o := opt
			o.Observer = c
			m, r, err := SimulateCOSHHMetrics(context.Background(), jobs, cl, p, nil, seed, o)
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			if err := c.Finish(jobs, r); err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			return m, r
		}
		mi, ri := run(&task.FIFO{LocalityPreference: true})
		ms, rs := run(scanFIFO{&task.FIFO{LocalityPreference: true}})
		if !reflect.DeepEqual(ri.Completion, rs.Completion) || !reflect.DeepEqual(ri.FirstStart, rs.FirstStart) || ri.Decisions != rs.Decisions {
			t.Fatalf("seed %d: index and scan runs differ: completions %v vs %v", seed, ri.Completion, rs.Completion)
		}
		if mi.Locality != ms.Locality || !reflect.DeepEqual(mi.JobLocality, ms.JobLocality) {
			t.Fatalf("seed %d: locality %v%% with the index, %v%% with the scan", seed, mi.Locality, ms.Locality)
		}
	}
}

// With the index, HasLocal is asked at most once per job (to place its
// blocks), not once per queued job ahead at each pick: a backlog of 300
// jobs of 20 maps on 8 machines, which the scan asks tens of thousands of
// times.
func TestFIFOIndexAsksHasLocalOncePerJob(t *testing.T) {
	cl := &task.Cluster{Types: []task.MachineType{{Name: "a", Count: 8, Containers: 2, ExecRate: 1}}}
	jobs := make([]task.Job, 300)
	for i := range jobs {
		jobs[i] = mrJob(20, 1+float64(i%7), 2)
	}
	ci := &countingIndex{LocalIndex: NewCOSHHBlocks(jobs, cl.Nodes(), 1, nil)}
	f := &task.FIFO{LocalityPreference: true}
	f.SetLocality(ci)
	obs := &COSHHObserver{Blocks: ci.LocalIndex.(*COSHHBlocks)}
	if _, err := task.Simulate(jobs, cl, f, task.Options{Observer: obs}); err != nil {
		t.Fatal(err)
	}
	if ci.calls > len(jobs) {
		t.Errorf("HasLocal asked %d times for %d jobs, want at most one per job", ci.calls, len(jobs))
	}
}

// mrJob is a job at time 0 of maps map tasks of mapDur and reds reduce
// tasks of 1 s, every task of one container.
func mrJob(maps int, mapDur float64, reds int) task.Job {
	j := task.Job{Stages: []task.Stage{{Tasks: make([]task.TaskSpec, maps)}, {Tasks: make([]task.TaskSpec, reds)}}}
	for i := range j.Stages[0].Tasks {
		j.Stages[0].Tasks[i] = task.TaskSpec{Duration: mapDur, Containers: 1}
	}
	for i := range j.Stages[1].Tasks {
		j.Stages[1].Tasks[i] = task.TaskSpec{Duration: 1, Containers: 1}
	}
	return j
}
