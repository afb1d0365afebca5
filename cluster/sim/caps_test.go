package sim

import (
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
)

func TestCapsHandCases(t *testing.T) {
	type job struct{ a, s, w, k float64 }
	for _, tc := range []struct {
		name, spec string
		jobs       []job
		want       []float64
	}{
		// A takes its cap 0.5, B the other 0.5: B ends at 2; A alone at 0.5.
		{"fifo water-fill", "fifo", []job{{0, 2, 1, 0.5}, {0, 1, 1, 0}}, []float64{4, 2}},
		// B finishes first though it is behind A; then C gets 0.75.
		{"fifo out of order", "fifo", []job{{0, 2, 1, 0.25}, {0, 0.5, 1, 0.5}, {0, 1, 1, 0}}, []float64{8, 1, 2}},
		// A capped at 0.2 < 1/2: B gets 0.8; at 5 A is done, B has 1 left.
		{"ps", "ps", []job{{0, 1, 1, 0.2}, {0, 5, 1, 0}}, []float64{5, 6}},
		// A (weight 3) would get 3/4 but is capped at 0.5.
		{"gps", "gps", []job{{0, 1, 3, 0.5}, {0, 3, 1, 0}}, []float64{2, 4}},
		// All capped below capacity: capacity idles.
		{"ps idle", "ps", []job{{0, 1, 1, 0.25}, {0, 1, 1, 0.25}}, []float64{4, 4}},
	} {
		jobs := make([]Job, len(tc.jobs))
		for i, j := range tc.jobs {
			jobs[i] = Job{Arrival: j.a, Size: j.s, Estimate: j.s, Weight: j.w, Cap: j.k}
		}
		got := responses(t, jobs, 1, tc.spec)
		for i := range got {
			if !close(got[i], tc.want[i], 1e-12) {
				t.Errorf("%s: responses %v, want %v", tc.name, got, tc.want)
				break
			}
		}
	}
	_, err := Simulate([]Job{{Size: 1, Estimate: 1, Cap: 0.5}}, 1, &SRPT{})
	if err == nil || !strings.Contains(err.Error(), "rate caps") {
		t.Errorf("srpt with caps: %v", err)
	}
}

// naiveCapped simulates FIFO or (G)PS with caps by recomputing every rate
// at every event (O(n) per event): the reference for the fast versions.
func naiveCapped(jobs []Job, c float64, fifo, weighted bool) []float64 {
	n := len(jobs)
	rem := make([]float64, n)
	done := make([]float64, n)
	active := []int{}
	now, next := 0.0, 0
	w := func(j int) float64 {
		if weighted && jobs[j].Weight > 0 {
			return jobs[j].Weight
		}
		return 1
	}
	capOf := func(j int) float64 {
		if jobs[j].Cap > 0 {
			return jobs[j].Cap
		}
		return math.Inf(1)
	}
	rates := func() []float64 {
		r := make([]float64, len(active))
		if fifo {
			left := c
			for i, j := range active {
				r[i] = math.Min(capOf(j), left)
				left -= r[i]
			}
			return r
		}
		// Water-filling: raise θ; jobs reach their caps in key order.
		idx := make([]int, len(active))
		for i := range idx {
			idx[i] = i
		}
		sort.Slice(idx, func(a, b int) bool {
			return capOf(active[idx[a]])/w(active[idx[a]]) < capOf(active[idx[b]])/w(active[idx[b]])
		})
		left, sw := c, 0.0
		for _, i := range idx {
			sw += w(active[i])
		}
		for _, i := range idx {
			j := active[i]
			if capOf(j) < w(j)*left/sw {
				r[i] = capOf(j)
				left -= r[i]
				sw -= w(j)
			} else {
				r[i] = w(j) * left / sw
			}
		}
		// Jobs after the first uncapped one share the final level.
		th := math.Inf(1)
		if sw > 0 {
			th = left / sw
		}
		for _, i := range idx {
			j := active[i]
			if capOf(j) >= w(j)*th {
				r[i] = w(j) * th
			}
		}
		return r
	}
	for next < n || len(active) > 0 {
		for next < n && jobs[next].Arrival <= now {
			active = append(active, next)
			rem[next] = jobs[next].Size
			next++
		}
		r := rates()
		dt := math.Inf(1)
		if next < n {
			dt = jobs[next].Arrival - now
		}
		for i, j := range active {
			if r[i] > 0 {
				dt = math.Min(dt, rem[j]/r[i])
			}
		}
		now += dt
		kept := active[:0]
		for i, j := range active {
			rem[j] -= r[i] * dt
			if r[i] > 0 && rem[j] <= 1e-9*jobs[j].Size { // served (zero-size jobs wait to be reached)
				done[j] = now
			} else {
				kept = append(kept, j)
			}
		}
		active = kept
	}
	return done
}

func TestCapsMatchNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for inst := 0; inst < 40; inst++ {
		c := []float64{1, 4}[inst%2]
		jobs := randomJobs(rng, 30+rng.IntN(60), c, 0)
		for i := range jobs {
			if rng.IntN(4) != 0 {
				jobs[i].Cap = c * math.Pow(10, -2*rng.Float64()) // 1% .. 100% of C
			}
		}
		for _, tc := range []struct {
			spec           string
			fifo, weighted bool
		}{{"fifo", true, false}, {"ps", false, false}, {"gps", false, true}} {
			r, err := Simulate(jobs, c, mustPolicy(t, tc.spec))
			if err != nil {
				t.Fatalf("instance %d %s: %v", inst, tc.spec, err)
			}
			want := naiveCapped(jobs, c, tc.fifo, tc.weighted)
			for i := range jobs {
				if !close(r.Completion[i], want[i], 1e-7) {
					t.Errorf("instance %d %s: job %d completes at %v, naive %v", inst, tc.spec, i, r.Completion[i], want[i])
					break
				}
				if lo := jobs[i].Arrival + jobs[i].Size/math.Min(c, capOrInf(jobs[i].Cap)); r.Completion[i] < lo*(1-1e-9)-1e-9 {
					t.Errorf("instance %d %s: job %d faster than its cap allows", inst, tc.spec, i)
				}
			}
		}
		// Caps of at least the capacity change nothing.
		big := append([]Job(nil), jobs...)
		for i := range big {
			big[i].Cap = 2 * c
		}
		for _, spec := range []string{"fifo", "ps", "gps"} {
			a, _ := Simulate(big, c, mustPolicy(t, spec))
			none := append([]Job(nil), jobs...)
			for i := range none {
				none[i].Cap = 0
			}
			b, _ := Simulate(none, c, mustPolicy(t, spec))
			for i := range jobs {
				if !close(a.Completion[i], b.Completion[i], 1e-9) {
					t.Errorf("instance %d %s: caps ≥ C change job %d: %v vs %v", inst, spec, i, a.Completion[i], b.Completion[i])
					break
				}
			}
		}
	}
}

func capOrInf(k float64) float64 {
	if k > 0 {
		return k
	}
	return math.Inf(1)
}

func TestLASMQCapsHand(t *testing.T) {
	for _, tc := range []struct {
		spec string
		jobs []Job
		want []float64
	}{
		{"las_mq:k=2,alpha0=1,strict=true", []Job{{Arrival: 0, Size: 2, Cap: 0.5}, {Arrival: 0, Size: 1, Cap: 0.5}}, []float64{4, 2}},
		// From t=1 the queues get 1/2 each; B (cap 0.2) leaves 0.3 of
		// queue 0's share, which goes to A in queue 1 (0.8 in all).
		{"las_mq:k=2,alpha0=1", []Job{{Arrival: 0, Size: 3}, {Arrival: 1, Size: 1, Cap: 0.2}}, []float64{3.5, 5}},
	} {
		for i := range tc.jobs {
			tc.jobs[i].Estimate = tc.jobs[i].Size
		}
		got := responses(t, tc.jobs, 1, tc.spec)
		for i := range got {
			if !close(got[i], tc.want[i], 1e-12) {
				t.Errorf("%s: responses %v, want %v", tc.spec, got, tc.want)
				break
			}
		}
	}
}

// naiveLASMQ simulates LAS_MQ (with or without caps, any in-level order)
// with queues as slices in entry order, recomputing every rate at every
// event: each queue's share, capped at what its jobs can use; the leftover
// to the queues in priority order; each queue's total water-filled over its
// jobs in the queue's order (FIFO: entry; remaining: least estimate −
// attained, ties to the lower index; PS: max-min fair by weight).
func naiveLASMQ(jobs []Job, c float64, m *LASMQ) []float64 {
	n := len(jobs)
	thr := m.Thresholds()
	w := m.Weights
	if w == nil {
		w = make([]float64, m.K)
		for i := range w {
			w[i] = 1
		}
	}
	att := make([]float64, n)
	done := make([]float64, n)
	queues := make([][]int, m.K)
	queueOf := func(a float64) int {
		q := 0
		for q < m.K-1 && a >= thr[q]*(1-Tol) {
			q++
		}
		return q
	}
	capOf := func(j int) float64 {
		if jobs[j].Cap > 0 {
			return jobs[j].Cap
		}
		return math.Inf(1)
	}
	jw := func(j int) float64 {
		if jobs[j].Weight > 0 {
			return jobs[j].Weight
		}
		return 1
	}
	now, next, active := 0.0, 0, 0
	for next < n || active > 0 {
		for next < n && jobs[next].Arrival <= now {
			q := queueOf(0)
			queues[q] = append(queues[q], next)
			next++
			active++
		}
		share := make([]float64, m.K)
		sum, first := 0.0, -1
		for q := range queues {
			if len(queues[q]) > 0 {
				if first < 0 {
					first = q
				}
				sum += w[q]
			}
		}
		if first >= 0 {
			if m.Strict || sum == 0 {
				share[first] = c
			} else {
				for q := range queues {
					if len(queues[q]) > 0 {
						share[q] = c * w[q] / sum
					}
				}
			}
		}
		capSum := make([]float64, m.K)
		leftover := 0.0
		for q := range queues {
			for _, j := range queues[q] {
				capSum[q] += capOf(j)
			}
			used := math.Min(share[q], capSum[q])
			leftover += share[q] - used
			share[q] = used
		}
		rate := map[int]float64{}
		for q := range queues {
			if leftover > 0 {
				add := math.Min(leftover, capSum[q]-share[q])
				share[q] += add
				leftover -= add
			}
			order := append([]int(nil), queues[q]...)
			left := share[q]
			switch m.Order {
			case OrderPS:
				sort.SliceStable(order, func(a, b int) bool { return capOf(order[a])/jw(order[a]) < capOf(order[b])/jw(order[b]) })
				sw := 0.0
				for _, j := range order {
					sw += jw(j)
				}
				for i, j := range order {
					if capOf(j) < jw(j)*left/sw {
						rate[j] = capOf(j)
						left -= capOf(j)
						sw -= jw(j)
						continue
					}
					theta := left / sw
					for _, k := range order[i:] {
						rate[k] = jw(k) * theta
					}
					break
				}
				continue
			case OrderRemaining:
				sort.SliceStable(order, func(a, b int) bool {
					ka, kb := jobs[order[a]].Estimate-att[order[a]], jobs[order[b]].Estimate-att[order[b]]
					return ka < kb || (ka == kb && order[a] < order[b])
				})
			}
			for _, j := range order {
				r := math.Min(capOf(j), left)
				rate[j] = r
				left -= r
			}
		}
		dt := math.Inf(1)
		if next < n {
			dt = jobs[next].Arrival - now
		}
		for q := range queues {
			for _, j := range queues[q] {
				if r := rate[j]; r > 0 {
					to := jobs[j].Size
					if q < m.K-1 {
						to = math.Min(to, thr[q])
					}
					dt = math.Min(dt, (to-att[j])/r)
				}
			}
		}
		now += math.Max(dt, 0)
		for j, r := range rate {
			att[j] += r * dt
		}
		for q := range queues {
			kept := queues[q][:0]
			var moved []int
			for _, j := range queues[q] {
				if rate[j] > 0 && jobs[j].Size-att[j] <= 1e-9*jobs[j].Size {
					done[j] = now
					active--
				} else if nq := queueOf(att[j]); nq > q {
					moved = append(moved, j)
				} else {
					kept = append(kept, j)
				}
			}
			queues[q] = kept
			for _, j := range moved {
				nq := queueOf(att[j])
				queues[nq] = append(queues[nq], j)
			}
		}
	}
	return done
}
