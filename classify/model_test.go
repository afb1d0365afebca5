package classify

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/estimate"
	"github.com/schedplan/schedplan/lp"
	"gonum.org/v1/gonum/mat"
)

func parseSpec(t *testing.T, y string) *cluster.Spec {
	t.Helper()
	s, err := cluster.ParseSpec([]byte(y), "test.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// sized builds a jobs table of one user with explicit sizes and input
// bytes, submitted evenly over [0, span].
func sized(size []float64, input []int64, span float64) *data.Jobs {
	j := &data.Jobs{Source: "sized"}
	for i := range size {
		j.ID.Append("j" + string(rune('A'+i%26)) + string(rune('a'+i/26)))
		j.Submit = append(j.Submit, span*float64(i)/float64(len(size)-1))
	}
	j.Size.Values = size
	j.InputBytes.Values = input
	return j
}

func TestExecTimeByHand(t *testing.T) {
	m := MachineType{Name: "R", Slots: 4, ExecRate: 0.5, Memory: 1e6, RetrieveRate: 1e8}
	// 100 container-s on 4 × 0.5 = 50 s; 2e9 bytes at 1e8 B/s = 20 s.
	if got := m.ExecTime(Demand{Compute: 100, Data: 2e9, TaskData: 1e6}); got != 70 {
		t.Errorf("time %v, want 70 s", got)
	}
	if got := m.Rate(Demand{Compute: 100, Data: 2e9, TaskData: 1e6}); got != 1.0/70 {
		t.Errorf("rate %v, want 1/70", got)
	}
	// A task holding more than the memory cannot run: time +Inf, rate 0.
	if got := m.ExecTime(Demand{Compute: 1, TaskData: 1e6 + 1}); !math.IsInf(got, 1) || m.Rate(Demand{Compute: 1, TaskData: 2e6}) != 0 {
		t.Errorf("oversized task: time %v", got)
	}
	// No memory, no retrieval rate: neither rule nor data term.
	bare := MachineType{Slots: 2, ExecRate: 1}
	if got := bare.ExecTime(Demand{Compute: 10, Data: 1e12, TaskData: 1e12}); got != 5 {
		t.Errorf("bare type: time %v, want 5", got)
	}
}

func TestJobDemand(t *testing.T) {
	j := sized([]float64{0, 8, 8, 8}, []int64{1e9, 1e9, 4e8, 0}, 3)
	j.ShuffleBytes.Values = []int64{0, 3e8, 0, 6e8}
	j.MapTasks.Values = []int32{10, 4, 0, 1}
	j.MapTasks.Valid = data.NewBitmap(4)
	j.MapTasks.Valid.SetNull(2) // row 3: maps unknown, input in 128 MiB blocks
	sizes := []float64{0, 8, 8, 8}
	for _, tc := range []struct {
		i    int
		want Demand
	}{
		{0, Demand{Compute: 0.5, Data: 1e9, TaskData: 1e8}},                      // floor 0.5, 10 maps
		{1, Demand{Compute: 8, Data: 1.3e9, TaskData: 2.5e8}},                    // 4 maps; shuffle in one block-sized partition
		{2, Demand{Compute: 8, Data: 4e8, TaskData: DefaultBlockBytes}},          // maps unknown: one block
		{3, Demand{Compute: 8, Data: 6e8, TaskData: float64(DefaultBlockBytes)}}, // no reduce count: shuffle in blocks
	} {
		if got := JobDemand(j, sizes, tc.i, 0.5, DefaultBlockBytes); got != tc.want {
			t.Errorf("row %d: %+v, want %+v", tc.i+1, got, tc.want)
		}
	}
}

// Seed 003 §3.2's LP example, built from jobs through the execution-time
// model. Two types: A (9 slots of exec_rate 1, retrieval 18/7 GB/s) and B (5
// slots, 1.25 GB/s). Two kinds of jobs, 49 each over 20 s (α = 2.45 jobs/s):
// C1 computes 1 container-s and reads nothing, C2 computes 1 container-s and
// reads 1 GB. By hand:
//
//	μ(C1, A) = 1 / (1/9)               = 9
//	μ(C1, B) = 1 / (1/5)               = 5
//	μ(C2, A) = 1 / (1/9 + 1e9·7/18e9)  = 1 / (1/9 + 7/18) = 2
//	μ(C2, B) = 1 / (1/5 + 1e9/1.25e9)  = 1 / (0.2 + 0.8)  = 1
//
// which is the paper's μ = [[9, 5], [2, 1]] with α = [2.45, 2.45]. The LP by
// hand: A's comparative advantage is C2 (9/2 < 5/1), so δ(C2, A) = 1 and B
// is split so that both classes get the same rate: 5a = 2 + (1 − a) gives
// a = 0.5, each class served at 2.5 jobs/s, λ = 2.5/2.45 = 1.0204 with
// δ = [[0, 0.5], [1, 0.5]] — the paper's answer.
func TestModelGivesSeedExample(t *testing.T) {
	spec := parseSpec(t, `version: 1
resources:
  - {name: A, count: 1, slots: 9, exec_rate: 1, retrieve_rate: 2571428571.4285714}
  - {name: B, count: 1, slots: 5, exec_rate: 1, retrieve_rate: 1.25GB/s}
`)
	var size []float64
	var input []int64
	for i := 0; i < 98; i++ {
		size = append(size, 1)
		input = append(input, int64(i%2)*1e9)
	}
	j := sized(size, input, 20)
	sizes, _, err := estimate.Sizes(j, estimate.SizeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, r, err := COSHH(j, sizes, spec, Options{K: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if r.K != 2 {
		t.Fatalf("K = %d", r.K)
	}
	c1, c2 := r.Classes[0], r.Classes[1]
	if c1.MeanInputBytes > c2.MeanInputBytes {
		c1, c2 = c2, c1
	}
	want := [][]float64{{9, 5}, {2, 1}}
	for i, c := range []Class{c1, c2} {
		if c.Count != 49 || math.Abs(c.Alpha-2.45) > 1e-12 {
			t.Errorf("class %d: %d jobs, α %v; want 49, 2.45", i+1, c.Count, c.Alpha)
		}
		for ty := range want[i] {
			if math.Abs(c.Mu[ty]-want[i][ty]) > 1e-12*want[i][ty] {
				t.Errorf("μ(C%d, %s) = %.15g, want %v", i+1, r.Resources[ty], c.Mu[ty], want[i][ty])
			}
		}
	}
	p := &lp.COSHHProblem{ClassNames: []string{"C1", "C2"}, Alpha: []float64{c1.Alpha, c2.Alpha},
		TypeNames: r.Resources, Counts: []float64{1, 1}, Mu: [][]float64{c1.Mu, c2.Mu}}
	sol, err := lp.SolveCOSHH(p, lp.COSHHOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(sol.Lambda-2.5/2.45) > 1e-9 || math.Abs(sol.Lambda-1.0204) > 1e-4 {
		t.Errorf("λ = %.6f, want 2.5/2.45 = 1.0204", sol.Lambda)
	}
	wantDelta := [][]float64{{0, 0.5}, {1, 0.5}}
	for i := range wantDelta {
		for ty := range wantDelta[i] {
			if math.Abs(sol.Delta[i][ty]-wantDelta[i][ty]) > 1e-9 {
				t.Errorf("δ = %v, want %v", sol.Delta, wantDelta)
			}
		}
	}
	if MuRank(r.Classes) != 2 {
		t.Errorf("μ rank %d, want 2", MuRank(r.Classes))
	}
}

// The memory-fit rule (seed 003 Table 3: 400KB machines): a class whose
// mean task data exceed a type's memory gets μ = 0 there.
func TestMemoryFit(t *testing.T) {
	spec := parseSpec(t, `version: 1
resources:
  - {name: small, count: 1, slots: 16, exec_rate: 1, memory: 400KB, retrieve_rate: 40Kbps}
  - {name: big, count: 1, slots: 16, exec_rate: 1, memory: 4TB, retrieve_rate: 9Gbps}
`)
	var size []float64
	var input []int64
	for i := 0; i < 20; i++ {
		size = append(size, 16)
		input = append(input, 1e3+int64(i%2)*1e6) // 1 KB or 1 MB of input, one map each
	}
	j := sized(size, input, 100)
	j.MapTasks.Values = slices.Repeat([]int32{1}, 20)
	r, err := Classify(j, size, spec, Options{K: 2, FeatureSet: PaperFeatures})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range r.Classes {
		// 16 container-s on 16 slots = 1 s, plus the input at 5,000 B/s
		// (40 Kbps) or 1.125e9 B/s (9 Gbps).
		in := c.MeanInputBytes
		wantSmall, wantBig := 1/(1+in/5e3), 1/(1+in/1.125e9)
		if in > 400e3 {
			wantSmall = 0
		}
		if math.Abs(c.Mu[0]-wantSmall) > 1e-12 || math.Abs(c.Mu[1]-wantBig) > 1e-12 {
			t.Errorf("input %v B: μ = %v, want [%v %v]", in, c.Mu, wantSmall, wantBig)
		}
	}
	if r.Classes[0].Mu[0] == 0 && r.Classes[1].Mu[0] == 0 {
		t.Error("no class fits the 400KB type")
	}
}

// Without memory and retrieval rates, μ_it = slots_t · exec_rate_t /
// size_i: rank one, and the classification says so.
func TestRankOneWarning(t *testing.T) {
	spec := parseSpec(t, `version: 1
resources:
  - {name: a, count: 1, slots: 16, exec_rate: 1}
  - {name: b, count: 2, slots: 2, exec_rate: 0.01}
`)
	j, sizes := embedded(t, "embedded:fb2009-50")
	r, err := Classify(j, sizes, spec, Options{K: 3, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if MuRank(r.Classes) != 1 || !strings.Contains(strings.Join(r.Warnings, ";"), "rank 1") {
		t.Errorf("rank %d, warnings %v", MuRank(r.Classes), r.Warnings)
	}
	r, err = Classify(j, sizes, nil, Options{K: 3, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if MuRank(r.Classes) < 2 || strings.Contains(strings.Join(r.Warnings, ";"), "rank 1") {
		t.Errorf("Table 3: rank %d, warnings %v", MuRank(r.Classes), r.Warnings)
	}
}

// Seed 003 §6.3's error model on the execution-time estimates: L̂ = L·(1 +
// E), E ~ U[−I, I], seeded; the sizes (true work) are untouched.
func TestTimeErrors(t *testing.T) {
	j, sizes := embedded(t, "embedded:fb2009-50")
	keep := slices.Clone(sizes)
	types := MachineTypes(cluster.DefaultSpec())
	exact := allTimes(newJobTimes(j, sizes, 1, types, 1e-9, DefaultBlockBytes, estimate.ErrorModel{}, 7, j.Len()))
	const I = 0.4
	errs := estimate.ErrorModel{Kind: estimate.Uniform, I: I}
	a := allTimes(newJobTimes(j, sizes, 1, types, 1e-9, DefaultBlockBytes, errs, 7, j.Len()))
	b := allTimes(newJobTimes(j, sizes, 1, types, 1e-9, DefaultBlockBytes, errs, 7, j.Len()))
	c := allTimes(newJobTimes(j, sizes, 1, types, 1e-9, DefaultBlockBytes, errs, 8, j.Len()))
	if !slices.Equal(a.t, b.t) {
		t.Error("same seed, different estimates")
	}
	if slices.Equal(a.t, c.t) {
		t.Error("different seeds, same estimates")
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for k, v := range exact.t {
		if math.IsInf(v, 1) {
			if !math.IsInf(a.t[k], 1) {
				t.Fatalf("estimate %d: a task that does not fit got time %v", k, a.t[k])
			}
			continue
		}
		e := a.t[k]/v - 1
		lo, hi = math.Min(lo, e), math.Max(hi, e)
	}
	if lo < -I-1e-12 || hi > I+1e-12 || lo > -0.3 || hi < 0.3 {
		t.Errorf("relative errors span [%v, %v], want within and spread over [−0.4, 0.4]", lo, hi)
	}
	if !slices.Equal(sizes, keep) {
		t.Error("the true sizes changed")
	}
	// Through a classification: μ moves, the α do not.
	r0, err := Classify(j, sizes, nil, Options{K: 3, Seed: 1, FeatureSet: PaperFeatures})
	if err != nil {
		t.Fatal(err)
	}
	r1, err := Classify(j, sizes, nil, Options{K: 3, Seed: 1, FeatureSet: PaperFeatures, TimeErrors: errs})
	if err != nil {
		t.Fatal(err)
	}
	if r1.Model.TimeErrors != "uniform(I=0.4)" || r0.Model.TimeErrors != "exact" {
		t.Errorf("model errors %q, %q", r0.Model.TimeErrors, r1.Model.TimeErrors)
	}
	if slices.Equal(r0.Classes[0].Mu, r1.Classes[0].Mu) && slices.Equal(r0.Classes[1].Mu, r1.Classes[1].Mu) {
		t.Error("errors left μ unchanged")
	}
	if _, err := Classify(j, sizes, nil, Options{TimeErrors: estimate.ErrorModel{Kind: estimate.Uniform, I: 1}}); err == nil || !strings.Contains(err.Error(), "below 1") {
		t.Errorf("I = 1: %v", err)
	}
}

// The measured path: μ from task durations on each type where the log has
// them, the model's elsewhere.
func TestMeasureMu(t *testing.T) {
	j, sizes := embedded(t, "embedded:fb2009-50")
	r, err := Classify(j, sizes, nil, Options{K: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	var a, b int // two jobs of class 0
	for q, c := range r.Assign {
		if c == 0 {
			a, b = b, q
		}
	}
	model := slices.Clone(r.Classes[0].Mu)
	// Class 0 on R3 (16 slots): 3 tasks of a, 1 of b: n = 4/2 = 2 tasks a
	// job; mean duration (10+10+10+30)/4 = 15 s: μ = 16 / (2 × 15).
	runs := []TaskRun{{a, "R3", 10}, {a, "R3", 10}, {a, "R3", 10}, {b, "R3", 30}}
	if _, err := r.MeasureMu(runs); err != nil {
		t.Fatal(err)
	}
	c := r.Classes[0]
	if math.Abs(c.Mu[2]-16.0/30) > 1e-12 || c.MuSource[2] != MuMeasured {
		t.Errorf("μ(R3) = %v (%s), want 16/30 measured", c.Mu[2], c.MuSource[2])
	}
	for ty, v := range c.Mu {
		if ty != 2 && (v != model[ty] || c.MuSource[ty] != MuModel) {
			t.Errorf("type %d: μ %v (%s), want the model's %v", ty, v, c.MuSource[ty], model[ty])
		}
	}
	if _, err := r.MeasureMu([]TaskRun{{a, "R9", 1}}); err == nil || !strings.Contains(err.Error(), `task run 1`) || !strings.Contains(err.Error(), `"R9"`) {
		t.Errorf("unknown type: %v", err)
	}
	if _, err := r.MeasureMu([]TaskRun{{a, "R1", math.NaN()}}); err == nil || !strings.Contains(err.Error(), "duration NaN") {
		t.Errorf("NaN duration: %v", err)
	}
	if n, err := r.MeasureMu([]TaskRun{{-1, "R1", 1}, {j.Len() + 5, "R1", 1}}); err != nil || n != 2 {
		t.Errorf("unclassified rows: %d ignored, %v", n, err)
	}
}

// The scaled rows and centres are the space COSHH's queuing compares in: a
// classified job is within its class's radius of its centre, and its
// nearest centre is its class.
func TestScaledRowsAndRadius(t *testing.T) {
	j, sizes := embedded(t, "embedded:fb2009-50")
	_, r, err := COSHH(j, sizes, nil, Options{K: 4, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	xs, err := r.ScaledRows(j, sizes, nil)
	if err != nil {
		t.Fatal(err)
	}
	centres := r.Centres()
	if len(xs) != j.Len() || len(centres) != r.K {
		t.Fatalf("%d rows, %d centres", len(xs), len(centres))
	}
	for q, x := range xs {
		c := r.Assign[q]
		d := math.Sqrt(sqDist(x, centres[c]))
		if d > r.Classes[c].Radius+1e-9 {
			t.Errorf("row %d: %v from its centre, radius %v", q+1, d, r.Classes[c].Radius)
		}
		for k := range centres {
			if e := math.Sqrt(sqDist(x, centres[k])); e < d-1e-9 {
				t.Errorf("row %d: class %d nearer (%v) than its class %d (%v)", q+1, k, e, c, d)
			}
		}
	}
	radiusSeen := false
	for _, c := range r.Classes {
		radiusSeen = radiusSeen || c.Radius > 0
	}
	if !radiusSeen {
		t.Error("every radius is 0")
	}
}

// With errors, the features of the jobs classified are the ones the
// classification used: predicting them gives their classes.
func TestFeatureRowsCarryErrors(t *testing.T) {
	j, sizes := embedded(t, "embedded:fb2009-50")
	errs := estimate.ErrorModel{Kind: estimate.Uniform, I: 0.4}
	_, r, err := COSHH(j, sizes, nil, Options{K: 4, Seed: 9, TimeErrors: errs})
	if err != nil {
		t.Fatal(err)
	}
	pred, err := r.PredictRows(j, sizes, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(pred, r.Assign) {
		t.Errorf("predicted %v, classified %v", pred, r.Assign)
	}
	_, exact, err := COSHH(j, sizes, nil, Options{K: 4, Seed: 9})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := r.FeatureRows(j, sizes, nil)
	b, _ := exact.FeatureRows(j, sizes, nil)
	if mat.Equal(a, b) {
		t.Error("the features with 40% errors equal the exact ones")
	}
}
