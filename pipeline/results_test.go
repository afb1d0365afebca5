package pipeline

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"testing"

	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/estimate"
	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/tuner"
)

func TestParseResults(t *testing.T) {
	for _, c := range []struct {
		in   string
		want experiment.ResultsChoice
		bad  bool
	}{
		{in: "all", want: experiment.ResultsChoice{Mode: experiment.ResultsAll}},
		{in: "none", want: experiment.ResultsChoice{Mode: experiment.ResultsNone}},
		{in: "auto", want: experiment.ResultsChoice{Mode: experiment.ResultsAuto}},
		{in: "sample:10", want: experiment.ResultsChoice{Mode: experiment.ResultsSample, N: 10}},
		{in: "sample:0", bad: true},
		{in: "sample:-3", bad: true},
		{in: "sample:1e3", bad: true},
		{in: "sample:", bad: true},
		{in: "sample", bad: true},
		{in: "All", bad: true},
		{in: "", bad: true},
	} {
		got, err := experiment.ParseResults(c.in)
		if (err != nil) != c.bad || !c.bad && got != c.want {
			t.Errorf("ParseResults(%q) = %+v, %v", c.in, got, err)
		}
		if !c.bad && c.in != "auto" && got.String() != c.in {
			t.Errorf("%q prints as %q", c.in, got.String())
		}
	}
}

func TestResultsResolve(t *testing.T) {
	for _, c := range []struct {
		in   experiment.ResultsChoice
		n    int
		want string
	}{
		{experiment.ResultsChoice{Mode: experiment.ResultsAuto}, experiment.AutoResultsJobs, "all"},
		{experiment.ResultsChoice{Mode: experiment.ResultsAuto}, experiment.AutoResultsJobs + 1, "sample:" + strconv.Itoa(experiment.AutoResultsJobs)},
		{experiment.ResultsChoice{Mode: experiment.ResultsSample, N: 5}, 5, "all"},
		{experiment.ResultsChoice{Mode: experiment.ResultsSample, N: 5}, 6, "sample:5"},
		{experiment.ResultsChoice{Mode: experiment.ResultsNone}, 6, "none"},
	} {
		if got := c.in.Resolve(c.n).String(); got != c.want {
			t.Errorf("%v on %d jobs → %s, want %s", c.in, c.n, got, c.want)
		}
	}
}

// The sample is the k jobs of lowest id hash, as sorting every job by its
// hash gives; exactly k of them, the same every time.
func TestSampleJobs(t *testing.T) {
	ids := make([][]byte, 500)
	for i := range ids {
		ids[i] = []byte(fmt.Sprintf("job_%d", i))
	}
	ids[7] = ids[3] // a tie: broken by position
	id := func(i int) []byte { return ids[i] }
	for _, k := range []int{0, 1, 17, 499, 500, 900} {
		keep := experiment.SampleJobs(len(ids), k, id)
		order := make([]int, len(ids))
		for i := range order {
			order[i] = i
		}
		sort.SliceStable(order, func(a, b int) bool { return experiment.JobIDHash(ids[order[a]]) < experiment.JobIDHash(ids[order[b]]) })
		want := make([]bool, len(ids))
		for _, i := range order[:min(k, len(ids))] {
			want[i] = true
		}
		if !slices.Equal(keep, want) {
			t.Errorf("k=%d: sample differs from the k lowest hashes", k)
		}
	}
}

func TestQuantilePoints(t *testing.T) {
	if got := experiment.QuantilePoints([]float64{1, 2, 3}, 5); !slices.Equal(got, []float64{1, 2, 3}) {
		t.Errorf("short sample: %v", got)
	}
	// 0…10 at 3 points: min, median, max.
	s := []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	if got := experiment.QuantilePoints(s, 3); !slices.Equal(got, []float64{0, 5, 10}) {
		t.Errorf("quantiles of 0…10: %v", got)
	}
	if got := experiment.QuantilePoints(s, 6); !slices.Equal(got, []float64{0, 2, 4, 6, 8, 10}) {
		t.Errorf("sixths of 0…10: %v", got)
	}
}

// An experiment's Sink sees every simulation once, in policy then run
// order, with the per-job results the kept rows hold, whatever the number
// of workers; the summaries are those of a run without a sink.
func TestExperimentSinkInOrder(t *testing.T) {
	jobs := testJobs(400, 3)
	dl, err := experiment.PSDeadlines(jobs, 1)
	if err != nil {
		t.Fatal(err)
	}
	m := estimate.ErrorModel{Kind: estimate.LogNormal, Sigma: 0.5}
	base := experiment.Experiment{Jobs: jobs, Capacity: 1, Deadlines: dl, Policies: []string{"srpt", "ps", "las", "fsp+ps"}, Errors: m, Runs: 3, Seed: 4}
	kept := base
	kept.KeepRows = true
	want, err := kept.Run(context.Background(), experiment.RunOptions{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, workers := range []int{1, 2, 5} {
		var order []string
		rows := &experiment.JobRows{}
		x := base
		x.Sink = func(rr *experiment.RunRows) error {
			order = append(order, fmt.Sprintf("%d/%d", rr.Policy, rr.Run))
			rr.AppendTo(rows, 0, len(rr.Jobs), nil)
			return nil
		}
		got, err := x.Run(context.Background(), experiment.RunOptions{Workers: workers})
		if err != nil {
			t.Fatal(err)
		}
		var wantOrder []string
		all := &experiment.JobRows{}
		for p, pr := range want.Policies {
			for _, r := range pr.Runs {
				wantOrder = append(wantOrder, fmt.Sprintf("%d/%d", p, r))
			}
			all.AppendRows(pr.Rows)
			if !reflect.DeepEqual(pr.Summaries, got.Policies[p].Summaries) {
				t.Errorf("%d workers, %s: summaries differ from a run that keeps rows", workers, pr.Policy)
			}
		}
		if !slices.Equal(order, wantOrder) {
			t.Errorf("%d workers: sink order %v, want %v", workers, order, wantOrder)
		}
		if !reflect.DeepEqual(rowsTable(rows), rowsTable(all)) {
			t.Errorf("%d workers: the sink's rows differ from the kept rows", workers)
		}
	}
	// A sink's error stops the experiment and is returned.
	boom := errors.New("boom")
	x := base
	calls := 0
	x.Sink = func(*experiment.RunRows) error {
		if calls++; calls == 2 {
			return boom
		}
		return nil
	}
	if _, err := x.Run(context.Background(), experiment.RunOptions{Workers: 2}); !errors.Is(err, boom) {
		t.Errorf("sink error: got %v", err)
	}
	if calls != 2 {
		t.Errorf("the sink was called %d times after failing at the 2nd", calls)
	}
}

// rowsTable is the rows as comparable columns (NaN compared by bits).
func rowsTable(r *experiment.JobRows) string { return fmt.Sprintf("%v", *r) }

// Scale gives the results of the jobs with their sizes scaled beforehand.
func TestExperimentScale(t *testing.T) {
	jobs := testJobs(300, 2)
	x := &experiment.Experiment{Jobs: jobs, Capacity: 1, Policies: []string{"srpt", "las"}, Runs: 1, Scale: 1.3}
	y := &experiment.Experiment{Jobs: tuner.ScaleSizes(jobs, 1.3), Capacity: 1, Policies: []string{"srpt", "las"}, Runs: 1}
	a, err := x.Run(context.Background(), experiment.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := y.Run(context.Background(), experiment.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Error("Scale differs from scaled jobs")
	}
	for _, bad := range []float64{-1, math.NaN(), math.Inf(1)} {
		x.Scale = bad
		if _, err := x.Run(context.Background(), experiment.RunOptions{}); err == nil {
			t.Errorf("scale %v accepted", bad)
		}
	}
}

// A stage that streams an output gets it renamed into place and stamped;
// one that fails leaves no temporary file; a streamed file of other content
// is not replaced without Force.
func TestRunnerStreamFile(t *testing.T) {
	dir := t.TempDir()
	r := &Runner{Dir: dir}
	if err := r.Open(); err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	stream := func(content string, fail error) func() (map[string][]byte, error) {
		return func() (map[string][]byte, error) {
			f, err := r.StreamFile("big/out.bin")
			if err != nil {
				return nil, err
			}
			f.WriteString(content)
			f.Close()
			return map[string][]byte{"big/out.bin": nil, "small.txt": []byte("s")}, fail
		}
	}
	leftovers := func() []string {
		var out []string
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && leftover().MatchString(d.Name()) {
				out = append(out, p)
			}
			return nil
		})
		return out
	}
	if err := r.Stage("s", "k1", nil, stream("one", errors.New("failed"))); err == nil {
		t.Fatal("failing stage succeeded")
	}
	if l := leftovers(); len(l) > 0 {
		t.Errorf("failed stage left %v", l)
	}
	if err := r.Stage("s", "k1", nil, stream("one", nil)); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "big/out.bin")); err != nil || string(b) != "one" {
		t.Fatalf("streamed file: %q, %v", b, err)
	}
	if !r.upToDate(filepath.Join(dir, StampDir, "s.json"), "s", "k1", nil) {
		t.Error("stamp of a streamed file does not match it")
	}
	if err := r.Stage("s", "k2", nil, stream("two", nil)); err == nil {
		t.Error("a streamed file of other content was replaced without Force")
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "big/out.bin")); string(b) != "one" {
		t.Errorf("refused stage changed the file to %q", b)
	}
	if l := leftovers(); len(l) > 0 {
		t.Errorf("refused stage left %v", l)
	}
}

// --results: a sample writes the same N jobs for every configuration and
// none writes no file; the validation table does not change.
func TestRunResultsOption(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end run")
	}
	dir := filepath.Join(t.TempDir(), "all")
	res, _, err := runInto(t, dir, testConfig(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		results string
		rows    int // per configuration; −1: no file
	}{{"sample:50", 50}, {"none", -1}} {
		d := filepath.Join(t.TempDir(), c.results)
		if err := os.CopyFS(d, os.DirFS(dir)); err != nil {
			t.Fatal(err)
		}
		cfg := testConfig()
		cfg.Results = c.results
		in, err := Prepare(cfg)
		if err != nil {
			t.Fatal(err)
		}
		r := &Runner{Dir: d, Force: true}
		got, err := Run(context.Background(), in, r)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(r.Ran, []string{"validate", "report"}) {
			t.Errorf("%s: ran %v, want validate and report only", c.results, r.Ran)
		}
		if !reflect.DeepEqual(got.Validation, res.Validation) {
			t.Errorf("%s: the validation table changed", c.results)
		}
		path := filepath.Join(d, "results.parquet")
		if c.rows < 0 {
			if slices.Contains(got.Files, "results.parquet") {
				t.Errorf("%s: results.parquet still listed", c.results)
			}
			continue
		}
		tab, err := data.ReadTable(path, "")
		if err != nil {
			t.Fatal(err)
		}
		pol, ids := tab.Col("policy").([]string), tab.Col(data.ColJobID).([]string)
		perPolicy := map[string][]string{}
		for k := range pol {
			perPolicy[pol[k]] = append(perPolicy[pol[k]], ids[k])
		}
		var first []string
		for p, got := range perPolicy {
			if len(got) != c.rows {
				t.Errorf("%s: %s has %d rows, want %d", c.results, p, len(got), c.rows)
			}
			if first == nil {
				first = got
			} else if !slices.Equal(got, first) {
				t.Errorf("%s: %s has other jobs than the first configuration", c.results, p)
			}
		}
	}
	bad := testConfig()
	bad.Results = "sample:x"
	if _, err := Prepare(bad); err == nil {
		t.Error("Prepare accepted --results sample:x")
	}
}
