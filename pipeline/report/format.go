package report

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"github.com/schedplan/schedplan/data"
)

// Number and text formatting shared by the report's tables and the
// terminal's: one way to print a figure everywhere.

// F4 prints v with 4 significant digits ("–" for NaN).
func F4(v float64) string {
	if math.IsNaN(v) {
		return "–"
	}
	return fmt.Sprintf("%.4g", v)
}

// Pct prints the fraction v as a signed percentage ("–" for NaN and ±Inf).
func Pct(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "–"
	}
	return fmt.Sprintf("%+.1f%%", 100*v)
}

// FmtFloats prints v as [a b c] with 4 significant digits each.
func FmtFloats(v []float64) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = fmt.Sprintf("%.4g", x)
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// Printable is data.Printable: names from logs cannot drive the terminal.
var Printable = data.Printable

// NewTable is the terminal's table writer: columns two spaces apart.
func NewTable(w io.Writer, align uint) *tabwriter.Writer {
	return tabwriter.NewWriter(w, 0, 0, 2, ' ', align)
}

// FinitePtr returns &v, or nil for NaN and ±Inf (which JSON cannot hold).
func FinitePtr(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}
