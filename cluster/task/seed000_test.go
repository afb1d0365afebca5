package task

import (
	"math/rand/v2"
	"testing"
)

// table1 is seed 000's Table 1 (the private-testbed workload): per job
// type, its dataset size, map and reduce task counts and number of jobs
// (100 in all; the bins are by dataset size).
var table1 = []struct {
	name       string
	gb         float64
	maps, reds int
	jobs       int
}{
	{"TeraGen", 1, 100, 10, 3},
	{"SelfJoin", 1, 102, 10, 15},
	{"Classification", 10, 102, 20, 17},
	{"HistogramMovies", 10, 102, 20, 12},
	{"HistogramRatings", 10, 102, 20, 8},
	{"SequenceCount", 30, 234, 60, 16},
	{"InvertedIndex", 30, 234, 60, 19},
	{"WordCount", 100, 721, 80, 10},
}

// table1Jobs draws seed 000's experiment: the 100 jobs of Table 1 in
// random order, Poisson arrivals with mean gap 50 s (§5.2, Fig. 6), map
// tasks on 1 container and reduce tasks on 2 (§4), job weights (Fair
// priorities) uniform in 1..5 (§5.1, Baselines). The paper gives no task
// durations; here a task's mean duration grows with the data it handles
// (dataset / tasks): maps 2.9 s + 0.145 s/MB, reduces 7.2 s + 0.029 s/MB,
// with log-normal skew 0.5, which offers the 120 containers a load of
// about 1 (the 50 s gap is the paper's heavier load: Fig. 6 against Fig. 5).
func table1Jobs(seed uint64) []Job {
	rng := rand.New(rand.NewPCG(seed, 0))
	var shapes []Shape
	for _, w := range table1 {
		mb := w.gb * 1024
		mapS := 2.9 + 0.145*mb/float64(w.maps)
		redS := 7.2 + 0.029*mb/float64(w.reds)
		for range w.jobs {
			shapes = append(shapes, Shape{MapTasks: w.maps, ReduceTasks: w.reds,
				MapSeconds: float64(w.maps) * mapS, ReduceSeconds: float64(w.reds) * redS})
		}
	}
	rng.Shuffle(len(shapes), func(i, j int) { shapes[i], shapes[j] = shapes[j], shapes[i] })
	t := 0.0
	for i := range shapes {
		t += rng.ExpFloat64() * 50
		shapes[i].Arrival = t
		shapes[i].Weight = float64(1 + rng.IntN(5))
	}
	jobs, err := Synthesize(shapes, SynthOptions{Skew: 0.5, Seed: seed})
	if err != nil {
		panic(err)
	}
	return jobs
}

// Seed 000's shape (§5.2, Fig. 6: mean arrival gap 50 s on the private
// testbed of 4 machines × 30 containers = 120): mean response time
// LAS_MQ < Fair < FIFO, averaged over 10 workloads as the paper averages
// repeated experiments, with LAS_MQ at its defaults ("las_mq":
// DefaultLASMQ: k = 10, α_0 = 1 held container-second, p = 10, stage
// awareness, order by remaining containers, leftover shared evenly, no
// admission limit) and Fair sharing one pool by job priority.
func TestSeed000Shape(t *testing.T) {
	cl := Uniform(4, 30)
	specs := []string{"las_mq", "fair:pool=single", "fifo"}
	sum := make([]float64, len(specs))
	const runs = 10
	load, held := 0.0, 0
	for seed := uint64(1); seed <= runs; seed++ {
		jobs := table1Jobs(seed)
		work := 0.0
		for i := range jobs {
			work += jobs[i].Work()
		}
		load += work / (jobs[len(jobs)-1].Arrival * cl.Rate()) / runs
		var m []float64
		for i, spec := range specs {
			r := runSpec(t, jobs, cl, spec, Options{})
			m = append(m, mean(responses(jobs, r)))
			sum[i] += m[i] / runs
		}
		if m[0] < m[1] && m[1] < m[2] {
			held++
		}
	}
	t.Logf("offered load %.2f; mean response over %d workloads: las_mq %.0f s, fair %.0f s (%.2f× las_mq), fifo %.0f s (%.2f×); the order holds in %d of them",
		load, runs, sum[0], sum[1], sum[1]/sum[0], sum[2], sum[2]/sum[0], held)
	if !(sum[0] < sum[1] && sum[1] < sum[2]) {
		t.Errorf("mean responses %v (las_mq, fair, fifo), want increasing", sum)
	}
	// The band: Fig. 6(b) reports cuts of about 45% against Fair and 65%
	// against FIFO; this model's are smaller (6%, 18%: task durations are
	// not the paper's, docs/FIDELITY.md), and the test holds them to at
	// least 2% and 10%.
	if sum[1] < 1.02*sum[0] || sum[2] < 1.1*sum[0] {
		t.Errorf("mean responses %v (las_mq, fair, fifo): LAS_MQ's lead is below the band (2%% on Fair, 10%% on FIFO)", sum)
	}
}
