package prism

import (
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// seed004Classes are the job classes of seed 004's mixes (Tables 1–2), the
// classes of the default profile file.
var seed004Classes = []string{"classification", "combiner", "inverted-index", "monsterquery", "self-join", "sort", "webdatascan"}

// The default sort profile is seed 004 Fig. 8's sort job, converted as the
// file's header says (CPU % / 100 cores, Mem % of 8 GB).
func TestDefaultProfilesFig8(t *testing.T) {
	s := DefaultProfiles()
	if got := s.Classes(); !slices.Equal(got, seed004Classes) {
		t.Fatalf("classes %v, want %v", got, seed004Classes)
	}
	p, ok := s.Lookup("Sort")
	if !ok || p.Fallback {
		t.Fatalf("sort: %+v, %v", p, ok)
	}
	want := [NumSides][]Phase{
		{
			{Kind: PhaseMap, Duration: 7.43, Demand: Vector{0.1742, 0.0135 * 8, 3.98, 0}, HDFS: 7.17},
			{Kind: PhaseMerge, Duration: 1.25, Demand: Vector{0.1435, 0.0140 * 8, 34.31, 0}},
		},
		{
			{Kind: PhaseShuffle, Duration: 9.07, Demand: Vector{0.2158, 0.0211 * 8, 5.71, 7.16}},
			{Kind: PhaseSort, Duration: 0.64, Demand: Vector{0.075, 0.0237 * 8, 11.17, 0}},
			{Kind: PhaseReduce, Duration: 9.69, Demand: Vector{0.0821, 0.0233 * 8, 5.29, 0}, HDFS: 5.30},
		},
	}
	for side := range NumSides {
		if len(p.Sides[side]) != len(want[side]) {
			t.Fatalf("%s: %d phases", Side(side), len(p.Sides[side]))
		}
		for i, w := range want[side] {
			g := p.Sides[side][i]
			ok := g.Kind == w.Kind && prismNear(g.Duration, w.Duration) && prismNear(g.HDFS, w.HDFS)
			for d := range NumDims {
				ok = ok && prismNear(g.Demand[d], w.Demand[d])
			}
			if !ok {
				t.Errorf("%s phase %d = %+v, want %+v", Side(side), i, g, w)
			}
		}
	}
}

// The derived profiles (the default file's header): Fig. 8's durations and
// demands for every class, except one core in the map and reduce phases of
// the CPU-intensive classes of seed 004 §6 (self-join, Combiner); every
// mix class has a profile.
func TestDefaultProfilesDerived(t *testing.T) {
	s := DefaultProfiles()
	sort, _ := s.Lookup("sort")
	for _, m := range []Mix{PUMAMix(), GridmixMix()} {
		for _, j := range m.Jobs {
			p, ok := s.Lookup(j.Class)
			if !ok || p.Fallback || p.Source == "" {
				t.Fatalf("%s: no profile (%+v)", j.Class, p)
			}
			cpuBound := j.Intensity == "cpu"
			for side := range NumSides {
				for i, ph := range p.Sides[side] {
					want := sort.Sides[side][i]
					if cpuBound && (ph.Kind == PhaseMap || ph.Kind == PhaseReduce) {
						want.Demand[CPU] = 1
					}
					if ph != want {
						t.Errorf("%s %s phase: %+v, want %+v", j.Class, ph.Kind, ph, want)
					}
				}
			}
		}
	}
}

// §5.2: HDFS I/O is local disk I/O for a data-local task, network I/O
// otherwise.
func TestDemandOnLocality(t *testing.T) {
	ph := Phase{Kind: PhaseMap, Demand: Vector{CPU: 0.2, Disk: 4, Network: 1}, HDFS: 7}
	if got, want := ph.DemandOn(true), (Vector{CPU: 0.2, Disk: 11, Network: 1}); got != want {
		t.Errorf("local: %v, want %v", got, want)
	}
	if got, want := ph.DemandOn(false), (Vector{CPU: 0.2, Disk: 4, Network: 8}); got != want {
		t.Errorf("remote: %v, want %v", got, want)
	}
}

// A task's phases scale to its duration in the profile's proportions:
// Table 2's sort map task (10.87 s) split as Fig. 8's map/merge (7.43/1.25).
func TestTaskPhasesScale(t *testing.T) {
	p, _ := DefaultProfiles().Lookup("sort")
	ph, err := p.TaskPhases(nil, MapSide, 10.87)
	if err != nil {
		t.Fatal(err)
	}
	if len(ph) != 2 || !prismNear(ph[0].Duration, 10.87*7.43/8.68) || !prismNear(ph[1].Duration, 10.87*1.25/8.68) || ph[0].Demand != p.Sides[MapSide][0].Demand {
		t.Errorf("phases %+v", ph)
	}
	for _, bad := range []float64{-1, math.NaN(), math.Inf(1)} {
		if _, err := p.TaskPhases(nil, MapSide, bad); err == nil || !strings.Contains(err.Error(), "duration") {
			t.Errorf("duration %v: err %v", bad, err)
		}
	}
	mapOnly := Profile{Class: "scan", Sides: [NumSides][]Phase{p.Sides[MapSide], nil}}
	if _, err := mapOnly.TaskPhases(nil, ReduceSide, 5); err == nil || !strings.Contains(err.Error(), "no reduce phases") {
		t.Errorf("map-only class, reduce task: err %v", err)
	}
}

// Seed 004 §4's fallback: without a profile every phase has the task-level
// demand; durations in the proportions of the file's fallback_shape (sort).
func TestFallbackProfile(t *testing.T) {
	mapTask := Vector{CPU: 1, Memory: 1}
	redTask := Vector{CPU: 0.5, Memory: 2, Network: 10}
	p := DefaultProfiles().For("Word-Count", mapTask, redTask)
	if !p.Fallback || p.Class != "word-count" {
		t.Fatalf("profile %+v", p)
	}
	for side, d := range [NumSides]Vector{mapTask, redTask} {
		kinds := SidePhases(Side(side))
		if len(p.Sides[side]) != len(kinds) {
			t.Fatalf("%s: %d phases", Side(side), len(p.Sides[side]))
		}
		for i, ph := range p.Sides[side] {
			if ph.Kind != kinds[i] || ph.Demand != d || ph.HDFS != 0 {
				t.Errorf("%s phase %d: %+v, want demand %v", Side(side), i, ph, d)
			}
		}
	}
	ph, _ := p.TaskPhases(nil, ReduceSide, 19.4)
	if !prismNear(ph[0].Duration, 9.07) || !prismNear(ph[1].Duration, 0.64) || !prismNear(ph[2].Duration, 9.69) {
		t.Errorf("fallback reduce phases %+v, want Fig. 8's 9.07/0.64/9.69 s", ph)
	}
	// A profiled class is returned as is.
	if q := DefaultProfiles().For("sort", mapTask, redTask); q.Fallback {
		t.Error("sort fell back")
	}
	// Without a shape, phases split a task equally.
	eq := FallbackProfile("x", mapTask, redTask, nil)
	ph, _ = eq.TaskPhases(nil, ReduceSide, 3)
	if ph[0].Duration != 1 || ph[1].Duration != 1 || ph[2].Duration != 1 {
		t.Errorf("equal split %+v", ph)
	}
}

const goodProfile = `version: 1
profiles:
  scan:
    map:
      map:   {duration_s: 2, cpu_cores: 1}
      merge: {duration_s: 1, disk_mb_s: 5}
`

// Bad files: each error names the file, the line and the field.
func TestParseProfilesErrors(t *testing.T) {
	if _, err := ParseProfiles([]byte(goodProfile), "p.yaml"); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, text string
		want       []string
	}{
		{"empty", "", []string{"p.yaml", "empty"}},
		{"version", "version: 2\nprofiles: {}\n", []string{"p.yaml:1", "version", "not supported"}},
		{"no profiles", "version: 1\n", []string{"p.yaml", "profiles", "no profiles"}},
		{"unknown field", strings.Replace(goodProfile, "cpu_cores", "cpu", 1), []string{"p.yaml", "line 5", "field cpu not found"}},
		{"negative", strings.Replace(goodProfile, "cpu_cores: 1", "cpu_cores: -1", 1), []string{"p.yaml:5", "profiles.scan.map.map.cpu_cores", "-1"}},
		{"nan", strings.Replace(goodProfile, "disk_mb_s: 5", "disk_mb_s: .nan", 1), []string{"p.yaml:6", "profiles.scan.map.merge.disk_mb_s", "NaN"}},
		{"huge", strings.Replace(goodProfile, "disk_mb_s: 5", "disk_mb_s: 1e300", 1), []string{"p.yaml:6", "disk_mb_s", "1e+300"}},
		{"inf duration", strings.Replace(goodProfile, "duration_s: 2", "duration_s: .inf", 1), []string{"p.yaml:5", "profiles.scan.map.map.duration_s", "+Inf"}},
		{"missing duration", strings.Replace(goodProfile, "duration_s: 1, ", "", 1), []string{"p.yaml:6", "profiles.scan.map.merge", "duration_s is missing"}},
		{"zero durations", strings.Replace(strings.Replace(goodProfile, "duration_s: 1", "duration_s: 0", 1), "duration_s: 2", "duration_s: 0", 1), []string{"p.yaml:4", "profiles.scan.map", "positive total"}},
		{"unknown phase", strings.Replace(goodProfile, "merge:", "spill:", 1), []string{"p.yaml:6", "profiles.scan.map.spill", "not a map-task phase"}},
		{"reduce phase on map side", strings.Replace(goodProfile, "merge:", "sort:", 1), []string{"p.yaml:6", "profiles.scan.map.sort", "not a map-task phase"}},
		{"missing phase", "version: 1\nprofiles:\n  x:\n    reduce:\n      shuffle: {duration_s: 1}\n      reduce: {duration_s: 1}\n", []string{"p.yaml:4", "profiles.x.reduce", "phase sort is missing"}},
		{"no sides", "version: 1\nprofiles:\n  x:\n    source: nothing\n", []string{"p.yaml:3", "profiles.x", "neither map nor reduce"}},
		{"duplicate class", goodProfile + "  Scan:\n    map: {map: {duration_s: 1}, merge: {duration_s: 1}}\n", []string{"p.yaml", "profiles.scan", "appears twice"}},
		{"duplicate key", goodProfile + "  scan:\n    map: {}\n", []string{"p.yaml", "line 7", "already defined"}},
		{"empty class", "version: 1\nprofiles:\n  \"\":\n    map: {map: {duration_s: 1}, merge: {duration_s: 1}}\n", []string{"p.yaml:3", "class name is empty"}},
		{"fallback shape", "version: 1\nfallback_shape: sort\n" + strings.TrimPrefix(goodProfile, "version: 1\n"), []string{"p.yaml:2", "fallback_shape", `"sort" has no profile`}},
		{"not a mapping", "version: 1\nprofiles: [1, 2]\n", []string{"p.yaml", "line 2", "cannot unmarshal"}},
	} {
		_, err := ParseProfiles([]byte(c.text), "p.yaml")
		if err == nil {
			t.Errorf("%s: accepted", c.name)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not contain %q", c.name, err, w)
			}
		}
	}
}

func TestLoadProfiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "profiles.json")
	// JSON is YAML: the same document in JSON loads.
	js := `{"version": 1, "fallback_shape": "scan", "profiles": {"scan": {"map": {"map": {"duration_s": 3, "cpu_cores": 0.5}, "merge": {"duration_s": 1}}}}}`
	if err := os.WriteFile(path, []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := LoadProfiles(path)
	if err != nil {
		t.Fatal(err)
	}
	p, ok := s.Lookup("scan")
	if !ok || p.Sides[MapSide][0].Demand[CPU] != 0.5 || p.Sides[ReduceSide] != nil {
		t.Errorf("scan: %+v", p)
	}
	fb := s.For("other", Vector{CPU: 1}, Vector{CPU: 2})
	if ph, _ := fb.TaskPhases(nil, MapSide, 8); ph[0].Duration != 6 || ph[1].Duration != 2 {
		t.Errorf("fallback shaped by scan: %+v", ph)
	}
	if _, err := LoadProfiles(filepath.Join(dir, "missing.yaml")); err == nil || !strings.Contains(err.Error(), "missing.yaml") {
		t.Errorf("missing file: %v", err)
	}
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("version: 1\nprofiles:\n  x: {map: {map: {duration_s: -3}, merge: {duration_s: 1}}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadProfiles(bad); err == nil || !strings.Contains(err.Error(), bad+":3") || !strings.Contains(err.Error(), "duration_s") {
		t.Errorf("bad file: %v", err)
	}
	d, err := LoadProfiles("default")
	if err != nil || !slices.Equal(d.Classes(), seed004Classes) {
		t.Errorf("default: %v %v", d, err)
	}
	if !strings.Contains(string(DefaultProfilesYAML()), "Fig. 8") {
		t.Error("default YAML lacks its source")
	}
}

// FuzzParseProfiles: any input is a valid profile set or an error naming
// the file; never a panic; every parsed profile splits a task.
func FuzzParseProfiles(f *testing.F) {
	f.Add(goodProfile)
	f.Add(string(DefaultProfilesYAML()))
	f.Add("version: 1\nprofiles:\n  x: {reduce: {shuffle: {duration_s: 1e308}, sort: {duration_s: 1e308}, reduce: {duration_s: 1}}}\n")
	f.Add("version: 1\nprofiles: {a: {map: {map: {duration_s: 0}, merge: {duration_s: 0}}}}")
	f.Add("{")
	f.Fuzz(func(t *testing.T, text string) {
		s, err := ParseProfiles([]byte(text), "f.yaml")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.yaml") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		for _, c := range s.Classes() {
			p, _ := s.Lookup(c)
			for side := range NumSides {
				if p.Sides[side] == nil {
					continue
				}
				ph, err := p.TaskPhases(nil, Side(side), 10)
				if err != nil {
					t.Fatal(err)
				}
				total := 0.0
				for _, x := range ph {
					total += x.Duration
				}
				if !prismNear(total, 10) {
					t.Fatalf("%s %s phases sum to %v s, not 10", c, Side(side), total)
				}
			}
		}
	})
}
