package pipeline

// COSHHConfigOf returns the bundle section of a fit and its grid.
func COSHHConfigOf(f *COSHHFit, grid []COSHHGridPoint) *COSHHConfig {
	c := &COSHHConfig{K: f.K, Tolerance: f.Tolerance, FittedOn: f.Rows, Types: append([]string(nil), f.Secondary.Resources...)}
	c.Secondary = coshhClassification(f.Secondary, &f.Plan.Secondary, f.Lambda, f.Delta)
	if f.Primary != nil && len(f.Primary.Classes) > 0 {
		p := coshhClassification(f.Primary, &f.Plan.Primary, 0, f.PrimaryDelta)
		c.Primary = &p
	}
	for _, g := range grid {
		e := COSHHGridEntry{K: g.K, Tolerance: g.Tolerance, Error: g.Error}
		if g.Error == "" {
			e.MeanCompletion = g.MeanCompletion
		}
		c.Grid = append(c.Grid, e)
	}
	return c
}
