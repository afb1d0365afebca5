package task

import (
	"fmt"
	"math"
	"slices"
)

// maxRunningApps in the Fair Scheduler (MaxRunningAppsEnforcer): a job may
// become runnable when its user has fewer runnable jobs than the user's
// limit (canAppBeRunnable: AllocationConfiguration.getUserMaxApps, the
// <user> element's maxRunningApps, else userMaxAppsDefault) and every queue
// on its path fewer than the queue's. A job that may not waits; when a
// runnable job finishes, the waiting jobs that may now run are made
// runnable in order of submission (updateRunnabilityOnAppRemoval: the
// waiting lists of the leaves under the highest queue that was at its
// limit, and the user's own list when the user was at theirs, merged by
// start time by MultiListStartTimeIterator, and at most one job per list).

// appLimits is Fair's per-user application limits and every job's waiting
// state.
type appLimits struct {
	user    []int32   // per job: its user
	limit   []int     // per user: most runnable jobs (MaxInt: none)
	running []int     // per user: runnable, unfinished jobs
	waiting [][]int32 // per user: waiting jobs in submission order (some stale)
	waits   []bool    // per job: waiting for a limit
	cands   []int32
}

// setup indexes the jobs' users and their limits (def 0: none); a
// negative limit, or a limit of 0 for a user with jobs, is an error.
func (a *appLimits) setup(jobs []Job, named map[string]int, def int) error {
	for u, m := range named {
		if m < 0 {
			return fmt.Errorf("fair: user %s: maxRunningApps %d is negative", u, m)
		}
	}
	if def < 0 {
		return fmt.Errorf("fair: userMaxAppsDefault %d is negative", def)
	}
	n := len(jobs)
	a.user = resize(a.user, n)
	a.waits = resizeBool(a.waits, n)
	clear(a.waits)
	a.limit, a.running, a.waiting = a.limit[:0], a.running[:0], a.waiting[:0]
	idx := map[string]int32{}
	for j := range jobs {
		name := jobs[j].User
		u, ok := idx[name]
		if !ok {
			u = int32(len(a.limit))
			idx[name] = u
			m, set := named[name]
			switch {
			case set && m == 0:
				return fmt.Errorf("fair: user %s: maxRunningApps 0: Hadoop never runs their jobs", name)
			case !set && def > 0:
				m = def
			case !set:
				m = math.MaxInt
			}
			a.limit = append(a.limit, m)
			a.running = append(a.running, 0)
			a.waiting = append(a.waiting, nil)
		}
		a.user[j] = u
	}
	return nil
}

// canRun reports whether job j's user is below their limit.
func (a *appLimits) canRun(j int32) bool {
	u := a.user[j]
	return a.running[u] < a.limit[u]
}

// wait records job j as waiting.
func (a *appLimits) wait(j int32) {
	a.waits[j] = true
	u := a.user[j]
	if a.limit[u] < math.MaxInt {
		a.waiting[u] = append(a.waiting[u], j)
	}
}

// started records job j as runnable.
func (a *appLimits) started(j int32) {
	a.waits[j] = false
	a.running[a.user[j]]++
}

// ended records that runnable job j finished and reports whether its user
// was at their limit.
func (a *appLimits) ended(j int32) bool {
	u := a.user[j]
	a.running[u]--
	return a.running[u] == a.limit[u]-1
}

// admit makes runnable, in submission order, the waiting jobs that the
// limits allow after a runnable job of user u finished: those of the
// leaves under queue top (−1: none) that have room, and those of user u
// when userFreed (MaxRunningAppsEnforcer.updateRunnabilityOnAppRemoval and
// gatherPossiblyRunnableAppLists); no more jobs than lists.
func (f *Fair) admit(top int32, u int32, userFreed bool) {
	a := &f.users
	cands := a.cands[:0]
	lists := 0
	var gather func(q int32)
	gather = func(q int32) {
		c := &f.qs[q]
		if c.maxApps > 0 && c.apps >= c.maxApps {
			return
		}
		if !c.leaf {
			for _, ch := range c.children {
				gather(ch)
			}
			return
		}
		lists++
		c.waiting = slices.DeleteFunc(c.waiting, func(j int32) bool { return !a.waits[j] })
		cands = append(cands, c.waiting...)
	}
	if top >= 0 {
		gather(top)
	}
	if userFreed {
		lists++
		a.waiting[u] = slices.DeleteFunc(a.waiting[u], func(j int32) bool { return !a.waits[j] })
		cands = append(cands, a.waiting[u]...)
	}
	slices.Sort(cands)
	cands = slices.Compact(cands)
	made := 0
	for _, j := range cands {
		if made >= lists {
			break
		}
		if f.canRun(f.leafOf[j]) && a.canRun(j) {
			f.makeRunnable(j)
			made++
		}
	}
	a.cands = cands
}
