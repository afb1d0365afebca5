package bundle

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/internal/radix"
)

// This file decides where the applications of the log land in the emitted
// capacity-scheduler.xml, from what a real cluster knows when an
// application is submitted — its user and the queue it names — and not
// from its job class, which nobody knows before the job has run:
//   - a log with a queue column keeps its queues at their paths
//     (LogQueuePath: root.dev.adhoc stays a leaf adhoc under a parent dev),
//     and every application names the queue it ran in;
//   - otherwise a user is mapped to a class's queue when at least
//     UserClassShare of their classified jobs are of that class; every
//     other user's applications name no queue and land in default.
//
// Every queue's guaranteed capacity is then the share of the offered work
// routed to it (Bundle.Users[].Work, Bundle.Queues[].Work), so that the
// queues that receive the work hold the capacity.

// UserClassShare is the share of a user's classified jobs that must be of
// one class for the user to be mapped to that class's queue: below it the
// user's jobs span classes and go to default.
const UserClassShare = 0.8

// LogQueueName is the capacity-scheduler.xml name of a queue of the log:
// the last component of its path ("root.dev.adhoc" → "adhoc"), as a YARN
// queue name (YARNName); a job that names no queue is in "default".
func LogQueueName(q string) string {
	p := LogQueuePath(q)
	return p[strings.LastIndexByte(p, '.')+1:]
}

// LogQueuePath is the path in schedplan's files of a queue the log names:
// the log's dotted path under root, each component a YARN queue name
// (YARNName; empty components dropped), "root." prefixed when the log
// leaves it out ("dev.adhoc" and "root.dev.adhoc" → "root.dev.adhoc",
// "adhoc" → "root.adhoc"); no queue is "root.default". A short name that
// is the leaf of one dotted path of the log is that path's queue, as
// Hadoop resolves it (LogQueues; CSQueueStore.get).
func LogQueuePath(q string) string {
	parts := strings.Split(strings.TrimSpace(q), ".")
	if parts[0] == "root" {
		parts = parts[1:]
	}
	out := []string{"root"}
	for _, c := range parts {
		if c = strings.TrimSpace(c); c != "" {
			out = append(out, YARNName(c))
		}
	}
	if len(out) == 1 {
		out = append(out, "default")
	}
	return strings.Join(out, ".")
}

// ObservedPeaks returns every user's peak concurrent applications as the
// log recorded them (submit to finish) over its first n rows, nil when it
// records no finish times; a row without a finish time, or one before
// its submit time, is left out.
func ObservedPeaks(j *data.Jobs, n int, userOfRow []int32, users int) []int {
	if !j.Finish.Present() {
		return nil
	}
	var arrival, finish []float64
	var user []int32
	for i := range n {
		if f, ok := j.Finish.At(i); ok && f >= j.Submit[i] {
			arrival, finish, user = append(arrival, j.Submit[i]), append(finish, f), append(user, userOfRow[i])
		}
	}
	return PeakApplications(arrival, finish, user, users)
}

// LogQueues returns the log's queues (nil when it has no queue column),
// each by its path (LogQueuePath) with its jobs and share of the offered
// work, in order of first appearance. A short name (no '.') that is the
// leaf name of exactly one dotted path of the log is that queue, as
// Hadoop's CSQueueStore.get resolves a short name to the one queue that has
// it: "adhoc" and "root.dev.adhoc" are one queue. sizes are the sizes of
// the log's first len(sizes) jobs, the ones counted; a queue that only
// later rows name is listed too, with no jobs and no work (a queue first
// named after the split: the files must place every application of the
// log, and capacity-scheduler.xml rejects one that names an unknown
// queue, which failed the validation of the emitted file).
func LogQueues(j *data.Jobs, sizes []float64, total float64) []QueueConfig {
	return logQueues(j, len(sizes), func(q *QueueConfig, i int) {
		q.Jobs++
		if total > 0 {
			q.Work += sizes[i] / total
		}
	})
}

// LateQueues is how many of the log's queues (LogQueues) none of its
// first n jobs names: 0 unless a queue is first named after the split.
func LateQueues(j *data.Jobs, n int) int {
	k := 0
	for _, q := range logQueues(j, n, func(q *QueueConfig, _ int) { q.Jobs++ }) {
		if q.Jobs == 0 {
			k++
		}
	}
	return k
}

// logQueues is LogQueues with count(q, i) called for each of the first n
// rows, q its queue. Each distinct name of the queue column (a dictionary)
// is resolved to its path once, not once a row: the rows cost an index
// each (at 10 M jobs, a pass of string work a row took seconds).
func logQueues(j *data.Jobs, n int, count func(q *QueueConfig, i int)) []QueueConfig {
	if !j.Queue.Present() {
		return nil
	}
	codes := j.Queue.Codes
	// name[c+1] is code c's name, trimmed; name[0] a null's ("").
	name := make([]string, len(j.Queue.Values)+1)
	used := make([]bool, len(name))
	for _, c := range codes {
		used[max(c, -1)+1] = true
	}
	leafOf := map[string][]string{} // leaf name → dotted paths that end in it
	for c, v := range j.Queue.Values {
		name[c+1] = strings.TrimSpace(v)
		if q := name[c+1]; used[c+1] && strings.Contains(q, ".") {
			p := LogQueuePath(q)
			leaf := LogQueueName(p)
			if !slices.Contains(leafOf[leaf], p) {
				leafOf[leaf] = append(leafOf[leaf], p)
			}
		}
	}
	var out []QueueConfig
	at := map[string]int{}
	queueOf := make([]int, len(name)) // code+1 → index in out + 1 (0: not met yet)
	for i, c := range codes {
		c = max(c, -1) + 1
		if queueOf[c] == 0 {
			q := name[c]
			path := LogQueuePath(q)
			if ps := leafOf[LogQueueName(path)]; !strings.Contains(q, ".") && len(ps) == 1 {
				path = ps[0]
			}
			k, ok := at[path]
			if !ok {
				k = len(out)
				at[path] = k
				out = append(out, QueueConfig{Name: path})
			}
			queueOf[c] = k + 1
		}
		if i < n {
			count(&out[queueOf[c]-1], i)
		}
	}
	return out
}

// LogQueuesOf returns the queue each of the log's rows lo, lo+1, …,
// lo+n−1 names, as the log wrote it (trimmed; "" for none), nil when the
// log has no queue column: what the task level's applications name
// (TaskLevel.Named; placed by logQueueNames).
func LogQueuesOf(j *data.Jobs, lo, n int) []string {
	if !j.Queue.Present() {
		return nil
	}
	out := make([]string, n)
	for k := range out {
		q, _ := j.Queue.At(lo + k)
		out[k] = strings.TrimSpace(q)
	}
	return out
}

// logQueueNames returns the names an application that named q in the log
// tries in turn: q as written, which Hadoop resolves as a full path or a
// short name (CSQueueStore.get) — what the cluster's own scheduler file
// (--current-config) and schedplan's know it by, e.g. "root.dev.adhoc" or
// "adhoc" — then its path in schedplan's files (LogQueuePath, e.g.
// "root.my_queue" for "my queue"), when that differs. No queue is
// "default" (the queue mappings apply).
func logQueueNames(q string) []string {
	if q == "" || q == "default" {
		return []string{"default"}
	}
	if p := LogQueuePath(q); p != q {
		return []string{q, p}
	}
	return []string{q}
}

// PlaceLogQueue places an application that named q in the log with place
// (a file's placement: Place), trying logQueueNames(q) in turn; the error
// is the one for q as written.
func PlaceLogQueue[T any](q string, place func(name string) (T, error)) (T, error) {
	var first error
	for _, name := range logQueueNames(q) {
		v, err := place(name)
		if err == nil {
			return v, nil
		}
		if first == nil {
			first = err
		}
	}
	var zero T
	return zero, first
}

// PeakApplications returns, for each of users users, the most of their
// applications in the system at once: application i of user[i] is there
// from arrival[i] to finish[i] (an application finishing when another
// arrives has left). It groups the applications by user in order of
// arrival and sweeps each user's arrivals against that user's finishes,
// radix-sorted (16 bytes a job beside the inputs, no comparison sort).
func PeakApplications(arrival, finish []float64, user []int32, users int) []int {
	peak := make([]int, users)
	MaxPeakApplications(peak, arrival, finish, user)
	return peak
}

// MaxPeakApplications raises peak[u] to user u's peak applications among
// these (PeakApplications of them, for len(peak) users). A replay swept a
// part at a time, every application of a part gone before the next part's
// first arrives, gets the peaks of the whole sweep.
func MaxPeakApplications(peak []int, arrival, finish []float64, user []int32) {
	users := len(peak)
	order := make([]int32, 0, len(arrival)) // the applications counted
	for i := range arrival {
		if i >= len(finish) || i >= len(user) || user[i] < 0 || int(user[i]) >= users {
			continue
		}
		order = append(order, int32(i))
	}
	if !sort.SliceIsSorted(order, func(a, b int) bool { return arrival[order[a]] < arrival[order[b]] }) {
		sort.SliceStable(order, func(a, b int) bool { return arrival[order[a]] < arrival[order[b]] })
	}
	start := make([]int, users+1) // user u's applications: byUser[start[u]:start[u+1]]
	for _, i := range order {
		start[user[i]+1]++
	}
	for u := range users {
		start[u+1] += start[u]
	}
	byUser := make([]int32, len(order))
	next := slices.Clone(start[:users])
	for _, i := range order {
		u := user[i]
		byUser[next[u]] = i
		next[u]++
	}
	ends := make([]float64, len(order))
	for k, i := range byUser {
		ends[k] = max(finish[i], arrival[i])
	}
	for u := range users {
		lo, hi := start[u], start[u+1]
		e := ends[lo:hi]
		radix.Float64s(e)
		now, k := 0, 0
		for _, i := range byUser[lo:hi] {
			for ; k < len(e) && e[k] <= arrival[i]; k++ {
				now--
			}
			now++
			peak[u] = max(peak[u], now)
		}
	}
}

// AssignUserClasses records in b.Users[*].Class the class that holds at
// least UserClassShare of a user's classified jobs, when there is one (the
// capacity-scheduler.xml queue mappings send such users to their class's
// queue). users are the names of the users of the jobs classified,
// userOfRow the user of every row of the jobs table, and rows/assign the
// classification (rows nil: every row, in order; assign[q] the class of
// row rows[q]). Users whose jobs span classes keep Class empty.
func AssignUserClasses(b *Bundle, users []string, userOfRow []int32, rows []int, assign []int32) error {
	nc := len(b.Classes)
	count := map[int64]int{} // user × nc + class → jobs
	jobs := make([]int, len(users))
	for q, c := range assign {
		row := q
		if rows != nil {
			if q >= len(rows) {
				return errors.New("classification: more assignments than rows")
			}
			row = rows[q]
		}
		if row < 0 || row >= len(userOfRow) || int(userOfRow[row]) >= len(users) || userOfRow[row] < 0 {
			return fmt.Errorf("classification: row %d has no user", row)
		}
		if c < 0 || int(c) >= nc {
			return fmt.Errorf("classification: row %d is in class %d of %d", row, c, nc)
		}
		u := userOfRow[row]
		count[int64(u)*int64(nc)+int64(c)]++
		jobs[u]++
	}
	class := make([]int32, len(users))
	share := make([]float64, len(users))
	for i := range class {
		class[i] = -1
	}
	for key, n := range count {
		u := key / int64(nc)
		if f := float64(n) / float64(jobs[u]); f >= UserClassShare {
			class[u], share[u] = int32(key%int64(nc)), f
		}
	}
	byName := map[string]int{}
	for i, n := range users {
		byName[n] = i
	}
	for i := range b.Users {
		b.Users[i].Class, b.Users[i].ClassShare = "", 0
		if k, ok := byName[b.Users[i].Name]; ok && class[k] >= 0 {
			b.Users[i].Class, b.Users[i].ClassShare = b.Classes[class[k]].Name, share[k]
		}
	}
	return nil
}
