package prism

import (
	"strings"
	"testing"
)

// Tables 1–2 of seed 004, checked for transcription slips: a job runs at
// least one map then one reduce task, so its running time is at least the
// two mean task times; class names are unique and lower case.
func TestMixesConsistent(t *testing.T) {
	seen := map[string]bool{}
	for _, m := range []Mix{PUMAMix(), GridmixMix()} {
		if len(m.Jobs) == 0 || len(m.BatchSizes) == 0 || !strings.Contains(m.Source, "Table") {
			t.Errorf("%s: %+v", m.Name, m)
		}
		for _, j := range m.Jobs {
			if j.Class != strings.ToLower(j.Class) || seen[j.Class] {
				t.Errorf("%s: class %q", m.Name, j.Class)
			}
			seen[j.Class] = true
			if j.Maps <= 0 || j.Reduces <= 0 || !(j.JobSeconds >= j.MapTaskSeconds+j.ReduceTaskSeconds) {
				t.Errorf("%s %s: %+v", m.Name, j.Name, j)
			}
		}
	}
	if len(seen) != 7 {
		t.Errorf("%d job types, want 7 (4 PUMA + 3 Gridmix)", len(seen))
	}
}

// A batch takes the job types in turn; only sort has a measured profile,
// the others fall back (seed 004 §4).
func TestMixBatch(t *testing.T) {
	m := PUMAMix()
	b, err := m.Batch(50)
	if err != nil {
		t.Fatal(err)
	}
	count := map[string]int{}
	for _, j := range b {
		count[j.Class]++
	}
	if count["sort"] != 13 || count["self-join"] != 13 || count["inverted-index"] != 12 || count["classification"] != 12 {
		t.Errorf("batch of 50: %v", count)
	}
	for _, n := range []int{-1, MaxBatch + 1} {
		if _, err := m.Batch(n); err == nil {
			t.Errorf("batch %d accepted", n)
		}
	}
	if _, err := (Mix{Name: "none"}).Batch(3); err == nil {
		t.Error("empty mix accepted")
	}
	ps := DefaultProfiles()
	for _, j := range append(PUMAMix().Jobs, GridmixMix().Jobs...) {
		p := ps.For(j.Class, Vector{CPU: 1}, Vector{CPU: 1})
		if p.Fallback { // every mix class has a (measured or derived) profile
			t.Errorf("%s: fallback = %v", j.Class, p.Fallback)
		}
	}
}

func TestVectorString(t *testing.T) {
	got := Seed004Machine().String()
	if got != "cpu 4 cores, mem 8 GB, disk 100 MB/s, net 125 MB/s" {
		t.Errorf("%q", got)
	}
	if err := (Vector{Memory: 1e16}).Check("m"); err == nil || !strings.Contains(err.Error(), "mem") || !strings.Contains(err.Error(), "GB") {
		t.Errorf("huge memory: %v", err)
	}
}
