package hpfsp

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// slkUpdate is Alg. 1's update as HPFSP makes it: UpdateInPlace, or when
// it declines, Serve, AdvanceVirtual (if advance: eq. 8; else the virtual
// PS runs at the cluster's rate, vps=busy) and Reestimate.
func slkUpdate(x *SlackSystem, job int, work, w float64, advance bool) (bool, error) {
	done, err := x.UpdateInPlace(job, work, w, advance)
	if err != nil || done {
		return done, err
	}
	if work > 0 {
		if err := x.Serve(job, work); err != nil {
			return false, err
		}
	}
	if advance {
		if err := x.AdvanceVirtual(work); err != nil {
			return false, err
		}
	}
	return false, x.Reestimate(job, w)
}

// slkSame compares the fast system x with the exact one y (noInPlace):
// the same jobs in the same states, w and v within tol, the same slacks
// and slacks ahead within tol, the same best completable job and pick.
func slkSame(t *testing.T, x, y *SlackSystem, tol float64, where string) bool {
	t.Helper()
	if x.Len() != y.Len() {
		t.Errorf("%s: %d jobs in the virtual PS, exact %d", where, x.Len(), y.Len())
		return false
	}
	near := func(a, b float64) bool { return a == b || math.Abs(a-b) <= tol }
	for k := range x.js {
		xj, yj := &x.js[k], &y.js[k]
		if xj.state != yj.state {
			t.Errorf("%s: job %d state %d, exact %d", where, k, xj.state, yj.state)
			return false
		}
		if xj.state == slkAbsent {
			continue
		}
		if !near(xj.w, yj.w) || !near(x.VirtualRemaining(k), y.VirtualRemaining(k)) {
			t.Errorf("%s: job %d w %v v %v, exact %v %v", where, k, xj.w, x.VirtualRemaining(k), yj.w, y.VirtualRemaining(k))
			return false
		}
		if xj.state != slkPS && xj.state != slkPSDone {
			continue
		}
		if a, b := x.Slack(k), y.Slack(k); !near(a, b) {
			t.Errorf("%s: job %d slack %v, exact %v", where, k, a, b)
			return false
		}
		if a, b := x.SlackAhead(k), y.SlackAhead(k); !near(a, b) {
			t.Errorf("%s: job %d slack ahead %v, exact %v", where, k, a, b)
			return false
		}
	}
	if a, _ := x.BestCompletable(); true {
		if b, _ := y.BestCompletable(); a != b {
			t.Errorf("%s: best completable %d, exact %d", where, a, b)
			return false
		}
	}
	xa, xr := x.Next()
	ya, yr := y.Next()
	if xa != ya || xr != yr {
		t.Errorf("%s: next %d (%v), exact %d (%v)", where, xa, xr, ya, yr)
		return false
	}
	return true
}

// The in-place re-estimate (moveInPlace), the one-descent update
// (UpdateInPlace) and the one-pass report (UpdateAll) give the slacks, order and picks of the exact treap moves
// (three splits and two merges per re-estimate) to 1e-9 of Σv + Σw, on
// random instances whose updates move jobs by a little (in place) and by
// a lot (past their neighbours) or only serve them, with the virtual PS
// advanced by the service or not (vps=busy), reports of most running jobs, with arrivals, finishes and late jobs.
func TestSlackSystemInPlaceMatchesExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 2026))
	inPlace, updates, reports, batched, split := 0, 0, 0, 0, 0
	for inst := 0; inst < 60; inst++ {
		n := 20 + rng.IntN(200)
		cfg := SlackConfig{FairLimit: inst % 3, LateFirst: inst%4 == 1, Fallback: inst%2 == 0}
		x, err := NewSlackSystem(cfg, n)
		if err != nil {
			t.Fatal(err)
		}
		y, _ := NewSlackSystem(cfg, n)
		y.noInPlace = true
		added := 0
		both := func(f func(s *SlackSystem) error) error {
			if err := f(x); err != nil {
				return err
			}
			return f(y)
		}
		for step := 0; step < 15*n; step++ {
			var err error
			desc := ""
			op := rng.IntN(100)
			k := rng.IntN(max(added, 1))
			st := y.js[k].state
			running := added > 0 && (st == slkPS || st == slkLate)
			switch {
			case op < 10 && added < n:
				e := math.Exp(2 * rng.NormFloat64())
				desc = fmt.Sprintf("add job %d (%v)", added, e)
				err = both(func(s *SlackSystem) error {
					if err := s.AddJob(added, e, 2); err != nil {
						return err
					}
					return s.SetRunnable(added, true)
				})
				added++
			case op < 70 && running:
				w0 := y.js[k].w
				work := w0 * 0.05 * rng.Float64()
				w := (w0 - work) * math.Exp(0.01*rng.NormFloat64())
				switch rng.IntN(5) {
				case 0:
					w = (w0 - work) * math.Exp(rng.NormFloat64()) // past its neighbours
				case 1:
					w = math.Max(w0-work, 0) // service only
				case 2:
					work, w = 0, w0 // neither (a task start)
				}
				adv := rng.IntN(4) != 0
				desc = fmt.Sprintf("update job %d: work %v, w %v → %v, advance %v", k, work, w0, w, adv)
				var done bool
				if done, err = slkUpdate(x, k, work, w, adv); err == nil {
					_, err = slkUpdate(y, k, work, w, adv)
				}
				updates++
				if done {
					inPlace++
				}
			case op < 76 && running:
				// A report: most running jobs at once.
				// Sometimes with much service, so that jobs leave the
				// virtual PS during it.
				var jobs []int32
				var works, ws []float64
				big := []float64{0.02, 0.02, 0.02, 0.02, 0.5}[rng.IntN(5)]
				for j := range added {
					if s := y.js[j].state; (s == slkPS || s == slkLate) && rng.IntN(4) != 0 {
						w0 := y.js[j].w
						work := w0 * big * rng.Float64()
						jobs = append(jobs, int32(j))
						works = append(works, work)
						ws = append(ws, (w0-work)*math.Exp(0.02*rng.NormFloat64()))
					}
				}
				desc = fmt.Sprintf("report of %d jobs", len(jobs))
				var done int
				if done, err = x.UpdateAll(jobs, works, ws, true); err == nil {
					for i := done; i < len(jobs) && err == nil; i++ {
						_, err = slkUpdate(x, int(jobs[i]), works[i], ws[i], true)
					}
				}
				for i, j := range jobs {
					if err == nil {
						_, err = slkUpdate(y, int(j), works[i], ws[i], true)
					}
				}
				reports++
				if done > 0 {
					batched++
				}
				if done > 0 && done < len(jobs) {
					split++
				}
			case op < 80 && running:
				w := y.js[k].w * math.Exp(0.3*rng.NormFloat64())
				desc = fmt.Sprintf("re-estimate job %d to %v", k, w)
				err = both(func(s *SlackSystem) error { return s.Reestimate(k, w) })
			case op < 85 && running:
				desc = fmt.Sprintf("finish job %d", k)
				err = both(func(s *SlackSystem) error { return s.Finish(k) })
			case op < 92 && running:
				b := rng.IntN(2) == 0
				desc = fmt.Sprintf("job %d runnable %v", k, b)
				err = both(func(s *SlackSystem) error { return s.SetRunnable(k, b) })
			default:
				work := 0.2 * rng.ExpFloat64()
				desc = fmt.Sprintf("advance %v", work)
				err = both(func(s *SlackSystem) error { return s.AdvanceVirtual(work) })
			}
			if err != nil {
				t.Fatalf("instance %d step %d (%s): %v", inst, step, desc, err)
			}
			scale := 1e-300
			for j := range y.js {
				if s := y.js[j].state; s == slkPS || s == slkPSDone {
					scale += y.VirtualRemaining(j) + y.js[j].w
				}
			}
			where := fmt.Sprintf("instance %d step %d (%s)", inst, step, desc)
			if !slkSame(t, x, y, 1e-9*scale, where) || !slkCheckTree(t, x, where) || !slkCheckTree(t, y, where) {
				return
			}
		}
	}
	// The fast path must be the common one, else this test tests nothing.
	if inPlace < updates/8 {
		t.Errorf("%d of %d updates in place, want at least an eighth", inPlace, updates)
	}
	if batched < reports/5 || split == 0 {
		t.Errorf("%d of %d reports in one pass (%d cut where a job leaves), want at least a fifth and some cut", batched, reports, split)
	}
	t.Logf("%d of %d updates in one descent, %d of %d reports in one pass (%d cut where a job leaves)", inPlace, updates, batched, reports, split)
}

// A re-estimate within the job's tolerance (sim.Tol of its size) of its
// served w is rounding and is not made, by UpdateInPlace or UpdateAll: the
// job keeps its tag and w is the served one; one just above it moves the
// tag by the change.
func TestUpdateInPlaceSkipsRounding(t *testing.T) {
	for _, tc := range []struct {
		name  string
		delta float64 // re-estimate − served w, in units of the tolerance
		moved bool
	}{
		{"equal", 0, false},
		{"rounding up", 0.5, false},
		{"rounding down", -1, false},
		{"above the tolerance", 2, true},
		{"below minus the tolerance", -2, true},
	} {
		for _, all := range []bool{false, true} {
			where := fmt.Sprintf("%s (UpdateAll %v)", tc.name, all)
			x, err := NewSlackSystem(SlackConfig{}, 3)
			if err != nil {
				t.Fatal(err)
			}
			for j, e := range []float64{100, 200, 300} {
				slkMust(t, x.AddJob(j, e, 1))
			}
			tol := x.js[1].tol()
			t0, ws := x.js[1].t, x.js[1].w-10
			w := ws + tc.delta*tol
			var done bool
			if all {
				var n int
				n, err = x.UpdateAll([]int32{1}, []float64{10}, []float64{w}, true)
				done = n == 1
			} else {
				done, err = x.UpdateInPlace(1, 10, w, true)
			}
			if err != nil || !done {
				t.Fatalf("%s: %v, %v", where, done, err)
			}
			wantW, wantT := ws, t0
			if tc.moved {
				wantW, wantT = w, t0+tc.delta*tol
			}
			if got := x.Remaining(1); got != wantW {
				t.Errorf("%s: w %v, want %v", where, got, wantW)
			}
			// v: the tag less V, 10/3 (the work shared by 3 jobs; UpdateAll
			// rebases the tags to V = 0).
			if got, want := x.VirtualRemaining(1), wantT-10.0/3; math.Abs(got-want) > 1e-12*want {
				t.Errorf("%s: v %v, want %v (tag before %v)", where, got, want, t0)
			}
			if !slkCheckTree(t, x, where) {
				return
			}
		}
	}
}
