package sim

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/schedplan/schedplan/data"
)

// splitJobs is the embedded Facebook 2009 log as traceJobs reads it, with
// each job's container count as the paper's YARN plug-in finds it (§4:
// "examining the number of splits of the inputs"): one map per 128 MB
// block of input (§5.1's block size; at least one) on 1 container, and —
// the log gives no reduce count — one reduce per 128 MB of shuffle on 2.
func splitJobs(t *testing.T) []Job {
	jobs := traceJobs(t, 0)
	j, err := data.Open("embedded", data.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	const block = 128 << 20
	for i := range jobs {
		in, _ := j.InputBytes.At(i)
		sh, _ := j.ShuffleBytes.At(i)
		jobs[i].Containers = max(1, math.Ceil(float64(in)/block)) + 2*math.Ceil(float64(max(sh, 0))/block)
	}
	return jobs
}

// meanResponses returns the mean response of each specification on jobs at
// capacity 1, and a printable row of them.
func meanResponses(t *testing.T, jobs []Job, specs []string) ([]float64, string) {
	mean := make([]float64, len(specs))
	var row []string
	for i, spec := range specs {
		for _, v := range responses(t, jobs, 1, spec) {
			mean[i] += v / float64(len(jobs))
		}
		row = append(row, fmt.Sprintf("%s %.2f s", spec, mean[i]))
	}
	return mean, strings.Join(row, ", ")
}

// TestSeed000InQueueOrder is seed 000's claim for Alg. 1 line 10 (§3.3,
// §6: ordering the jobs of a queue by the containers of their remaining
// tasks "can also significantly improve the performance"), on the embedded
// Facebook 2009 log (sizes by the SWIM bytes rule at load 0.9, container
// counts from the bytes: splitJobs): Hu et al.'s default (k = 10, α_0 = 1,
// p = 10, order=containers) has a lower mean response than the same queues
// in FIFO order and than Fair (GPS), and the in-level order cuts the mean
// response by 20% to 80% against FIFO queues (the paper states no size;
// measured 65%, 71.5 s against 207.1 s).
func TestSeed000InQueueOrder(t *testing.T) {
	jobs := splitJobs(t)
	hu := DefaultLASMQ()
	fifo := *hu
	fifo.Order = OrderFIFO
	mean, row := meanResponses(t, jobs, []string{hu.Spec(), fifo.Spec(), "gps"})
	t.Logf("row: %d jobs, Hu et al.'s default and FIFO queues: %s; containers / fifo %.2f", len(jobs), row, mean[0]/mean[1])
	if !(mean[0] < mean[1] && mean[0] < mean[2]) {
		t.Errorf("mean responses %v (containers, fifo, gps): Alg. 1 line 10's order is not the lowest", mean)
	}
	if r := mean[0] / mean[1]; r < 0.2 || r > 0.8 {
		t.Errorf("containers / fifo %.2f outside the band [0.2, 0.8]", r)
	}
}

// TestSeed000Figure10a is seed 000's Fig. 10(a) (§5.4.1: trace-driven
// simulation at load 0.9, k = 10, p = 10, α_0 = 1): LAS best, LAS_MQ next
// and "around 30%" below Fair, FIFO far behind — here on the embedded
// Facebook 2009 log (the paper's is Facebook 2010, 24,443 jobs, not
// shipped), container counts from the bytes (splitJobs). The order holds
// with Hu et al.'s default; its cut against Fair is 5% (71.5 s against
// 75.2 s), held to at least 3%. What sets the size is the weights across
// queues, which the paper does not print: with equal weights (the
// default) the few largest jobs' queues get as much capacity as the
// first; with weights 0.8^i (decay=0.8) the cut is 29% (53.6 s) with LAS
// still best (49.1 s), as in Fig. 10(a); with 0.5^i (order by remaining
// work) it is 46%, below LAS. The test prints both and holds the decay-0.8
// row to a cut of 20% to 40% with LAS best, so a change that moves either
// fails.
func TestSeed000Figure10a(t *testing.T) {
	jobs := splitJobs(t)
	hu := DefaultLASMQ()
	weighted := *hu
	weighted.Weights, weighted.Strict = DecayWeights(hu.K, 0.8), false
	specs := []string{"las", hu.Spec(), weighted.Spec(), "gps", "fifo"}
	m, row := meanResponses(t, jobs, specs)
	t.Logf("row: Fig. 10(a) on %d jobs: %s; LAS_MQ default %.0f%% below GPS, with decay 0.8 %.0f%%", len(jobs), row, 100*(1-m[1]/m[3]), 100*(1-m[2]/m[3]))
	if !(m[0] < m[1] && m[1] < m[3] && m[3] < m[4]) {
		t.Errorf("mean responses %v (las, las_mq default, gps, fifo), want increasing", []float64{m[0], m[1], m[3], m[4]})
	}
	if cut := 1 - m[1]/m[3]; cut < 0.03 {
		t.Errorf("Hu et al.'s default is %.0f%% below GPS, want at least 3%%", 100*cut)
	}
	if cut := 1 - m[2]/m[3]; !(m[0] < m[2]) || cut < 0.2 || cut > 0.4 {
		t.Errorf("decay 0.8: %.2f s, %.0f%% below GPS; want LAS (%.2f s) best and a cut of 20%% to 40%%", m[2], 100*cut, m[0])
	}
}
