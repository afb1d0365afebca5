package bundle

import (
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
)

// peakApplicationsSweep is PeakApplications as it was: one sweep of all
// arrivals against every finish, comparison-sorted.
func peakApplicationsSweep(arrival, finish []float64, user []int32, users int) []int {
	type end struct {
		t    float64
		user int32
	}
	var ends []end
	var order []int32
	for i, a := range arrival {
		if i >= len(finish) || i >= len(user) || user[i] < 0 || int(user[i]) >= users {
			continue
		}
		ends = append(ends, end{max(finish[i], a), user[i]})
		order = append(order, int32(i))
	}
	sort.Slice(ends, func(a, b int) bool { return ends[a].t < ends[b].t })
	if !sort.SliceIsSorted(order, func(a, b int) bool { return arrival[order[a]] < arrival[order[b]] }) {
		sort.SliceStable(order, func(a, b int) bool { return arrival[order[a]] < arrival[order[b]] })
	}
	now, peak := make([]int, users), make([]int, users)
	e := 0
	for _, i := range order {
		for ; e < len(ends) && ends[e].t <= arrival[i]; e++ {
			now[ends[e].user]--
		}
		now[user[i]]++
		peak[user[i]] = max(peak[user[i]], now[user[i]])
	}
	return peak
}

// PeakApplications per user equals the sweep over all users, on logs in
// and out of arrival order, with ties, instant and out-of-range jobs.
func TestPeakApplicationsMatchesSweep(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 30))
	for trial := range 300 {
		n, users := rng.IntN(400), 1+rng.IntN(6)
		arrival, finish, user := make([]float64, n), make([]float64, n), make([]int32, n)
		for i := range n {
			arrival[i] = float64(rng.IntN(50)) // ties
			finish[i] = arrival[i] + float64(rng.IntN(20)) - 2
			user[i] = int32(rng.IntN(users+1)) - int32(trial%2) // some out of range
		}
		if trial%3 == 0 {
			slices.Sort(arrival)
		}
		got, want := PeakApplications(arrival, finish, user, users), peakApplicationsSweep(arrival, finish, user, users)
		if !slices.Equal(got, want) {
			t.Fatalf("trial %d: %v, want %v", trial, got, want)
		}
	}
}

func BenchmarkPeakApplications(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n, users = 7_000_000, 20
	arrival, finish, user := make([]float64, n), make([]float64, n), make([]int32, n)
	t := 0.0
	for i := range n {
		t += rng.ExpFloat64()
		arrival[i], finish[i], user[i] = t, t+100*rng.ExpFloat64(), int32(rng.IntN(users))
	}
	for _, bc := range []struct {
		name string
		f    func([]float64, []float64, []int32, int) []int
	}{{"byUser", PeakApplications}, {"sweep", peakApplicationsSweep}} {
		b.Run(bc.name, func(b *testing.B) {
			for range b.N {
				bc.f(arrival, finish, user, users)
			}
		})
	}
}
