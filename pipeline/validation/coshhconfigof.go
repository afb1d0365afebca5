package validation

import "github.com/schedplan/schedplan/pipeline/bundle"

// COSHHConfigOf returns the bundle section of a fit and its grid.
func COSHHConfigOf(f *COSHHFit, grid []COSHHGridPoint) *bundle.COSHHConfig {
	c := &bundle.COSHHConfig{K: f.K, Tolerance: f.Tolerance, FittedOn: f.Rows, Types: append([]string(nil), f.Secondary.Resources...)}
	c.Secondary = bundle.COSHHClassificationOf(f.Secondary, &f.Plan.Secondary, f.Lambda, f.Delta)
	if f.Primary != nil && len(f.Primary.Classes) > 0 {
		p := bundle.COSHHClassificationOf(f.Primary, &f.Plan.Primary, 0, f.PrimaryDelta)
		c.Primary = &p
	}
	for _, g := range grid {
		e := bundle.COSHHGridEntry{K: g.K, Tolerance: g.Tolerance, Error: g.Error}
		if g.Error == "" {
			e.MeanCompletion = g.MeanCompletion
		}
		c.Grid = append(c.Grid, e)
	}
	return c
}
