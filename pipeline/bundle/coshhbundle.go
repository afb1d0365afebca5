package bundle

import (
	"fmt"

	"github.com/schedplan/schedplan/classify"
	"github.com/schedplan/schedplan/cluster/task/coshh"
)

// COSHHConfig is schedplan.yaml's coshh section: the COSHH scheduler's plan
// as tuned (seed 003 Alg. 1–2): the chosen number of classes k and
// re-classification tolerance, the tuning grid, and each classification's
// classes (centre in the scaled feature space, radius, α, μ), its LP's λ,
// allocation and suggested classes per machine type. The run simulates
// this section (read back from the file) on the validation window.
type COSHHConfig struct {
	K         int     `yaml:"k"`
	Tolerance float64 `yaml:"tolerance"`
	// FittedOn is the number of jobs (the tuning window's) the classes and
	// the LP were fitted on.
	FittedOn  int                  `yaml:"fitted_on_jobs"`
	Types     []string             `yaml:"types"`
	Primary   *COSHHClassification `yaml:"primary,omitempty"`
	Secondary COSHHClassification  `yaml:"secondary"`
	Grid      []COSHHGridEntry     `yaml:"grid,omitempty"`
}

// COSHHGridEntry is one point of the tuning grid: mean completion time (s)
// of COSHH on the tuning window's last jobs (the grid's SimJobs).
type COSHHGridEntry struct {
	K              int     `yaml:"k"`
	Tolerance      float64 `yaml:"tolerance"`
	MeanCompletion float64 `yaml:"mean_completion_s,omitempty"`
	Error          string  `yaml:"error,omitempty"`
}

// COSHHClassification is one classification of the coshh section.
type COSHHClassification struct {
	Scaling []FeatureScale `yaml:"scaling"`
	Classes []COSHHClass   `yaml:"classes"`
	Lambda  float64        `yaml:"lambda"`
	// Allocation[t][i] is class i's fraction of machine type t.
	Allocation [][]float64 `yaml:"allocation"`
	// Suggested[t] names the classes type t serves (SC_t).
	Suggested [][]string `yaml:"suggested"`
}

// COSHHClass is one class of the coshh section: its centre in the scaled
// feature space (the classification's scaling), its radius there, α
// (jobs/s), μ (jobs/s per machine of each type) and the types it can run
// on (μ > 0).
type COSHHClass struct {
	Name   string    `yaml:"name"`
	Label  string    `yaml:"label"`
	Count  int       `yaml:"count"`
	Centre []float64 `yaml:"centre_scaled"`
	Radius float64   `yaml:"radius"`
	Alpha  float64   `yaml:"alpha"`
	Mu     []float64 `yaml:"mu"`
}

// COSHHClassificationOf is a classification as the bundle's COSHH section
// holds it: its classes with their rates, the LP's λ and allocation δ.
func COSHHClassificationOf(res *classify.Result, pc *coshh.COSHHClasses, lambda float64, delta [][]float64) COSHHClassification {
	out := COSHHClassification{Lambda: lambda}
	for f, name := range res.Features {
		fs := FeatureScale{Feature: name}
		if f < len(res.Scaling.Methods) {
			fs.Log = res.Scaling.Methods[f] == classify.Log
		}
		if f < len(res.Scaling.Mean) {
			fs.Mean, fs.SD = res.Scaling.Mean[f], res.Scaling.Std[f]
		}
		out.Scaling = append(out.Scaling, fs)
	}
	for i, cl := range res.Classes {
		out.Classes = append(out.Classes, COSHHClass{Name: ClassName(cl.ID), Label: cl.Label, Count: cl.Count,
			Centre: pc.Centres[i], Radius: pc.Radius[i], Alpha: cl.Alpha, Mu: cl.Mu})
	}
	nt := len(res.Resources)
	out.Allocation = make([][]float64, nt)
	out.Suggested = make([][]string, nt)
	for t := 0; t < nt; t++ {
		out.Allocation[t] = make([]float64, len(res.Classes))
		for i := range res.Classes {
			if i < len(delta) && t < len(delta[i]) {
				out.Allocation[t][i] = delta[i][t]
			}
		}
		out.Suggested[t] = []string{}
		if t < len(pc.Suggested) {
			for _, i := range pc.Suggested[t] {
				out.Suggested[t] = append(out.Suggested[t], ClassName(i))
			}
		}
	}
	return out
}

// Plan returns the routing plan of the section (coshh.COSHHPlan): centres,
// radii, suggested sets and the types each class can run on.
func (c *COSHHConfig) Plan() (*coshh.COSHHPlan, error) {
	p := &coshh.COSHHPlan{}
	var err error
	if p.Secondary, err = c.Secondary.classes(len(c.Types)); err != nil {
		return nil, fmt.Errorf("coshh.secondary: %w", err)
	}
	if c.Primary != nil {
		if p.Primary, err = c.Primary.classes(len(c.Types)); err != nil {
			return nil, fmt.Errorf("coshh.primary: %w", err)
		}
	}
	return p, nil
}

func (s *COSHHClassification) classes(types int) (coshh.COSHHClasses, error) {
	var out coshh.COSHHClasses
	index := map[string]int{}
	for i, cl := range s.Classes {
		if len(cl.Mu) != types {
			return out, fmt.Errorf("class %s: %d mu values for %d types", cl.Name, len(cl.Mu), types)
		}
		index[cl.Name] = i
		out.Centres = append(out.Centres, cl.Centre)
		out.Radius = append(out.Radius, cl.Radius)
		runs := make([]bool, types)
		for t, m := range cl.Mu {
			runs[t] = m > 0
		}
		out.Runs = append(out.Runs, runs)
	}
	if len(s.Suggested) != types {
		return out, fmt.Errorf("suggested sets for %d types, the section names %d", len(s.Suggested), types)
	}
	out.Suggested = make([][]int, types)
	for t, names := range s.Suggested {
		out.Suggested[t] = []int{}
		for _, n := range names {
			i, ok := index[n]
			if !ok {
				return out, fmt.Errorf("suggested[%d]: %q is not a class", t, n)
			}
			out.Suggested[t] = append(out.Suggested[t], i)
		}
	}
	return out, nil
}
