package classify

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/estimate"
)

// COSHH reads no job id but to name a job in an error: on a log whose
// first rows' ids were released (data.Jobs.KeepRows, as a run keeps the
// validation window's alone when classify starts) it classifies as on
// the whole log, and an error at a released row names the row with its
// user and submit time (the row number alone does not find the job in a
// log ingest sorted or filtered; the code before crashed on the id's
// DroppedRowError) while one at a kept row still names its job.
func TestCOSHHReleasedIDs(t *testing.T) {
	const n = 2000
	j, sizes := pinLog(n)
	spec := cluster.DefaultSpec()
	opt := Options{K: 3, Seed: 1}
	wp, ws, err := COSHH(j, sizes, spec, opt)
	if err != nil {
		t.Fatal(err)
	}
	kept, _ := pinLog(n)
	if err := kept.KeepRows(n/2, n, "job_id"); err != nil {
		t.Fatal(err)
	}
	gp, gs, err := COSHH(kept, sizes, spec, opt)
	if err != nil {
		t.Fatal(err)
	}
	if string(digest(digest(nil, gp), gs)) != string(digest(digest(nil, wp), ws)) {
		t.Error("released ids: another classification")
	}
	for _, tc := range []struct {
		row  int
		want string
	}{
		{10, fmt.Sprintf("row 11 (user %q, submit time %v s): size NaN", j.UserAt(10), j.Submit[10])},
		{n - 3, "row 1998 (job " + j.ID.At(n-3) + "): size NaN"},
	} {
		bad := slices.Clone(sizes)
		bad[tc.row] = math.NaN()
		_, _, err := COSHH(kept, bad, spec, opt)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("row %d: error %v, want %q", tc.row, err, tc.want)
		}
	}
}

// Options.SizeScale reads the sizes in another unit where they are read:
// the very classifications of the scaled copy estimate.ContainerSeconds
// makes, for the paper features and the size features.
func TestSizeScale(t *testing.T) {
	const n = 3000
	j, sizes := pinLog(n)
	spec := cluster.DefaultSpec()
	const capacity = 37.5
	scaled := estimate.ContainerSeconds(sizes, estimate.FromBytes, estimate.SizeOptions{}, capacity)
	if s := estimate.ContainerScale(estimate.FromBytes, estimate.SizeOptions{}, capacity); s != capacity {
		t.Fatalf("ContainerScale = %v, want %v", s, capacity)
	}
	opt := Options{K: 3, Seed: 2}
	wp, ws, err := COSHH(j, scaled, spec, opt)
	if err != nil {
		t.Fatal(err)
	}
	opt.SizeScale = capacity
	gp, gs, err := COSHH(j, sizes, spec, opt)
	if err != nil {
		t.Fatal(err)
	}
	if string(digest(digest(nil, gp), gs)) != string(digest(digest(nil, wp), ws)) {
		t.Error("COSHH: SizeScale differs from the scaled copy")
	}
	opt.SizeScale = 0
	want, err := Classify(j, scaled, spec, opt)
	if err != nil {
		t.Fatal(err)
	}
	opt.SizeScale = capacity
	got, err := Classify(j, sizes, spec, opt)
	if err != nil {
		t.Fatal(err)
	}
	if string(digest(nil, got)) != string(digest(nil, want)) || !slices.Equal(got.Features, want.Features) {
		t.Error("Classify: SizeScale differs from the scaled copy")
	}
}
