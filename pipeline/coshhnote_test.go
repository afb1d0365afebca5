package pipeline

import (
	"bytes"
	"context"
	"html"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedplan/schedplan/pipeline/inputs"
	"github.com/schedplan/schedplan/pipeline/validation"
)

// On the default cluster (--cluster auto: one machine type) COSHH's rows
// behave FIFO-like (268 s against Fair's 32 s on the embedded trace's
// validation window); the console's and report.html's COSHH rows say that
// COSHH is for heterogeneous clusters, and no other row does.
func TestCOSHHRowsSayOneMachineType(t *testing.T) {
	if testing.Short() {
		t.Skip("one full run")
	}
	cfg := inputs.DefaultRunConfig()
	cfg.Budget, cfg.Runs = 40, 2
	in, err := Prepare(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(in.Spec.Resources) != 1 {
		t.Fatalf("the default cluster has %d machine types, want 1", len(in.Spec.Resources))
	}
	dir := filepath.Join(t.TempDir(), "out")
	res, err := Run(context.Background(), in, &Runner{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	res.WriteText(&out, dir, 0)
	noted := 0
	for _, line := range strings.Split(out.String(), "\n") {
		if !strings.Contains(line, validation.COSHHOneTypeNote) {
			continue
		}
		noted++
		if f := strings.Fields(line); len(f) == 0 || f[0] != "coshh" {
			t.Errorf("a row other than COSHH's carries the note: %q", line)
		}
	}
	if noted != 2 {
		t.Errorf("%d console rows carry the one-type note, want COSHH's 2 (task-level table, COSHH comparison):\n%s", noted, out.String())
	}
	page, err := os.ReadFile(filepath.Join(dir, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(page), html.EscapeString(validation.COSHHOneTypeNote)); n < 2 {
		t.Errorf("report.html states the one-type note %d times, want COSHH's rows in both tables", n)
	}
}
