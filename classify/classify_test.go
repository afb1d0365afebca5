package classify

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/estimate"
	"gonum.org/v1/gonum/mat"
)

func embedded(t testing.TB, name string) (*data.Jobs, []float64) {
	t.Helper()
	j, err := data.Open(name, data.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sizes, _, err := estimate.Sizes(j, estimate.SizeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return j, sizes
}

// checkResult checks the invariants every non-empty classification has.
func checkResult(t *testing.T, r *Result, j *data.Jobs, sizes []float64, spec *cluster.Spec) {
	t.Helper()
	n := j.Len()
	if r.Rows != nil {
		n = len(r.Rows)
	}
	if len(r.Assign) != n || r.K != len(r.Classes) || r.K == 0 {
		t.Fatalf("%d assignments for %d jobs, K %d, %d classes", len(r.Assign), n, r.K, len(r.Classes))
	}
	counts := make([]int, r.K)
	for q, a := range r.Assign {
		if a < 0 || int(a) >= r.K {
			t.Fatalf("job %d has class %d", q, a)
		}
		counts[a]++
	}
	alpha, share := 0.0, 0.0
	for id, c := range r.Classes {
		if c.ID != id || c.Count != counts[id] || c.Count == 0 {
			t.Errorf("class %d: id %d, count %d, counted %d", id, c.ID, c.Count, counts[id])
		}
		if id > 0 && c.MeanSize < r.Classes[id-1].MeanSize {
			t.Errorf("classes not ordered by mean size: %v after %v", c.MeanSize, r.Classes[id-1].MeanSize)
		}
		if len(c.Centroid) != len(r.Features) || len(c.Mu) != len(spec.Resources) || c.Label == "" {
			t.Errorf("class %d: centroid %v, mu %v, label %q", id, c.Centroid, c.Mu, c.Label)
		}
		// The mean size recomputed from the assignment.
		sum := 0.0
		for q, a := range r.Assign {
			if int(a) == id {
				row := q
				if r.Rows != nil {
					row = r.Rows[q]
				}
				sum += sizes[row]
			}
		}
		if want := sum / float64(c.Count); math.Abs(c.MeanSize-want) > 1e-9*want {
			t.Errorf("class %d: mean size %v, recomputed %v", id, c.MeanSize, want)
		}
		// μ recomputed job by job from the execution-time model: 1 / the
		// mean time of the class's jobs that fit, 0 when the class's mean
		// task data do not fit the type.
		for m, mt := range MachineTypes(spec) {
			sumT, fit, taskData := 0.0, 0, 0.0
			for q, a := range r.Assign {
				if int(a) != id {
					continue
				}
				row := q
				if r.Rows != nil {
					row = r.Rows[q]
				}
				d := JobDemand(j, sizes, row, r.SizeFloor, DefaultBlockBytes)
				taskData += d.TaskData
				if tt := mt.ExecTime(d); !math.IsInf(tt, 1) {
					sumT += tt
					fit++
				}
			}
			want := 0.0
			if fit > 0 && mt.Fits(taskData/float64(c.Count)) {
				want = float64(fit) / sumT
			}
			if math.Abs(c.Mu[m]-want) > 1e-12*want || math.IsInf(c.Mu[m], 0) || !(c.Mu[m] >= 0) || c.MuSource[m] != MuModel {
				t.Errorf("class %d: μ[%s] = %v (%s), want %v", id, mt.Name, c.Mu[m], c.MuSource[m], want)
			}
		}
		alpha += c.Alpha
		share += c.Share
	}
	span := j.Submit[j.Len()-1] - j.Submit[0]
	if want := float64(n) / span; math.Abs(alpha-want) > 1e-12*want {
		t.Errorf("Σα = %v, want %v (jobs/span)", alpha, want)
	}
	if math.Abs(share-1) > 1e-12 {
		t.Errorf("Σ share = %v", share)
	}
}

func TestCOSHHEmbedded(t *testing.T) {
	j, sizes := embedded(t, "embedded")
	spec := cluster.DefaultSpec()
	primary, secondary, err := COSHH(j, sizes, spec, Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	// The SWIM trace names no users, so no job has a min share.
	if len(primary.Classes) != 0 || !strings.Contains(primary.Reason, "min_share > 0") {
		t.Errorf("primary: %d classes, reason %q", len(primary.Classes), primary.Reason)
	}
	checkResult(t, secondary, j, sizes, spec)
	if secondary.KRule != "auto" || len(secondary.Curve) != 11 || secondary.Elbow < 2 {
		t.Errorf("k rule %q, curve %v, elbow %d", secondary.KRule, secondary.Curve, secondary.Elbow)
	}
	// Seed 003 §3.1's features by default: priority, the execution rate
	// on each of Table 3's six types, the user's arrival rate.
	wantFeatures := []string{FeatPriority, "exec_rate@R1", "exec_rate@R2", "exec_rate@R3", "exec_rate@R4", "exec_rate@R5", "exec_rate@R6", FeatArrivalRate}
	if !slices.Equal(secondary.Features, wantFeatures) || secondary.FeatureSet != PaperFeatures {
		t.Errorf("features %v (%s), want %v", secondary.Features, secondary.FeatureSet, wantFeatures)
	}
	// Table 3 is heterogeneous: the classes' μ are not proportional.
	if rk := MuRank(secondary.Classes); rk < 2 {
		t.Errorf("μ has rank %d on Table 3's cluster", rk)
	}
	// The chosen k has the best silhouette of the curve.
	for _, s := range secondary.Curve {
		if s.Silhouette > secondary.Silhouette {
			t.Errorf("k=%d has silhouette %v > chosen %v", s.K, s.Silhouette, secondary.Silhouette)
		}
	}
	// Nearest-centroid prediction agrees with the fitted assignment.
	pred, err := secondary.PredictRows(j, sizes, nil)
	if err != nil {
		t.Fatal(err)
	}
	agree := 0
	for i, p := range pred {
		if p == secondary.Assign[i] {
			agree++
		}
	}
	if float64(agree) < 0.99*float64(j.Len()) {
		t.Errorf("prediction agrees with the assignment on %d of %d jobs", agree, j.Len())
	}
	// Row 8's paper features by hand: priority 1 (no user in the spec),
	// 1 / the model's time on each type, the one user's arrival rate.
	mt := MachineTypes(spec)
	d := JobDemand(j, sizes, 7, secondary.SizeFloor, DefaultBlockBytes)
	row := []float64{1}
	for _, m := range mt {
		row = append(row, m.Rate(d))
	}
	row = append(row, float64(j.Len())/secondary.Span)
	x, err := secondary.FeatureRows(j, sizes, []int{7})
	if err != nil || !slices.Equal(mat.Row(nil, 0, x), row) {
		t.Errorf("FeatureRows(row 8) = %v, %v; want %v", mat.Row(nil, 0, x), err, row)
	}
	if c, err := secondary.Predict(row); err != nil || c != pred[7] {
		t.Errorf("Predict(row 8) = %d, %v; PredictRows gave %d", c, err, pred[7])
	}
	if _, err := secondary.Predict([]float64{1, 2}); err == nil {
		t.Error("Predict accepted 2 values for 8 features")
	}
	row[3] = math.NaN()
	if _, err := secondary.Predict(row); err == nil || !strings.Contains(err.Error(), "exec_rate@R3") {
		t.Errorf("Predict with NaN: %v", err)
	}

	// Same seed, any number of workers: the same classification.
	_, one, err := COSHH(j, sizes, spec, Options{Seed: 1, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(one.Assign, secondary.Assign) || one.Inertia != secondary.Inertia {
		t.Error("1 worker and all cores classify differently")
	}
}

func TestClassifyFixedAndUsers(t *testing.T) {
	j, sizes := embedded(t, "embedded")
	spec := cluster.DefaultSpec()
	r, err := Classify(j, sizes, spec, Options{K: 6, Seed: 2, Scaling: ZScore})
	if err != nil {
		t.Fatal(err)
	}
	checkResult(t, r, j, sizes, spec)
	if r.K != 6 || r.KRule != "fixed" || r.Curve != nil || math.IsNaN(r.Silhouette) {
		t.Errorf("K %d rule %q curve %v silhouette %v", r.K, r.KRule, r.Curve, r.Silhouette)
	}
	for _, m := range r.Scaling.Methods {
		if m != ZScore {
			t.Errorf("scaling %v, want z", r.Scaling.Methods)
		}
	}
	// One user in the log: one class.
	r, err = Classify(j, sizes, spec, Options{K: KUsers})
	if err != nil {
		t.Fatal(err)
	}
	if r.K != 1 || r.KRule != "users" || r.Classes[0].Count != j.Len() {
		t.Errorf("k = users: K %d rule %q", r.K, r.KRule)
	}
	checkResult(t, r, j, sizes, spec)
}

// synthetic builds a small jobs table: per job a user, a submit time,
// bytes and a priority.
func synthetic(users []string, in, sh, out []int64, prio []int32) *data.Jobs {
	j := &data.Jobs{Source: "synthetic"}
	dict := map[string]int32{}
	for i := range users {
		j.ID.Append("j" + string(rune('a'+i%26)) + string(rune('0'+i/26)))
		j.Submit = append(j.Submit, float64(10*i))
		c, ok := dict[users[i]]
		if !ok {
			c = int32(len(j.User.Values))
			dict[users[i]] = c
			j.User.Values = append(j.User.Values, users[i])
		}
		j.User.Codes = append(j.User.Codes, c)
	}
	j.InputBytes.Values = in
	j.ShuffleBytes.Values = sh
	j.OutputBytes.Values = out
	j.Priority.Values = prio
	return j
}

func TestCOSHHPrimary(t *testing.T) {
	const n = 40
	var users []string
	var in, sh, out []int64
	var prio []int32
	for i := 0; i < n; i++ {
		u := []string{"U1", "U2", "U5", "other"}[i%4]
		users = append(users, u)
		scale := int64(1) << (10 * (i % 4)) // four well separated kinds
		in = append(in, 1000*scale+int64(i))
		sh = append(sh, 10*scale)
		out = append(out, 100*scale+int64(i%3))
		prio = append(prio, 1)
	}
	j := synthetic(users, in, sh, out, prio)
	sizes, _, err := estimate.Sizes(j, estimate.SizeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	spec := cluster.DefaultSpec() // U1 and U5 have min shares, U2 none
	primary, secondary, err := COSHH(j, sizes, spec, Options{K: KUsers, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	if len(primary.Rows) != n/2 || primary.K != 2 || secondary.K != 4 {
		t.Fatalf("primary: %d rows, K %d; secondary K %d", len(primary.Rows), primary.K, secondary.K)
	}
	for q, i := range primary.Rows {
		if u := j.UserAt(i); u != "U1" && u != "U5" {
			t.Errorf("primary row %d belongs to %s", i, u)
		}
		if primary.ClassOf(i) != primary.Assign[q] {
			t.Errorf("ClassOf(%d) = %d, want %d", i, primary.ClassOf(i), primary.Assign[q])
		}
	}
	if primary.ClassOf(1) != -1 { // row 1 is U2's
		t.Errorf("ClassOf(U2's row) = %d, want -1", primary.ClassOf(1))
	}
	checkResult(t, primary, j, sizes, spec)
	checkResult(t, secondary, j, sizes, spec)
	// The kinds are recovered: each class is one user's jobs.
	users4 := make([]int32, n)
	for i := range users4 {
		users4[i] = int32(i % 4)
	}
	if ari, _ := AdjustedRand(users4, secondary.Assign); ari != 1 {
		t.Errorf("secondary ARI against the four kinds = %v", ari)
	}
	// The paper's priority feature is the user's priority in the spec (U1
	// 1, U2 and U5 2; "other" is not listed and keeps the job's, 1); the
	// arrival rate is the user's (n/4 jobs over the span).
	wantPrio := map[string]float64{"U1": 1, "U2": 2, "U5": 2, "other": 1}
	for _, c := range secondary.Classes {
		var user string
		for q, a := range secondary.Assign {
			if int(a) == c.ID {
				user = j.UserAt(q)
			}
		}
		if p := c.Centroid[0]; math.Abs(p-wantPrio[user]) > 1e-9 {
			t.Errorf("class of %s: priority centroid %v, want %v", user, p, wantPrio[user])
		}
		if a := c.Centroid[len(c.Centroid)-1]; math.Abs(a-float64(n/4)/secondary.Span) > 1e-12 {
			t.Errorf("class of %s: arrival-rate centroid %v, want %v", user, a, float64(n/4)/secondary.Span)
		}
	}
	// The size features on request: priority is then the job's column,
	// constant here, and z-scoring it must not divide by zero.
	sized, err := Classify(j, sizes, spec, Options{K: 4, Seed: 4})
	if err != nil {
		t.Fatal(err)
	}
	if k := slices.Index(sized.Features, data.ColPriority); k < 0 || sized.Scaling.Std[k] != 1 || sized.FeatureSet != SizeFeatures {
		t.Errorf("features %v, scaling %+v", sized.Features, sized.Scaling)
	} else {
		for _, c := range sized.Classes {
			if c.Centroid[k] != 1 {
				t.Errorf("constant priority: centroid %v", c.Centroid)
			}
		}
	}
}

func TestClassifyEdgeCases(t *testing.T) {
	spec := cluster.DefaultSpec()
	same := func(n int) *data.Jobs {
		var users []string
		var in, sh, out []int64
		var prio []int32
		for i := 0; i < n; i++ {
			users = append(users, "u")
			in, sh, out, prio = append(in, 5), append(sh, 6), append(out, 7), append(prio, 1)
		}
		return synthetic(users, in, sh, out, prio)
	}
	t.Run("all identical", func(t *testing.T) {
		j := same(30)
		sizes, _, _ := estimate.Sizes(j, estimate.SizeOptions{})
		for _, k := range []int{KAuto, 1, 4} {
			r, err := Classify(j, sizes, spec, Options{K: k})
			if err != nil {
				t.Fatal(err)
			}
			if r.K != 1 || r.Inertia != 0 || !math.IsNaN(r.Silhouette) {
				t.Errorf("k=%d: K %d, inertia %v, silhouette %v", k, r.K, r.Inertia, r.Silhouette)
			}
			if k != 1 && len(r.Warnings) == 0 {
				t.Errorf("k=%d: no warning about the reduced k", k)
			}
			if c := r.Classes[0].Centroid; math.Abs(c[1]-5) > 1e-9 || math.Abs(c[3]-7) > 1e-9 {
				t.Errorf("centroid %v, want input 5, output 7", c)
			}
			checkResult(t, r, j, sizes, spec)
		}
	})
	t.Run("k above distinct points", func(t *testing.T) {
		j := same(30)
		j.InputBytes.Values[3], j.InputBytes.Values[9] = 5000, 9e9
		sizes, _, _ := estimate.Sizes(j, estimate.SizeOptions{})
		r, err := Classify(j, sizes, spec, Options{K: 8})
		if err != nil {
			t.Fatal(err)
		}
		if r.K != 3 || !strings.Contains(strings.Join(r.Warnings, ";"), "k = 8 reduced to 3") {
			t.Errorf("K %d, warnings %v", r.K, r.Warnings)
		}
		if r.ClassOf(9) != 2 || r.ClassOf(3) != 1 || r.ClassOf(0) != 0 {
			t.Errorf("classes of rows 1, 4, 10: %d %d %d", r.ClassOf(0), r.ClassOf(3), r.ClassOf(9))
		}
		checkResult(t, r, j, sizes, spec)
	})
	t.Run("NaN feature", func(t *testing.T) {
		j := same(10)
		sizes, _, _ := estimate.Sizes(j, estimate.SizeOptions{})
		sizes[6] = math.NaN()
		_, err := Classify(j, sizes, spec, Options{})
		if err == nil || !strings.Contains(err.Error(), `row 7 (job jg0): size NaN`) {
			t.Errorf("error %v", err)
		}
	})
	t.Run("null feature", func(t *testing.T) {
		j := same(10)
		j.OutputBytes.Valid = data.NewBitmap(10)
		j.OutputBytes.Valid.SetNull(2)
		sizes, _, _ := estimate.Sizes(j, estimate.SizeOptions{})
		_, err := Classify(j, sizes, spec, Options{Features: []string{data.ColOutputBytes}})
		if err == nil || !strings.Contains(err.Error(), `row 3 (job jc0): feature "output_bytes" is null`) {
			t.Errorf("error %v", err)
		}
		// The default set leaves the column out, with a warning.
		r, err := Classify(j, sizes, spec, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if slices.Contains(r.Features, data.ColOutputBytes) || len(r.Warnings) == 0 {
			t.Errorf("features %v, warnings %v", r.Features, r.Warnings)
		}
	})
	t.Run("missing feature", func(t *testing.T) {
		j := same(10)
		sizes, _, _ := estimate.Sizes(j, estimate.SizeOptions{})
		_, err := Classify(j, sizes, spec, Options{Features: []string{FeatDuration}})
		if err == nil || !strings.Contains(err.Error(), `"duration": the job log has no such column`) {
			t.Errorf("error %v", err)
		}
	})
	t.Run("bad options", func(t *testing.T) {
		j := same(10)
		sizes, _, _ := estimate.Sizes(j, estimate.SizeOptions{})
		if _, err := Classify(j, sizes, spec, Options{K: -5}); err == nil {
			t.Error("k = -5 accepted")
		}
		if _, err := Classify(j, sizes, spec, Options{KMin: 5, KMax: 3}); err == nil {
			t.Error("empty k range accepted")
		}
		if _, err := Classify(j, sizes[:3], spec, Options{}); err == nil {
			t.Error("3 sizes for 10 jobs accepted")
		}
	})
}

func TestParseFeaturesAndMethod(t *testing.T) {
	f, err := ParseFeatures(" size, input_bytes ")
	if err != nil || !slices.Equal(f, []string{"size", "input_bytes"}) {
		t.Errorf("%v %v", f, err)
	}
	for _, bad := range []string{"size,size", "bogus"} {
		if _, err := ParseFeatures(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	for s, want := range map[string]Method{"log": Log, "z": ZScore, "none": None, "auto": Auto} {
		if m, err := ParseMethod(s); err != nil || m != want {
			t.Errorf("ParseMethod(%q) = %v, %v", s, m, err)
		}
	}
	if _, err := ParseMethod("sqrt"); err == nil {
		t.Error("sqrt accepted")
	}
	for in, want := range map[string]Init{"k-means++": KMeansPlusPlus, "greedy": GreedyKMeansPlusPlus, "uniform": Uniform} {
		if got, err := ParseInit(in); err != nil || got != want || (in != "greedy" && got.String() != in) {
			t.Errorf("ParseInit(%q) = %v, %v", in, got, err)
		}
	}
	if _, err := ParseInit("best"); err == nil {
		t.Error("init best accepted")
	}
	all, per, err := ParseScaling("z, size=log,priority=none")
	if err != nil || all != ZScore || len(per) != 2 || per["size"] != Log || per["priority"] != None {
		t.Errorf("ParseScaling: %v %v %v", all, per, err)
	}
	for _, bad := range []string{"size=log,z", "bogus=z", "size=sqrt", "size=z,size=log", "sqrt"} {
		if _, _, err := ParseScaling(bad); err == nil {
			t.Errorf("ParseScaling(%q) accepted", bad)
		}
	}
	// Per-feature overrides reach the fitted scaling.
	j, sizes := embedded(t, "embedded:fb2009-50")
	r, err := Classify(j, sizes, nil, Options{K: 2, Scaling: ZScore, FeatureScaling: per})
	if err != nil {
		t.Fatal(err)
	}
	if want := []Method{Log, ZScore, ZScore, ZScore}; !slices.Equal(r.Scaling.Methods, want) {
		t.Errorf("methods %v, want %v", r.Scaling.Methods, want)
	}
}

func TestScalingRoundTrip(t *testing.T) {
	x := mat.NewDense(4, 4, []float64{
		0, 1, 7, -3,
		1e9, 2, 7, 0,
		5, 3, 7, 3,
		1e3, 4, 7, 6,
	})
	s, err := FitScaling(x, []Method{Log, ZScore, ZScore, None})
	if err != nil {
		t.Fatal(err)
	}
	if s.Std[2] != 1 || s.Mean[2] != 7 || s.Mean[3] != 0 || s.Std[3] != 1 {
		t.Errorf("scaling %+v", s)
	}
	z := s.Apply(x)
	// z-scored columns have mean 0 and variance 1.
	for _, c := range []int{0, 1} {
		col := mat.Col(nil, c, z)
		m, v := 0.0, 0.0
		for _, e := range col {
			m += e / 4
		}
		for _, e := range col {
			v += (e - m) * (e - m) / 4
		}
		if math.Abs(m) > 1e-12 || math.Abs(v-1) > 1e-12 {
			t.Errorf("column %d: mean %v, variance %v", c, m, v)
		}
	}
	for i := 0; i < 4; i++ {
		back := s.Inverse(nil, mat.Row(nil, i, z))
		for c, v := range back {
			if want := x.At(i, c); math.Abs(v-want) > 1e-9*math.Max(1, math.Abs(want)) {
				t.Errorf("row %d col %d: %v back as %v", i, c, want, v)
			}
		}
	}
	if _, err := FitScaling(x, []Method{Log}); err == nil {
		t.Error("1 method for 4 features accepted")
	}
}

func TestLabelTable4(t *testing.T) {
	// Seed 003, Table 4 (Chen et al.): input, shuffle, output per category.
	const KB, MB, GB, TB = 1e3, 1e6, 1e9, 1e12
	for _, tc := range []struct {
		name        string
		in, sh, out float64
		want        string
	}{
		{"FB small jobs", 21 * KB, 0, 871 * KB, "small"},
		{"FB fast data load", 381 * KB, 0, 1.9 * GB, "load"},
		{"FB huge data load", 446 * KB, 0, 1.1 * TB, "load"},
		{"FB fast aggregate", 230 * GB, 8.8 * GB, 491 * MB, "aggregate"},
		{"FB aggregate and expand", 1.9 * TB, 502 * MB, 2.6 * GB, "aggregate"},
		{"FB expand and aggregate", 418 * GB, 2.5 * TB, 45 * GB, "expand"},
		{"FB data transform", 255 * GB, 788 * GB, 1.6 * GB, "transform"},
		{"FB data summary", 7.6 * TB, 51 * GB, 104 * KB, "summary"},
		{"Y small jobs", 174 * MB, 73 * MB, 6 * MB, "small"},
		{"Y fast aggregate", 568 * GB, 76 * GB, 3.9 * GB, "aggregate"},
		{"Y expand and aggregate", 206 * GB, 1.5 * TB, 133 * MB, "expand"},
		{"Y transform expand", 806 * GB, 235 * GB, 10 * TB, "expand"},
		{"Y data summary", 4.9 * TB, 78 * GB, 775 * MB, "summary"},
		{"Y large data summary", 31 * TB, 937 * GB, 475 * MB, "summary"},
		{"Y data transform", 36 * GB, 15 * GB, 4 * GB, "transform"},
		{"Y large data transform", 5.5 * TB, 10 * TB, 2.5 * TB, "transform"},
	} {
		if got := Label(tc.in, tc.sh, tc.out, 1<<30); got != tc.want {
			t.Errorf("%s: label %q, want %q", tc.name, got, tc.want)
		}
	}
	if Label(math.NaN(), 0, 0, 1) != "" {
		t.Error("unknown bytes labelled")
	}
	// Repeated labels are numbered in order of size; no bytes: by size.
	cl := []Class{{MeanSize: 1, Count: 10}, {MeanSize: 2, Count: 10}, {MeanSize: 1000, Count: 1}}
	for i := range cl {
		cl[i].MeanInputBytes, cl[i].MeanShuffleBytes, cl[i].MeanOutputBytes = math.NaN(), math.NaN(), math.NaN()
	}
	labelClasses(cl, 1<<30)
	got := []string{cl[0].Label, cl[1].Label, cl[2].Label}
	sort.Strings(got)
	if !slices.Equal(got, []string{"large", "small-1", "small-2"}) {
		t.Errorf("labels %v", got)
	}
}

func TestTables(t *testing.T) {
	j, sizes := embedded(t, "embedded:fb2009-50")
	primary, secondary, err := COSHH(j, sizes, nil, Options{K: 3, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	tab := Table(primary, secondary)
	path := t.TempDir() + "/classes.parquet"
	if err := data.WriteFileAtomic(path, false, func(w io.Writer) error { return data.WriteTable(w, tab, data.FormatParquet) }); err != nil {
		t.Fatal(err)
	}
	back, err := data.ReadTable(path, data.FormatParquet)
	if err != nil {
		t.Fatal(err)
	}
	// 13 columns, μ on 6 types, centroids of 8 paper features.
	if back.Len() != 3 || len(back.Names) != 13+6+8 {
		t.Fatalf("classes table: %d rows, columns %v", back.Len(), back.Names)
	}
	jobs, _ := back.Col("jobs").([]int64)
	alpha, _ := back.Col("alpha_per_s").([]float64)
	mu, _ := back.Col("mu_R2").([]float64)
	dur, _ := back.Col("mean_duration_s").([]float64)
	total := int64(0)
	for k, c := range secondary.Classes {
		total += jobs[k]
		if jobs[k] != int64(c.Count) || alpha[k] != c.Alpha || mu[k] != c.Mu[1] || !math.IsNaN(dur[k]) {
			t.Errorf("row %d: jobs %d α %v μ %v duration %v; class %+v", k, jobs[k], alpha[k], mu[k], dur[k], c)
		}
	}
	if total != 50 {
		t.Errorf("Σ jobs = %d", total)
	}
	jt := JobsTable(j, primary, secondary)
	if !slices.Equal(jt.Names, []string{"job_id", "primary_class", "secondary_class"}) || jt.Len() != 50 {
		t.Fatalf("jobs table %v, %d rows", jt.Names, jt.Len())
	}
	if p := jt.Col("primary_class").([]int32); p[0] != -1 || !slices.Equal(jt.Col("secondary_class").([]int32), secondary.Assign) {
		t.Errorf("jobs table classes %v", jt.Cols)
	}
}

func TestResultJSON(t *testing.T) {
	j, sizes := embedded(t, "embedded:fb2009-50")
	primary, secondary, err := COSHH(j, sizes, nil, Options{K: 3, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(secondary)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"mean_duration_s":null`, `"jobs":50`, `"k":3`, `"name":"secondary"`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("JSON lacks %s: %s", want, b)
		}
	}
	if b, err = json.Marshal(primary); err != nil || !strings.Contains(string(b), `"silhouette":null`) {
		t.Errorf("empty primary JSON %s, %v", b, err)
	}
	// A round trip keeps everything but the per-job assignment, NaN
	// included, and the decoded result still predicts.
	for _, r := range []*Result{primary, secondary} {
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		var back Result
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		b2, err := json.Marshal(&back)
		if err != nil || string(b2) != strings.Replace(string(b), fmt.Sprintf(`"jobs":%d`, r.Jobs()), `"jobs":0`, 1) {
			t.Errorf("round trip:\n%s\n%s", b, b2)
		}
		if len(r.Classes) > 0 {
			if !math.IsNaN(back.Classes[0].MeanDuration) || back.Inertia != r.Inertia || back.Classes[1].Alpha != r.Classes[1].Alpha {
				t.Errorf("decoded %+v", back.Classes[0])
			}
			p1, _ := r.PredictRows(j, sizes, nil)
			p2, err := back.PredictRows(j, sizes, nil)
			if err != nil || !slices.Equal(p1, p2) {
				t.Errorf("predictions after a round trip differ: %v", err)
			}
		} else if !math.IsNaN(back.Silhouette) || back.Reason != r.Reason {
			t.Errorf("empty result decoded as %+v", back)
		}
	}
	var bad Result
	if err := json.Unmarshal([]byte(`{"features":["size"],"classes":[{"id":0}],"centers_scaled":[[1,2]]}`), &bad); err == nil {
		t.Error("a centre of 2 values for 1 feature accepted")
	}
}

func TestParseK(t *testing.T) {
	for s, want := range map[string]int{"auto": KAuto, "users": KUsers, "7": 7} {
		if k, err := ParseK(s); err != nil || k != want {
			t.Errorf("ParseK(%q) = %d, %v", s, k, err)
		}
	}
	for _, bad := range []string{"0", "-1", "many"} {
		if _, err := ParseK(bad); err == nil {
			t.Errorf("ParseK(%q) accepted", bad)
		}
	}
}

func TestClassifyAllColumns(t *testing.T) {
	// Two kinds of jobs with every optional column: short map-only loads
	// and long map-reduce aggregations.
	var users []string
	var in, sh, out []int64
	var prio []int32
	const n = 12
	for i := 0; i < n; i++ {
		users = append(users, "u")
		if i%2 == 0 {
			in, sh, out = append(in, 1e3), append(sh, 0), append(out, 5e11)
		} else {
			in, sh, out = append(in, 4e12), append(sh, 1e10), append(out, 1e9)
		}
		prio = append(prio, int32(1+i%2))
	}
	j := synthetic(users, in, sh, out, prio)
	for i := 0; i < n; i++ {
		long := float64(i % 2)
		j.Start.Values = append(j.Start.Values, j.Submit[i]+1)
		j.Finish.Values = append(j.Finish.Values, j.Submit[i]+1+30+3000*long+float64(i))
		j.MapTaskSeconds.Values = append(j.MapTaskSeconds.Values, 20+1e5*long)
		j.ReduceTaskSeconds.Values = append(j.ReduceTaskSeconds.Values, 6e4*long)
		j.MapTasks.Values = append(j.MapTasks.Values, int32(1+99*long))
		j.ReduceTasks.Values = append(j.ReduceTasks.Values, int32(30*long))
		j.Size.Values = append(j.Size.Values, 20+1.6e5*long)
	}
	sizes, _, err := estimate.Sizes(j, estimate.SizeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := Classify(j, sizes, nil, Options{K: 2})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r.Features, AllFeatures) {
		t.Errorf("default features %v, want all %v", r.Features, AllFeatures)
	}
	checkResult(t, r, j, sizes, cluster.DefaultSpec())
	short, long := r.Classes[0], r.Classes[1]
	// Durations: 30+i for even i (mean of 30, 32, …, 40 = 35) and 3030+i
	// for odd i (mean of 3031, …, 3041 = 3036).
	for _, tc := range []struct {
		name      string
		got, want float64
	}{
		{"short duration", short.MeanDuration, 35},
		{"long duration", long.MeanDuration, 3036},
		{"short map time", short.MeanMapTaskSeconds, 20},
		{"long reduce time", long.MeanReduceTaskSeconds, 6e4},
		{"long input", long.MeanInputBytes, 4e12},
		{"short size", short.MeanSize, 20},
	} {
		if math.Abs(tc.got-tc.want) > 1e-9*math.Abs(tc.want) {
			t.Errorf("%s = %v, want %v", tc.name, tc.got, tc.want)
		}
	}
	if short.Label != "load" || long.Label != "summary" || short.Count != 6 {
		t.Errorf("labels %q (%d jobs), %q", short.Label, short.Count, long.Label)
	}
}
