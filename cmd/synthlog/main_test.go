package main

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/schedplan/schedplan/data"
)

// Hadoop's counts: one map per split of 128 MiB, the last split taking up
// to 1.1 splits (FileInputFormat's SPLIT_SLOP), at least one map; one
// reduce per 256 MB of shuffle, none for a map-only job; both capped.
func TestTaskCounts(t *testing.T) {
	const s = DefaultSplitBytes
	for _, tc := range []struct {
		input, shuffle int64
		maps, reduces  int32
	}{
		{0, 0, 1, 0},
		{1, 0, 1, 0},
		{s, 1, 1, 1},
		{s + s/10, 0, 1, 0},     // 1.1 splits: one split
		{s + s/10 + 1, 0, 2, 0}, // just above: two
		{2 * s, DefaultReduceBytes, 2, 1},
		{10 * s, DefaultReduceBytes + 1, 10, 2},
		{10*s + s/2, 0, 11, 0},
		{1 << 50, 1 << 50, MaxMaps, MaxReduces},
	} {
		m, r := TaskCounts(tc.input, tc.shuffle, s, DefaultReduceBytes)
		if m != tc.maps || r != tc.reduces {
			t.Errorf("TaskCounts(%d, %d) = %d, %d; want %d, %d", tc.input, tc.shuffle, m, r, tc.maps, tc.reduces)
		}
	}
	// -split-bytes of 50 MiB: exactly 16.1 splits are 16 maps, as
	// FileInputFormat.getSplits makes them (the rest 1.1 splits is not
	// more than SPLIT_SLOP); a byte more is 17.
	const s50 = 50 << 20
	for _, tc := range []struct {
		input int64
		maps  int32
	}{{16*s50 + s50/10, 16}, {16*s50 + s50/10 + 1, 17}, {16 * s50, 16}, {s50 / 10, 1}, {1<<62 + 12345, MaxMaps}} {
		if m, _ := TaskCounts(tc.input, 0, s50, DefaultReduceBytes); m != tc.maps {
			t.Errorf("TaskCounts(%d) at splits of 50 MiB = %d maps; want %d", tc.input, m, tc.maps)
		}
	}
	if _, r := TaskCounts(0, math.MaxInt64-5, s, DefaultReduceBytes); r != MaxReduces {
		t.Errorf("shuffle near the int64 limit: %d reduces; want %d", r, MaxReduces)
	}
}

// -tasks adds the two columns and changes nothing else: the same jobs,
// byte for byte the same file for the same seed.
func TestTasksFlag(t *testing.T) {
	dir := t.TempDir()
	gen := func(name string, extra ...string) *data.Jobs {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := run(append([]string{"-jobs", "3000", "-seed", "7", "-out", p}, extra...)); err != nil {
			t.Fatal(err)
		}
		j, err := data.ReadFile(p, data.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return j
	}
	plain, tasks := gen("plain.csv"), gen("tasks.csv", "-tasks")
	again := gen("again.csv", "-tasks")
	a, _ := os.ReadFile(filepath.Join(dir, "tasks.csv"))
	b, _ := os.ReadFile(filepath.Join(dir, "again.csv"))
	if !bytes.Equal(a, b) {
		t.Error("the same seed wrote two different files")
	}
	if plain.MapTasks.Present() || !tasks.MapTasks.Present() || !tasks.ReduceTasks.Present() || !again.MapTasks.Present() {
		t.Fatal("map_tasks/reduce_tasks: want them with -tasks only")
	}
	sum := 0
	for i := range plain.Len() {
		if plain.Submit[i] != tasks.Submit[i] || plain.InputBytes.Values[i] != tasks.InputBytes.Values[i] ||
			plain.ShuffleBytes.Values[i] != tasks.ShuffleBytes.Values[i] || plain.OutputBytes.Values[i] != tasks.OutputBytes.Values[i] {
			t.Fatalf("row %d differs with -tasks", i+1)
		}
		m, r := TaskCounts(tasks.InputBytes.Values[i], tasks.ShuffleBytes.Values[i], DefaultSplitBytes, DefaultReduceBytes)
		if tasks.MapTasks.Values[i] != m || tasks.ReduceTasks.Values[i] != r {
			t.Fatalf("row %d: %d maps, %d reduces; want %d, %d", i+1, tasks.MapTasks.Values[i], tasks.ReduceTasks.Values[i], m, r)
		}
		sum += int(m + r)
	}
	if mean := float64(sum) / float64(plain.Len()); mean < 5 || mean > 50 {
		t.Errorf("%.1f tasks a job: want a realistic 5 to 50", mean)
	}
}

func TestTasksFlagRefused(t *testing.T) {
	p := filepath.Join(t.TempDir(), "x.csv")
	for _, args := range [][]string{
		{"-tasks", "-split-bytes", "1000", "-out", p},
		{"-tasks", "-reduce-bytes", "0", "-out", p},
		{"-split-bytes", "268435456", "-out", p}, // ignored without -tasks
		{"-reduce-bytes", "268435456", "-out", p},
	} {
		if err := run(args); err == nil {
			t.Errorf("%q: no error", args)
		}
	}
}
