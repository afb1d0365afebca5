package inputs

import (
	"runtime/debug"

	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/estimate"
)

// DescribeScan is DescribeLog on a Parquet jobs log scanned in parts: it
// gives the Workload Describe gives for the log read whole and its sizes
// derived, holding a few parts' tables (data.ScanParquet) and 8 bytes a
// job of sizes (for exact quantiles and the top 1%'s share: they are sorted
// once), 8 bytes a job of id hashes when the ids do not increase (read
// again for them), and 8 bytes a job of observed response and wait times
// when the log has them, instead of the whole table (about 100 bytes a job
// on SWIM-like logs) and its read buffers. It returns data.ErrNotScannable
// for any other log, or one the scan refuses (unsorted, a possible
// duplicate id, an input error), which is then read whole, so errors are
// those of data.Open and estimate.Sizes.
func DescribeScan(path string, ropt data.ReadOptions, sopt estimate.SizeOptions) (Workload, error) {
	defer lowerGCPercent(scanGCPercent)()
	var (
		sizes       []float64
		src         estimate.Source
		first, last float64
		names       []string
		counts      []int
		userIdx     = map[string]int{}
		obs         observedAcc
		columns     *data.ColumnReport
	)
	ropt.Columns = func(r *data.ColumnReport) { columns = r }
	err := data.ScanParquet(path, ropt, func(part *data.Jobs, row, total int) error {
		if sizes == nil {
			sizes = make([]float64, 0, total)
		}
		w, s, err := estimate.Weights(part, sopt)
		if err != nil || row > 0 && s != src {
			return data.ErrNotScannable
		}
		src = s
		sizes = append(sizes, w...)
		if row == 0 {
			first = part.Submit[0]
		}
		last = part.Submit[part.Len()-1]
		pn, idx := part.Users()
		global := make([]int, len(pn))
		for k, name := range pn {
			g, ok := userIdx[name]
			if !ok {
				g = len(names)
				userIdx[name] = g
				names, counts = append(names, name), append(counts, 0)
			}
			global[k] = g
		}
		for _, u := range idx {
			counts[global[u]]++
		}
		obs.add(part)
		return nil
	})
	if err != nil {
		return Workload{}, err
	}
	if !estimate.FinishWeights(sizes, src, sopt, first, last) {
		return Workload{}, data.ErrNotScannable
	}
	w := Workload{Source: path, Jobs: len(sizes), SizeSource: src, Columns: columns}
	return describeFrom(w, first, last, sizes, names, counts, &obs), nil
}

// scanGCPercent is the GOGC DescribeScan runs at. Its live heap is mostly
// the per-job sizes (8 bytes a job, no pointers to mark) and the parts in
// flight, so collecting when the heap has grown by half instead of doubling
// it keeps the peak near the live heap: at 5 M jobs ~143 MB of RSS, against
// ~127 MB at GOGC 25 for ~9% more CPU time (56 collections instead of 33)
// and ~176 MB at GOGC 100 (measured on the 5 M-job log).
const scanGCPercent = 50

// lowerGCPercent sets the garbage collector's percentage to p unless it is
// lower already (or off), and returns the function that restores it.
func lowerGCPercent(p int) (restore func()) {
	old := debug.SetGCPercent(p)
	if old >= 0 && old < p || old < 0 {
		debug.SetGCPercent(old)
	}
	return func() { debug.SetGCPercent(old) }
}
