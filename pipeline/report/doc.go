// Package report holds the primitives every stage renders its results with:
// the HTML report's model (Report, Section, TableBlock, Figure) and its
// template, the plots (PlotCDF, PlotBars, PlotBoxes, PlotLines,
// PlotHeatMap, drawn to PNG with gonum/plot and guarded against its panics),
// and the number and text formatting shared by the report's tables and the
// terminal's (F4, Pct, FmtFloats, FinitePtr, NewTable, Printable).
//
// It knows nothing of schedplan's stages: it may import package data (for
// Printable) and libraries, never another package of pipeline.
package report
