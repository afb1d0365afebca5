package lp

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// WriteMPS writes the model in free MPS format ("NAME <name> FREE", which
// COIN-OR's reader needs to read free format) to path (atomically: a
// temporary file in the same directory, renamed onto path), without
// solving it. Every number is written with the shortest decimal that reads
// back as the same float64 (up to 17 significant digits), so a solver that
// reads the file solves exactly this model. A maximisation is written as the
// equivalent minimisation of the negated objective (MPS has no standard
// objective sense). Row and column names have whitespace replaced by '_'
// and are made unique; the objective row is "OBJ" (or OBJ_1, … if a row has
// that name).
func WriteMPS(m *Model, path string) error {
	if err := m.Check(); err != nil {
		return err
	}
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("lp: writing MPS: %w", err)
	}
	tmp := f.Name()
	w := bufio.NewWriter(f)
	err = writeMPS(w, m)
	if err == nil {
		err = w.Flush()
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, 0o644)
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("lp: writing MPS file %s: %w", path, err)
	}
	return nil
}

// mpsNames returns unique whitespace-free names for n items; taken holds
// names already used.
func mpsNames(n int, name func(int) string, taken map[string]bool) []string {
	out := make([]string, n)
	for i := range out {
		s := strings.Join(strings.Fields(name(i)), "_")
		if s == "" {
			s = "_"
		}
		base := s
		for k := 1; taken[s]; k++ {
			s = base + "_" + strconv.Itoa(k)
		}
		taken[s] = true
		out[i] = s
	}
	return out
}

func mpsNum(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

func writeMPS(w *bufio.Writer, m *Model) error {
	nr, nc := m.NumRows(), m.NumCols()
	taken := map[string]bool{}
	rows := mpsNames(nr, m.RowName, taken)
	obj := mpsNames(1, func(int) string { return "OBJ" }, taken)[0]
	cols := mpsNames(nc, m.ColName, map[string]bool{})
	name := strings.Join(strings.Fields(m.Name), "_")
	if name == "" {
		name = "model"
	}
	fmt.Fprintf(w, "NAME %s FREE\n", name) // FREE: COIN-OR's readers need it for free format
	if m.Sense == Maximize {
		fmt.Fprintf(w, "* maximisation written as the minimisation of the negated objective\n")
	}
	fmt.Fprintf(w, "ROWS\n N %s\n", obj)
	for i := 0; i < nr; i++ {
		lo, hi := m.rowLo[i], m.rowHi[i]
		t := "N"
		switch {
		case lo == hi:
			t = "E"
		case !math.IsInf(lo, -1):
			t = "G"
		case !math.IsInf(hi, 1):
			t = "L"
		}
		fmt.Fprintf(w, " %s %s\n", t, rows[i])
	}
	sign := 1.0
	if m.Sense == Maximize {
		sign = -1
	}
	a := m.matrix()
	fmt.Fprintf(w, "COLUMNS\n")
	for j := 0; j < nc; j++ {
		c := sign * m.obj[j]
		if c != 0 || a.start[j] == a.start[j+1] {
			fmt.Fprintf(w, " %s %s %s\n", cols[j], obj, mpsNum(c))
		}
		for p := a.start[j]; p < a.start[j+1]; p++ {
			fmt.Fprintf(w, " %s %s %s\n", cols[j], rows[a.index[p]], mpsNum(a.value[p]))
		}
	}
	fmt.Fprintf(w, "RHS\n")
	var ranges []string
	for i := 0; i < nr; i++ {
		lo, hi := m.rowLo[i], m.rowHi[i]
		var rhs float64
		switch {
		case lo == hi || (!math.IsInf(lo, -1)):
			rhs = lo
			if !math.IsInf(hi, 1) && lo != hi {
				ranges = append(ranges, fmt.Sprintf(" RNG %s %s\n", rows[i], mpsNum(hi-lo)))
			}
		case !math.IsInf(hi, 1):
			rhs = hi
		}
		if rhs != 0 {
			fmt.Fprintf(w, " RHS %s %s\n", rows[i], mpsNum(rhs))
		}
	}
	if len(ranges) > 0 {
		fmt.Fprintf(w, "RANGES\n%s", strings.Join(ranges, ""))
	}
	fmt.Fprintf(w, "BOUNDS\n")
	for j := 0; j < nc; j++ {
		lo, hi := m.colLo[j], m.colHi[j]
		switch {
		case lo == hi:
			fmt.Fprintf(w, " FX BND %s %s\n", cols[j], mpsNum(lo))
		case math.IsInf(lo, -1) && math.IsInf(hi, 1):
			fmt.Fprintf(w, " FR BND %s\n", cols[j])
		default:
			if math.IsInf(lo, -1) {
				fmt.Fprintf(w, " MI BND %s\n", cols[j])
			} else if lo != 0 {
				fmt.Fprintf(w, " LO BND %s %s\n", cols[j], mpsNum(lo))
			}
			if !math.IsInf(hi, 1) {
				fmt.Fprintf(w, " UP BND %s %s\n", cols[j], mpsNum(hi))
			}
		}
	}
	_, err := fmt.Fprintf(w, "ENDATA\n")
	return err
}
