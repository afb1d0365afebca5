package pipeline

import (
	"context"
	"testing"
)

// TestTuneCOSHHDropsRowLabels: tune-coshh's fit keeps no per-row labels
// (they were live from tune-coshh to validate's end: 28 MB at a 7 M-row
// tuning window), as the fit a resumed run loads from the stamp has none.
func TestTuneCOSHHDropsRowLabels(t *testing.T) {
	in, err := Prepare(testConfig())
	if err != nil {
		t.Fatal(err)
	}
	p := &pipelineRun{in: in}
	if _, err := p.tuneCOSHH(context.Background()); err != nil {
		t.Fatal(err)
	}
	f := p.coshh.Fit
	if f == nil {
		t.Fatalf("no COSHH fit: %s", p.coshh.Note)
	}
	if len(f.Secondary.Classes) == 0 {
		t.Fatal("the fit has no secondary classes")
	}
	for _, r := range []struct {
		name         string
		rows, assign int
	}{{"primary", len(f.Primary.Rows), len(f.Primary.Assign)}, {"secondary", len(f.Secondary.Rows), len(f.Secondary.Assign)}} {
		if r.rows != 0 || r.assign != 0 {
			t.Errorf("%s classification of the fit keeps %d rows and %d labels, want none", r.name, r.rows, r.assign)
		}
	}
}
