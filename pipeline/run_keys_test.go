package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/inputs"
	"github.com/schedplan/schedplan/pipeline/tuner"
)

// writeTwoUserLog writes a CSV log of n jobs of users U1 and U2 (both in
// the default cluster spec, U2 with priority 2) with explicit sizes in
// container-seconds, at an offered load of about load on the default
// cluster's 48.06 containers.
func writeTwoUserLog(t testing.TB, path string, n int, load float64, seed uint64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 1))
	var b strings.Builder
	b.WriteString("job_id,submit_time,user,size\n")
	at := 0.0
	const meanSize = 30.0
	for i := 0; i < n; i++ {
		at += rng.ExpFloat64() * meanSize / (load * 48.06)
		size := meanSize * math.Exp(rng.NormFloat64()-0.5)
		fmt.Fprintf(&b, "j%d,%.3f,U%d,%.4f\n", i, at, 1+rng.IntN(2), size)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// writeSpec writes the default cluster spec with one line replaced.
func writeSpec(t testing.TB, path, old, new string) {
	t.Helper()
	s := string(cluster.DefaultSpecYAML())
	if !strings.Contains(s, old) {
		t.Fatalf("default spec has no %q", old)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(s, old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Every input a stage reads is in its key (issue 10): changing one input at
// a time re-runs exactly the stages that read it, and those after them.
func TestStageKeysCoverEveryInput(t *testing.T) {
	dir := t.TempDir()
	log, log2 := filepath.Join(dir, "jobs.csv"), filepath.Join(dir, "jobs2.csv")
	writeTwoUserLog(t, log, 400, 0.6, 1)
	writeTwoUserLog(t, log2, 400, 0.6, 2)
	spec := func(name, old, new string) string {
		p := filepath.Join(dir, name+".yaml")
		writeSpec(t, p, old, new)
		return p
	}
	base := func() inputs.RunConfig {
		cfg := inputs.DefaultRunConfig()
		cfg.Trace, cfg.Cluster, cfg.K = log, spec("base", "version: 1", "version: 1"), 2
		cfg.Budget, cfg.Runs, cfg.Sigmas, cfg.LoadFactors = 30, 2, []float64{0, 0.5}, []float64{0.8, 1}
		return cfg
	}
	all := []string{"ingest", "classify", "capacity", "tune", "tune-coshh", "tune-hpfsp", "bounds", "tune-deploy", "emit", "validate", "report"}
	currentXML := filepath.Join(dir, "fair-scheduler.xml")
	if err := os.WriteFile(currentXML, []byte(`<?xml version="1.0"?>
<allocations><queue name="a"><weight>2</weight></queue><queue name="default"/></allocations>
`), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	run := func(cfg inputs.RunConfig) []string {
		in, err := Prepare(cfg)
		if err != nil {
			t.Fatal(err)
		}
		r := &Runner{Dir: out, Force: true}
		if _, err := Run(context.Background(), in, r); err != nil {
			t.Fatal(err)
		}
		return r.Ran
	}
	if ran := run(base()); !slices.Equal(ran, all) {
		t.Fatalf("first run ran %v", ran)
	}
	for _, tc := range []struct {
		name string
		edit func(*inputs.RunConfig)
		want []string
	}{
		{"nothing", func(*inputs.RunConfig) {}, nil},
		{"user weight in cluster.yaml", func(c *inputs.RunConfig) {
			c.Cluster = spec("weight", "{name: U2,  min_share: 0,  priority: 2}", "{name: U2,  min_share: 0,  priority: 2, weight: 5}")
		}, all[1:]},
		{"user min_share in cluster.yaml", func(c *inputs.RunConfig) {
			c.Cluster = spec("minshare", "{name: U2,  min_share: 0,  priority: 2}", "{name: U2,  min_share: 3,  priority: 2}")
		}, []string{"classify", "capacity", "tune-coshh", "tune-hpfsp", "tune-deploy", "emit", "validate", "report"}}, // H-PFSP tunes on the spec's machines
		{"machine count in cluster.yaml", func(c *inputs.RunConfig) {
			c.Cluster = spec("count", "{name: R2, count: 1,", "{name: R2, count: 2,")
		}, all[1:]}, // the capacity, and so the simulated load, changes
		{"the log", func(c *inputs.RunConfig) { c.Trace = log2 }, all},
		{"split", func(c *inputs.RunConfig) { c.Split = 0.6 }, all},
		{"capacity", func(c *inputs.RunConfig) { c.Capacity = 60 }, []string{"tune", "tune-coshh", "tune-hpfsp", "bounds", "tune-deploy", "emit", "validate", "report"}},
		{"k", func(c *inputs.RunConfig) { c.K = 3 }, []string{"classify", "capacity", "tune-deploy", "emit", "validate", "report"}},
		{"seed", func(c *inputs.RunConfig) { c.Seed = 7 }, []string{"classify", "capacity", "tune", "tune-coshh", "tune-hpfsp", "tune-deploy", "emit", "validate", "report"}},
		// validate simulates the emitted YARN files at task level: what
		// changes them reruns it.
		{"what-if", func(c *inputs.RunConfig) { c.WhatIfs = []string{"R2=+1"} }, []string{"capacity", "tune-deploy", "emit", "validate", "report"}},
		{"budget", func(c *inputs.RunConfig) { c.Budget = 31 }, []string{"tune", "tune-deploy", "emit", "validate", "report"}},
		{"objective", func(c *inputs.RunConfig) { c.Objective = tuner.MinP99 }, []string{"tune", "tune-hpfsp", "tune-deploy", "emit", "validate", "report"}},
		{"folds", func(c *inputs.RunConfig) { c.Folds = 4 }, []string{"tune", "tune-deploy", "emit", "validate", "report"}},
		{"constraints", func(c *inputs.RunConfig) { c.Constraints = "p99-slowdown<=current" }, []string{"tune", "tune-deploy", "emit", "validate", "report"}},
		{"blocks (no longer used)", func(c *inputs.RunConfig) { c.Blocks = 2 }, nil},
		{"container MB", func(c *inputs.RunConfig) { c.ContainerMB = 2048 }, []string{"tune-deploy", "emit", "validate", "report"}},
		// The current scheduler is what every candidate is paired against.
		{"current config", func(c *inputs.RunConfig) { c.CurrentConfig = currentXML }, []string{"tune-deploy", "emit", "validate", "report"}},
		{"current", func(c *inputs.RunConfig) { c.Current = "fifo" }, []string{"tune", "tune-deploy", "emit", "validate", "report"}},
		{"baselines", func(c *inputs.RunConfig) { c.Baselines = []string{"srpt"} }, []string{"validate", "report"}},
		{"sigmas", func(c *inputs.RunConfig) { c.Sigmas = []float64{0, 0.25} }, []string{"validate", "report"}},
		{"runs", func(c *inputs.RunConfig) { c.Runs = 3 }, []string{"validate", "report"}},
		{"load factors", func(c *inputs.RunConfig) { c.LoadFactors = []float64{0.9} }, []string{"validate", "report"}},
	} {
		run(base()) // back to the base state
		cfg := base()
		tc.edit(&cfg)
		if ran := run(cfg); !slices.Equal(ran, tc.want) {
			t.Errorf("%s: ran %v, want %v", tc.name, ran, tc.want)
		}
	}
}

// A zero RunConfig takes the defaults; with AsGiven its zeros are refused by
// name instead (issue 11: RunConfig's comment promised the former, issue 10
// asks the CLI for the latter).
func TestRunConfigZeroValues(t *testing.T) {
	in, err := Prepare(inputs.RunConfig{})
	if err != nil {
		t.Fatalf("Prepare(RunConfig{}): %v", err)
	}
	d := inputs.DefaultRunConfig()
	if c := in.Config; c.Budget != d.Budget || c.Sizes != d.Sizes || c.Current != d.Current || !slices.Equal(c.Sigmas, d.Sigmas) || c.Trace != "embedded" {
		t.Errorf("defaults not taken: %+v", c)
	}
	if in.Capacity != 1 || in.OfferedLoad < 0.89 || in.OfferedLoad > 0.91 {
		t.Errorf("embedded trace at capacity %v (%s), load %v", in.Capacity, in.CapacityFrom, in.OfferedLoad)
	}
	_, err = Prepare(inputs.RunConfig{AsGiven: true})
	var pe *experiment.ParamError
	if !errors.As(err, &pe) {
		t.Errorf("a zero config as given: %v", err)
	}
}

// A stamp whose record has no state (damaged, or of another format) means
// "stage not done", never a skip with an empty state.
func TestStampWithoutStateIsNotDone(t *testing.T) {
	var st struct{ N int }
	for _, b := range []string{`{}`, `{"files":[],"state":null}`, `{"best":1}`} {
		s := &stamped{State: &st}
		if err := json.Unmarshal([]byte(b), s); err == nil {
			t.Errorf("%s decoded as a stage's record", b)
		}
	}
	s := &stamped{State: &st}
	if err := json.Unmarshal([]byte(`{"files":["a"],"state":{"N":3}}`), s); err != nil || st.N != 3 || s.Files[0] != "a" {
		t.Errorf("record: %v %+v %v", err, st, s.Files)
	}
}
