package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/schedplan/schedplan/pipeline/inputs"
	"github.com/schedplan/schedplan/pipeline/tuner"
)

// runStages runs the pipeline into dir with the stage options.
func runStages(t *testing.T, dir string, cfg inputs.RunConfig, so inputs.StageOptions) error {
	t.Helper()
	cfg.Stages = so
	in, err := Prepare(cfg)
	if err != nil {
		return err
	}
	_, err = Run(context.Background(), in, &Runner{Dir: dir})
	return err
}

// shardedRun runs cfg into dir as a Kubernetes DAG would: the stages before
// tune, n tune shards, the merge, the stages up to emit, n validate shards,
// the merge, and the rest.
func shardedRun(t *testing.T, dir string, cfg inputs.RunConfig, n int) {
	t.Helper()
	must := func(so inputs.StageOptions) {
		t.Helper()
		if err := runStages(t, dir, cfg, so); err != nil {
			t.Fatalf("%+v: %v", so, err)
		}
	}
	must(inputs.StageOptions{Until: "capacity"})
	for _, stage := range []string{"tune", "validate"} {
		for i := n - 1; i >= 0; i-- { // any order
			must(inputs.StageOptions{Stage: stage, Shard: fmt.Sprintf("%d/%d", i, n)})
		}
		must(inputs.StageOptions{Stage: stage, Merge: true})
		if stage == "tune" {
			must(inputs.StageOptions{Until: "emit"})
		}
	}
	must(inputs.StageOptions{})
}

// tree reads every file under dir but the lock.
func tree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() == LockFile {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out[rel], err = os.ReadFile(p)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// A 4-way sharded tune and validate give, byte for byte, the outputs and
// stamps of the unsharded run on the embedded trace (issue 17).
func TestShardedRunIsByteIdentical(t *testing.T) {
	cfg := inputs.DefaultRunConfig()
	cfg.Runs = 4
	whole, sharded := filepath.Join(t.TempDir(), "whole"), filepath.Join(t.TempDir(), "sharded")
	if err := runStages(t, whole, cfg, inputs.StageOptions{}); err != nil {
		t.Fatal(err)
	}
	shardedRun(t, sharded, cfg, 4)
	want, got := tree(t, whole), tree(t, sharded)
	for _, n := range runOutputs {
		if want[n] == nil {
			t.Errorf("the unsharded run wrote no %s", n)
		}
	}
	for n, b := range want {
		if !bytes.Equal(got[n], b) {
			t.Errorf("%s differs between the sharded and the unsharded run (%d vs %d bytes)", n, len(got[n]), len(b))
		}
	}
	for n := range got {
		if want[n] == nil {
			t.Errorf("the sharded run left %s, which the unsharded run does not write", n)
		}
	}
}

// Shards refuse to compute the stages before theirs; the merge refuses a
// missing shard, a shard given twice (parts of two shardings) and a part
// of other parameters, naming the file, and writes nothing then.
func TestShardMergeRefusesBadParts(t *testing.T) {
	cfg := inputs.DefaultRunConfig()
	cfg.Budget, cfg.Runs = 40, 2
	dir := filepath.Join(t.TempDir(), "out")
	if err := runStages(t, dir, cfg, inputs.StageOptions{Stage: "tune", Shard: "0/2"}); err == nil || !strings.Contains(err.Error(), "run them first") {
		t.Fatalf("a shard before its stages ran: error %v", err)
	}
	if err := runStages(t, dir, cfg, inputs.StageOptions{Until: "capacity"}); err != nil {
		t.Fatal(err)
	}
	shard := func(c inputs.RunConfig, s string) {
		t.Helper()
		if err := runStages(t, dir, c, inputs.StageOptions{Stage: "tune", Shard: s}); err != nil {
			t.Fatal(err)
		}
	}
	merge := func(want string) {
		t.Helper()
		err := runStages(t, dir, cfg, inputs.StageOptions{Stage: "tune", Merge: true})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("merge: error %v, want one containing %q", err, want)
		}
		if _, err := os.Stat(filepath.Join(dir, StampDir, "tune.json")); err == nil {
			t.Fatal("a failed merge wrote the tune stamp")
		}
	}
	merge("no part of the tune stage")
	shard(cfg, "0/3")
	shard(cfg, "2/3")
	merge("units are in no part")
	shard(cfg, "1/3")
	shard(cfg, "1/2")
	// Parts of another N are named as such (before: "unit 4 is also in
	// ...: a shard given twice?").
	merge("the parts of one merge come from one --shard i/N")
	if err := os.Remove(filepath.Join(dir, PartPath("tune", 1, 2))); err != nil {
		t.Fatal(err)
	}
	other := cfg
	other.Objective = tuner.MinP99
	shard(other, "1/3")
	merge("is a part of another tune stage")
	shard(cfg, "1/3")
	if err := runStages(t, dir, cfg, inputs.StageOptions{Stage: "tune", Merge: true}); err != nil {
		t.Fatal(err)
	}
	if left, _ := os.ReadDir(filepath.Join(dir, PartsDir)); len(left) != 0 {
		t.Errorf("the merge left %d parts", len(left))
	}
	// A shard of a stage that is done (a retried pod) writes nothing.
	shard(cfg, "1/3")
	if left, _ := os.ReadDir(filepath.Join(dir, PartsDir)); len(left) != 0 {
		t.Errorf("a shard of a merged stage wrote %d parts", len(left))
	}
}

// A run that computes a sharded stage whole (no --merge) does not leave
// the parts of an earlier sharded run of it beside its outputs, where a
// later merge could take them: they are refused before the first stage,
// and removed with Force. The parts of a stage the run stops before are
// the sharded run's, and stay.
func TestWholeRunRefusesOrRemovesStaleParts(t *testing.T) {
	cfg := inputs.DefaultRunConfig()
	cfg.Budget, cfg.Runs, cfg.Trace = 40, 2, "embedded:fb2009-50"
	dir := filepath.Join(t.TempDir(), "out")
	run := func(so inputs.StageOptions, force bool) error {
		t.Helper()
		cfg := cfg
		cfg.Stages = so
		in, err := Prepare(cfg)
		if err != nil {
			t.Fatal(err)
		}
		_, err = Run(context.Background(), in, &Runner{Dir: dir, Force: force})
		return err
	}
	for _, so := range []inputs.StageOptions{{Until: "emit"}, {Stage: "validate", Shard: "0/2"}, {Until: "bounds"}} {
		if err := run(so, false); err != nil {
			t.Fatalf("%+v: %v", so, err)
		}
	}
	part := filepath.Join(dir, PartPath("validate", 0, 2))
	if _, err := os.Stat(part); err != nil {
		t.Fatalf("--until bounds removed the validate part: %v", err)
	}
	err := run(inputs.StageOptions{}, false)
	if err == nil || !strings.Contains(err.Error(), PartPath("validate", 0, 2)) || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("whole run beside a part: error %v, want a refusal naming it", err)
	}
	if _, err := os.Stat(filepath.Join(dir, StampDir, "validate.json")); err == nil {
		t.Fatal("the refused run computed validate")
	}
	if err := run(inputs.StageOptions{}, true); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(part); err == nil {
		t.Fatal("the part stays after the whole run with force")
	}
	// The stage is done: a merge finds it up to date and reads no part.
	if err := run(inputs.StageOptions{Stage: "validate", Merge: true}, false); err != nil {
		t.Fatalf("merge after the whole run: %v", err)
	}
}

// Stage options are checked with the other parameters, before anything
// runs.
func TestStageOptionsChecked(t *testing.T) {
	for _, tc := range []struct {
		so   inputs.StageOptions
		want string
	}{
		{inputs.StageOptions{Until: "tuning"}, "no such stage"},
		{inputs.StageOptions{Stage: "classify", Shard: "0/2"}, "only tune and validate shard"},
		{inputs.StageOptions{Shard: "0/2"}, "need the stage"},
		{inputs.StageOptions{Stage: "tune"}, "give --shard i/N or --merge"},
		{inputs.StageOptions{Stage: "tune", Shard: "2/2"}, "0 ≤ i < N"},
		{inputs.StageOptions{Stage: "tune", Shard: "0/2", Merge: true}, "give one"},
		{inputs.StageOptions{Stage: "tune", Merge: true, Until: "emit"}, "--until is for whole stages"},
	} {
		cfg := inputs.DefaultRunConfig()
		cfg.Stages = tc.so
		_, err := Prepare(cfg)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want one containing %q", tc.so, err, tc.want)
		}
	}
}

// A sharded search gives the unsharded search's result, also when the folds
// are sampled and the shortlist is re-scored on the whole folds (which the
// merge scores itself).
func TestTuneShardsSampledSearch(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	jobs := poissonJobs(rng, 8000, 0.8, func() float64 { return math.Pow(rng.ExpFloat64(), 2) / 2 })
	opt := tuner.TuneOptions{Budget: 40, SampleJobs: 600, Workers: 2}
	want, err := tuner.TuneCV(context.Background(), jobs, 1, opt, tuner.SimulateWindows(nil, 1))
	if err != nil {
		t.Fatal(err)
	}
	if !want.Sampled || want.Shortlist == nil {
		t.Fatalf("sampled %v, shortlist %v: the case does not sample", want.Sampled, want.Shortlist)
	}
	wantJSON, _ := json.Marshal(want)
	for _, n := range []int{1, 4} {
		known := map[tuner.TuneTask]tuner.Score{}
		units := -1
		for i := 0; i < n; i++ {
			o := opt
			o.Shard = &tuner.TuneShard{Index: i, Count: n}
			if _, err := tuner.TuneCV(context.Background(), jobs, 1, o, tuner.SimulateWindows(nil, 1)); !errors.Is(err, tuner.ErrShardDone) {
				t.Fatalf("shard %d/%d: error %v, want errShardDone", i, n, err)
			}
			for _, s := range o.Shard.Scored {
				if s.Unit%n != i || (units >= 0 && s.Units != units) {
					t.Fatalf("shard %d/%d scored unit %d of %d (units %d before)", i, n, s.Unit, s.Units, units)
				}
				units = s.Units
				known[s.Task] = s.Score
			}
		}
		if len(known) != units {
			t.Fatalf("%d shards scored %d tasks of %d", n, len(known), units)
		}
		o := opt
		o.Shard = &tuner.TuneShard{Known: known}
		got, err := tuner.TuneCV(context.Background(), jobs, 1, o, tuner.SimulateWindows(nil, 1))
		if err != nil {
			t.Fatal(err)
		}
		if gotJSON, _ := json.Marshal(got); !bytes.Equal(gotJSON, wantJSON) {
			t.Errorf("%d shards: the merged search differs from the unsharded one", n)
		}
	}
}

// BenchmarkShardedRun times, on the embedded trace with the defaults, one
// run against a 4-way sharded one whose steps run one after the other
// (each step is a process of its own on a cluster: Prepare included), and
// reports the critical path on 4 machines — the steps before tune, the
// slowest tune shard, the merge, emit, the slowest validate shard, the
// merge and the report — and the sum of the shards' times.
func BenchmarkShardedRun(b *testing.B) {
	cfg := inputs.DefaultRunConfig()
	step := func(dir string, so inputs.StageOptions) float64 {
		t0 := time.Now()
		c := cfg
		c.Stages = so
		in, err := Prepare(c)
		if err == nil {
			_, err = Run(context.Background(), in, &Runner{Dir: dir})
		}
		if err != nil {
			b.Fatal(err)
		}
		return time.Since(t0).Seconds()
	}
	const n = 4
	for range b.N {
		whole := step(filepath.Join(b.TempDir(), "whole"), inputs.StageOptions{})
		dir := filepath.Join(b.TempDir(), "sharded")
		critical := step(dir, inputs.StageOptions{Until: "capacity"})
		shards := 0.0
		for _, stage := range []string{"tune", "validate"} {
			slowest := 0.0
			for i := range n {
				s := step(dir, inputs.StageOptions{Stage: stage, Shard: fmt.Sprintf("%d/%d", i, n)})
				slowest, shards = max(slowest, s), shards+s
			}
			critical += slowest + step(dir, inputs.StageOptions{Stage: stage, Merge: true})
			if stage == "tune" {
				critical += step(dir, inputs.StageOptions{Until: "emit"})
			}
		}
		critical += step(dir, inputs.StageOptions{})
		b.ReportMetric(whole, "unsharded-s")
		b.ReportMetric(critical, "critical-path-4-s")
		b.ReportMetric(shards, "shards-sum-s")
		b.ReportMetric(whole/critical, "speedup")
	}
}
