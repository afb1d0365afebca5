package bundle

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/schedplan/schedplan/data"
)

// logQueuesPerRow is logQueues as it resolved every row's name (the
// reference the per-name resolution must equal).
func logQueuesPerRow(j *data.Jobs, n int, count func(q *QueueConfig, i int)) []QueueConfig {
	if !j.Queue.Present() {
		return nil
	}
	name := func(i int) string {
		q, _ := j.Queue.At(i)
		return strings.TrimSpace(q)
	}
	leafOf := map[string][]string{}
	for i := range j.Len() {
		if q := name(i); strings.Contains(q, ".") {
			p := LogQueuePath(q)
			leaf := LogQueueName(p)
			if !slices.Contains(leafOf[leaf], p) {
				leafOf[leaf] = append(leafOf[leaf], p)
			}
		}
	}
	var out []QueueConfig
	at := map[string]int{}
	for i := range j.Len() {
		q := name(i)
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
		if i < n {
			count(&out[k], i)
		}
	}
	return out
}

// TestLogQueuesPerName: resolving each distinct queue name once gives the
// queues, their order and their counts that resolving every row gave, with
// nulls, padded names, short names of one and of two dotted paths, names
// no row uses (a dictionary's leftovers) and queues first named late.
func TestLogQueuesPerName(t *testing.T) {
	values := []string{"root.dev.adhoc", " adhoc", "prod", "dev.etl", "etl", "root.ops.etl", "unused.x", "x", "root", "", " root.prod "}
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 200 {
		rows := 1 + rng.IntN(60)
		codes := make([]int32, rows)
		for i := range codes {
			codes[i] = int32(rng.IntN(len(values)+1)) - 1 // −1: null
			if codes[i] == 6 {
				codes[i] = 7 // "unused.x" is never a row's
			}
		}
		j := &data.Jobs{Submit: make([]float64, rows), Queue: data.Dict{Codes: codes, Values: values}}
		n := rng.IntN(rows + 1)
		size := func(i int) float64 { return float64(i%7) + 0.5 }
		count := func(q *QueueConfig, i int) { q.Jobs++; q.Work += size(i) }
		got, want := logQueues(j, n, count), logQueuesPerRow(j, n, count)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("trial %d (codes %v, n %d):\n got %+v\nwant %+v", trial, codes, n, got, want)
		}
	}
}

// BenchmarkLateQueues is the stage table's LateQueues on a 10 M-job log
// with a queue column (go test -bench LateQueues ./pipeline/bundle).
func BenchmarkLateQueues(b *testing.B) {
	n := 10_000_000
	j := &data.Jobs{Submit: make([]float64, n), Queue: data.Dict{Codes: make([]int32, n), Values: []string{"root.dev.adhoc", "prod", "adhoc", "etl"}}}
	for i := range j.Queue.Codes {
		j.Queue.Codes[i] = int32(i % 4)
	}
	b.ResetTimer()
	for range b.N {
		if k := LateQueues(j, n*7/10); k != 0 {
			b.Fatalf("%d late queues", k)
		}
	}
}
