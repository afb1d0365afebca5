package pipeline

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/inputs"
	"github.com/schedplan/schedplan/pipeline/validation"
)

func TestKSDistance(t *testing.T) {
	for _, c := range []struct {
		a, b []float64
		want float64
	}{
		{[]float64{1, 2, 3}, []float64{3, 2, 1}, 0},
		{[]float64{1, 2}, []float64{3, 4}, 1},
		{[]float64{1, 2, 3, 4}, []float64{3, 4, 5, 6}, 0.5},
		{[]float64{1}, []float64{1, 2}, 0.5},
		{nil, []float64{1}, 0},
	} {
		if got := validation.KSDistance(c.a, c.b); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("KS(%v, %v) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// TestCompareObservedHand checks the figures on a hand-computed case.
func TestCompareObservedHand(t *testing.T) {
	nan := math.NaN()
	obs := []float64{10, 20, 40, nan}
	sim := []float64{20, 20, 10, 5}
	c := validation.CompareObserved("fluid", "gps", obs, []float64{1, nan, 3, nan}, sim, nil)
	if c.Jobs != 3 {
		t.Fatalf("jobs %d, want 3 (one unobserved)", c.Jobs)
	}
	// Means 70/3 and 50/3: error −2/7. Log-ratios |ln 2|, 0, |ln ¼|:
	// median ln 2; within ×2: two of three.
	if math.Abs(*c.MeanError+2.0/7) > 1e-12 || math.Abs(c.MedianLogRatio-math.Ln2) > 1e-12 || math.Abs(c.Within2-2.0/3) > 1e-12 {
		t.Errorf("mean error %v, median log-ratio %v, within 2 %v", *c.MeanError, c.MedianLogRatio, c.Within2)
	}
	if c.Observed.WaitJobs != 2 || *c.Observed.MeanWait != 2 || c.Simulated.MeanWait != nil || c.WaitError != nil {
		t.Errorf("waits: %+v %+v", c.Observed, c.Simulated)
	}
	if c.Trust != "poor" || !strings.Contains(c.Verdict, "POOR") {
		t.Errorf("trust %s: %s", c.Trust, c.Verdict)
	}
	if validation.CompareObserved("fluid", "gps", []float64{nan}, []float64{nan}, []float64{1}, nil) != nil {
		t.Error("a calibration without observed jobs")
	}
}

// observedLog writes the embedded 50-job trace as Parquet with observed
// start and finish times on the validation window: those a simulation of
// the current scheduler gives (fluid: the validate stage's exact run;
// task: the task-level run of the task-level current scheduler), each
// response multiplied by factor.
func observedLog(t *testing.T, level string, factor float64) string {
	t.Helper()
	in, err := Prepare(calibrationConfig("embedded:fb2009-50"))
	if err != nil {
		t.Fatal(err)
	}
	if err := in.HoldSimJobs(); err != nil { // Prepare builds none
		t.Fatal(err)
	}
	lo, n := in.Split.TuneJobs, in.Split.ValidJobs
	var resp, wait []float64
	switch level {
	case "fluid":
		res, err := experiment.Fluid.NewSimulator().Simulate(context.Background(), in.SimJobs[lo:], lo, in.Capacity, in.Config.Current)
		if err != nil {
			t.Fatal(err)
		}
		resp = res.Response
		wait = make([]float64, n) // served from arrival
	case "task":
		if resp, wait, err = validation.TaskCurrentTimes(context.Background(), in, "fair:pool=user"); err != nil {
			t.Fatal(err)
		}
	}
	j := in.Jobs
	fin, start := make([]float64, j.Len()), make([]float64, j.Len())
	fv, sv := data.NewBitmap(j.Len()), data.NewBitmap(j.Len())
	for i := 0; i < j.Len(); i++ {
		if i < lo {
			fv.SetNull(i)
			sv.SetNull(i)
			continue
		}
		fin[i] = j.Submit[i] + factor*resp[i-lo]
		start[i] = j.Submit[i] + math.Min(wait[i-lo], factor*resp[i-lo])
	}
	j.Finish = data.Column[float64]{Values: fin, Valid: fv}
	j.Start = data.Column[float64]{Values: start, Valid: sv}
	path := filepath.Join(t.TempDir(), "observed.parquet")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := data.Write(f, j, data.FormatParquet); err != nil {
		t.Fatal(err)
	}
	return path
}

func calibrationConfig(trace string) inputs.RunConfig {
	cfg := inputs.DefaultRunConfig()
	cfg.Trace, cfg.Budget, cfg.Runs, cfg.Folds = trace, 8, 1, 2
	cfg.Sigmas, cfg.LoadFactors = []float64{0}, []float64{1}
	return cfg
}

// TestCalibrationOfAKnownScheduler runs the pipeline on logs whose
// observed times come from simulating the current scheduler itself: the
// calibration at that level must be (numerically) perfect, and a log whose
// jobs took three times as long must be graded poor.
func TestCalibrationOfAKnownScheduler(t *testing.T) {
	for _, c := range []struct {
		level     string
		factor    float64
		wantTrust string
	}{
		{"fluid", 1, "good"},
		{"task", 1, "good"},
		{"fluid", 3, "poor"},
	} {
		in, err := Prepare(calibrationConfig(observedLog(t, c.level, c.factor)))
		if err != nil {
			t.Fatal(err)
		}
		res, err := Run(context.Background(), in, &Runner{Dir: t.TempDir()})
		if err != nil {
			t.Fatal(err)
		}
		rep := res.Calibration
		if rep == nil || rep.Fluid == nil || rep.Task == nil {
			t.Fatalf("%s ×%g: calibration %+v", c.level, c.factor, rep)
		}
		cal := rep.Fluid
		if c.level == "task" {
			cal = rep.Task
		}
		if cal.Jobs != in.Split.ValidJobs || cal.Trust != c.wantTrust {
			t.Errorf("%s ×%g: %d jobs of %d, trust %s, want %s: %s", c.level, c.factor, cal.Jobs, in.Split.ValidJobs, cal.Trust, c.wantTrust, cal.Verdict)
		}
		if c.factor == 1 {
			if math.Abs(*cal.MeanError) > 1e-9 || cal.KS != 0 || cal.MedianLogRatio > 1e-9 || cal.Within2 != 1 {
				t.Errorf("%s: not exact: mean error %v, KS %v, median log-ratio %v", c.level, *cal.MeanError, cal.KS, cal.MedianLogRatio)
			}
			if c.level == "task" && (cal.WaitError == nil || math.Abs(*cal.WaitError) > 1e-6) {
				t.Errorf("task: wait error %v", cal.WaitError)
			}
		} else if math.Abs(*cal.MeanError+2.0/3) > 1e-9 || math.Abs(cal.MedianLogRatio-math.Log(3)) > 0.2 {
			t.Errorf("×3: mean error %v (want −2/3), median log-ratio %v", *cal.MeanError, cal.MedianLogRatio)
		}
	}
}
