package pipeline

import (
	"errors"
	"strings"
	"testing"

	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/pipeline/bundle"
	"github.com/schedplan/schedplan/pipeline/capacity"
	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/inputs"
)

// A hand-edited coshh section is refused, naming the field: a negative
// tolerance or k, a type given twice, a class with a negative radius, μ
// or a centre of the wrong length, an allocation that is not fractions
// for every type and class. Before, only non-finite numbers were caught.
func TestCOSHHConfigCheck(t *testing.T) {
	valid := func() *bundle.COSHHConfig {
		return &bundle.COSHHConfig{K: 2, Tolerance: 0.5, FittedOn: 10, Types: []string{"R1", "R2"},
			Secondary: bundle.COSHHClassification{
				Scaling: []bundle.FeatureScale{{Feature: "priority", SD: 1}},
				Classes: []bundle.COSHHClass{{Name: "C1", Centre: []float64{0}, Radius: 1, Alpha: 0.1, Mu: []float64{1, 0}},
					{Name: "C2", Centre: []float64{1}, Radius: 2, Alpha: 0.2, Mu: []float64{0.5, 1}}},
				Lambda: 1, Allocation: [][]float64{{1, 0}, {0.5, 0.5}}, Suggested: [][]string{{"C1"}, {"C1", "C2"}}}}
	}
	if err := valid().Check(); err != nil {
		t.Fatalf("valid section: %v", err)
	}
	for _, tc := range []struct {
		name string
		edit func(c *bundle.COSHHConfig)
		want string
	}{
		{"tolerance -1", func(c *bundle.COSHHConfig) { c.Tolerance = -1 }, "coshh.tolerance"},
		{"k 0", func(c *bundle.COSHHConfig) { c.K = 0 }, "coshh.k"},
		{"type twice", func(c *bundle.COSHHConfig) { c.Types[1] = "R1" }, "coshh.types[1]"},
		{"no types", func(c *bundle.COSHHConfig) { c.Types = nil }, "coshh.types"},
		{"radius -1", func(c *bundle.COSHHConfig) { c.Secondary.Classes[0].Radius = -1 }, "coshh.secondary.classes[0]"},
		{"mu -1", func(c *bundle.COSHHConfig) { c.Secondary.Classes[1].Mu[0] = -1 }, "coshh.secondary.classes[1].mu[0]"},
		{"short centre", func(c *bundle.COSHHConfig) { c.Secondary.Classes[0].Centre = nil }, "centre"},
		{"allocation 2", func(c *bundle.COSHHConfig) { c.Secondary.Allocation[0][0] = 2 }, "coshh.secondary.allocation[0][0]"},
		{"allocation row", func(c *bundle.COSHHConfig) { c.Secondary.Allocation[1] = []float64{1} }, "coshh.secondary.allocation[1]"},
		{"unknown class", func(c *bundle.COSHHConfig) { c.Secondary.Suggested[0] = []string{"C9"} }, "C9"},
	} {
		c := valid()
		tc.edit(c)
		if err := c.Check(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one naming %s", tc.name, err, tc.want)
		}
	}
}

// tune --policy hpfsp refuses the flags only LAS_MQ's search reads
// (--budget 1 was silently ignored) and accepts them at their defaults.
func TestTuneRequestHPFSPFlags(t *testing.T) {
	d := inputs.DefaultRunConfig()
	base := TuneRequest{Policy: "hpfsp", Objective: string(d.Objective), Constraints: d.Constraints, Current: d.Current, Budget: d.Budget, Folds: d.Folds, Seed: 1}
	if _, err := base.Options(); err != nil {
		t.Fatalf("defaults: %v", err)
	}
	for _, tc := range []struct {
		edit func(r *TuneRequest)
		want string
	}{
		{func(r *TuneRequest) { r.Budget = 1 }, "--budget"},
		{func(r *TuneRequest) { r.Folds = 2 }, "--folds"},
		{func(r *TuneRequest) { r.Constraints = "none" }, "--constraint"},
		{func(r *TuneRequest) { r.Current = "fifo" }, "--current"},
	} {
		r := base
		tc.edit(&r)
		_, err := r.Options()
		var pe *experiment.ParamError
		if err == nil || !errors.As(err, &pe) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want a parameter error naming %s", r, err, tc.want)
		}
		r.Policy = "las_mq"
		if _, err := r.Options(); err != nil {
			t.Errorf("las_mq %+v: %v", r, err)
		}
	}
}

// simulate -p coshh is refused at the flag (it needs the pipeline's plan)
// instead of failing in its first run after the other policies ran.
func TestParseAnyPoliciesCOSHH(t *testing.T) {
	for _, list := range []string{"coshh", "fifo,coshh:tolerance=1", "COSHH"} {
		_, err := ParseAnyPolicies("policy", list)
		var pe *experiment.ParamError
		if err == nil || !errors.As(err, &pe) || !strings.Contains(err.Error(), "schedplan run") {
			t.Errorf("%q: error %v, want a parameter error pointing at schedplan run", list, err)
		}
	}
	if _, err := ParseAnyPolicies("policy", "fifo,hpfsp,prism"); err != nil {
		t.Errorf("fifo,hpfsp,prism: %v", err)
	}
}

// A what-if that removes every machine is refused at --what-if (it failed
// after the LP, naming an empty cluster spec); one that keeps one passes.
func TestCheckWhatIfsNoMachines(t *testing.T) {
	spec := &cluster.Spec{Version: cluster.SpecVersion, Resources: []cluster.ResourceType{{Name: "A", Count: 1, Slots: 1, ExecRate: 1}, {Name: "B", Count: 2, Slots: 1, ExecRate: 1}}}
	var pe *experiment.ParamError
	if err := capacity.CheckWhatIfs([]string{"A=-1,B=-2"}, spec); !errors.As(err, &pe) || !strings.Contains(err.Error(), "no machines") {
		t.Errorf("A=-1,B=-2: %v", err)
	}
	if err := capacity.CheckWhatIfs([]string{"A=-1", "B=-1"}, spec); err != nil {
		t.Errorf("A=-1 and B=-1: %v", err)
	}
}
