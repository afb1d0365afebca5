package classify

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/schedplan/schedplan/data"
	"gonum.org/v1/gonum/mat"
)

// DefaultSample is the default number of rows k is chosen and centres are
// fitted on (Options.Sample). Auto-k fits KMax−KMin+1 values of k with
// Restarts restarts each: on a sample its cost does not grow with the log.
const DefaultSample = 50_000

// sampleStrata is the number of strata of a stratified sample: quantile
// bins of the first feature (by default the job size, log-scaled).
const sampleStrata = 64

// minPerStratum is the least number of rows a non-empty stratum
// contributes to a sample (all its rows when it has fewer), so that rare
// kinds of jobs — the few huge ones of a heavy-tailed log — are in it.
const minPerStratum = 32

// refineStarts is how many of the sample's restarts (least inertia first)
// are refined on every row.
const refineStarts = 3

// SampleInfo describes how a classification was fitted on a sample.
//
// The rows are drawn in strata: the range of the first scaled feature is
// cut into equal-width bins, each bin contributes in proportion to its rows
// but at least min(its rows, 32), without replacement, seeded by
// Options.Seed. k is chosen and the centres fitted (with Options.Restarts
// restarts) on the sample; the centres of the best three restarts then
// start Lloyd's iterations on every row, the least inertia is kept, and
// every row is assigned to its nearest final centre.
//
// The cost of sampling is measured, not assumed: SampleInertia is the
// sample centres' inertia over all rows (before refinement), Inertia the
// refined one; their ratio is reported as Gap. The tests hold the refined
// inertia within 1% of a full fit's on synthetic logs of known structure.
type SampleInfo struct {
	Rows   int `json:"rows"`   // rows in the sample
	Of     int `json:"of"`     // rows classified
	Strata int `json:"strata"` // non-empty strata
	// SampleInertia is the inertia of all rows at the sample's centres,
	// Inertia after Lloyd's refinement on all rows.
	SampleInertia float64 `json:"sample_inertia"`
	Inertia       float64 `json:"inertia"`
	// Gap is SampleInertia / Inertia − 1: how much worse the centres
	// fitted on the sample alone were on the whole log.
	Gap float64 `json:"gap"`
	// RefineIterations is the number of Lloyd iterations on all rows.
	RefineIterations int `json:"refine_iterations"`
}

// stratifiedSample returns up to m row indices of z (n rows), sorted,
// drawn in strata of the first column (see SampleInfo).
func stratifiedSample(z *mat.Dense, m int, seed uint64) (rows []int, strata int) {
	n, _ := z.Dims()
	lo, hi := math.Inf(1), math.Inf(-1)
	for i := 0; i < n; i++ {
		v := z.At(i, 0)
		lo, hi = min(lo, v), max(hi, v)
	}
	bin := func(v float64) int {
		if !(hi > lo) {
			return 0
		}
		b := int((v - lo) / (hi - lo) * sampleStrata)
		return min(max(b, 0), sampleStrata-1)
	}
	var count [sampleStrata]int
	for i := 0; i < n; i++ {
		count[bin(z.At(i, 0))]++
	}
	// Allocation: proportional, at least min(count, minPerStratum), and
	// never more than a stratum has.
	var want [sampleStrata]int
	total := 0
	for b, c := range count {
		if c == 0 {
			continue
		}
		strata++
		w := int(float64(c) * float64(m) / float64(n))
		want[b] = min(c, max(w, minPerStratum))
		total += want[b]
	}
	// Selection sampling per stratum in one pass over the rows (Knuth's
	// Algorithm S): each row of stratum b is taken with probability
	// (still wanted) / (still to see).
	rng := rand.New(rand.NewPCG(seed, 0x5a3713))
	left := count
	rows = make([]int, 0, total)
	for i := 0; i < n; i++ {
		b := bin(z.At(i, 0))
		if want[b] > 0 && rng.IntN(left[b]) < want[b] {
			rows = append(rows, i)
			want[b]--
		}
		left[b]--
	}
	return rows, strata
}

// subMatrix copies the given rows of z.
func subMatrix(z *mat.Dense, rows []int) *mat.Dense {
	_, d := z.Dims()
	out := mat.NewDense(len(rows), d, nil)
	buf := make([]float64, d)
	for q, i := range rows {
		mat.Row(buf, i, z)
		out.SetRow(q, buf)
	}
	return out
}

// fitClasses chooses k and fits the k-means of z for res (KRule, K, Curve,
// Elbow, Silhouette, Warnings, Sample): on every row when z has at most
// opt.Sample rows, else on a stratified sample whose centres are then
// refined on every row. rows are the job-table rows of z (nil: all).
func fitClasses(res *Result, j *data.Jobs, rows []int, z *mat.Dense, opt Options) (*KMeansResult, error) {
	n, _ := z.Dims()
	fit := z
	var info *SampleInfo
	if opt.Sample > 0 && n > opt.Sample {
		idx, strata := stratifiedSample(z, opt.Sample, opt.Seed)
		fit = subMatrix(z, idx)
		info = &SampleInfo{Rows: len(idx), Of: n, Strata: strata}
	}
	km, err := chooseK(res, j, rows, fit, opt)
	if err != nil || info == nil {
		return km, err
	}
	// Refine the best few restarts of the sample on every row and keep the
	// least inertia: restarts that tie on the sample may not on the log.
	k, _ := km.Centroids.Dims()
	order := make([]int, len(km.Inertias))
	for r := range order {
		order[r] = r
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(km.Inertias[a], km.Inertias[b]) })
	var full *KMeansResult
	var packed []uint8             // full's assignment while the next start runs, when k ≤ 256
	all, err := kmeansRowsOf(z, k) // checked once for every start
	if err != nil {
		return nil, err
	}
	// With k ≤ 256 an assignment fits a byte a row: every start's is
	// packed or dropped as soon as the start is done, and held off the
	// heap until then.
	packs := k <= 1<<8
	for _, r := range order[:min(len(order), refineStarts)] {
		kopt := KMeansOptions{MaxIter: opt.MaxIter, Tol: opt.Tol, Seed: opt.Seed, Workers: opt.Workers, Start: km.Starts[r], scratchAssign: packs}
		f, err := all.kmeans(k, kopt)
		if err != nil {
			return nil, err
		}
		if full == nil || f.Inertia < full.Inertia {
			full = f
			// The sample's centres on every row: what the sample alone gives.
			info.SampleInertia = f.StartInertia
			if packs {
				packed = packAssign(packed, f.Assign)
			}
		}
		if packs {
			f.releaseAssign()
		}
	}
	if full.Assign == nil {
		full.Assign = unpackAssign(packed)
	}
	info.Inertia = full.Inertia
	info.Gap = info.SampleInertia/full.Inertia - 1
	if !(full.Inertia > 0) {
		info.Gap = 0
	}
	info.RefineIterations = full.Iterations
	res.Sample = info
	res.Warnings = append(res.Warnings, fmt.Sprintf("k and the starting centres were fitted on a stratified sample of %d of %d jobs (%d strata), then refined on all jobs; the sample's centres were %.3g%% worse in inertia than the refined ones",
		info.Rows, info.Of, info.Strata, 100*info.Gap))
	return full, nil
}

// chooseK fits the k-means of z with the k of opt's rule (fixed, one per
// user, or automatic by silhouette), recording the choice in res.
func chooseK(res *Result, j *data.Jobs, rows []int, z *mat.Dense, opt Options) (*KMeansResult, error) {
	kopt := KMeansOptions{Init: opt.Init, Restarts: opt.Restarts, MaxIter: opt.MaxIter, Tol: opt.Tol, Seed: opt.Seed, Workers: opt.Workers}
	fixed := func(k int) (*KMeansResult, error) {
		km, err := KMeans(z, k, kopt)
		if err != nil {
			return nil, err
		}
		res.Silhouette = Silhouette(z, km.Assign, k, opt.SilhouetteSample, opt.Seed, opt.Workers)
		return km, nil
	}
	switch {
	case opt.K > 0 || opt.K == KUsers:
		k := opt.K
		res.KRule = "fixed"
		if k == KUsers {
			k = countUsers(j, rows)
			res.KRule = "users"
		}
		if distinct := distinctRows(z, k); distinct < k {
			res.Warnings = append(res.Warnings, fmt.Sprintf("k = %d reduced to %d: the jobs have only %d distinct feature vectors", k, distinct, distinct))
			k = distinct
		}
		return fixed(k)
	case opt.K == KAuto:
		res.KRule = "auto"
		if opt.KMin > opt.KMax {
			return nil, fmt.Errorf("k range %d..%d is empty", opt.KMin, opt.KMax)
		}
		distinct := distinctRows(z, opt.KMax+1)
		if distinct <= opt.KMin && opt.KMin > 1 {
			// Silhouettes need at least two clusters of distinct points.
			res.Warnings = append(res.Warnings, fmt.Sprintf("the jobs have only %d distinct feature vectors: k = %d without a search", distinct, distinct))
			return fixed(distinct)
		}
		hi := min(opt.KMax, distinct)
		if hi < opt.KMax {
			res.Warnings = append(res.Warnings, fmt.Sprintf("k search capped at %d: the jobs have only %d distinct feature vectors", hi, distinct))
		}
		return searchK(res, z, opt, kopt, hi)
	default:
		return nil, fmt.Errorf("k = %d: want a positive number, KAuto or KUsers", opt.K)
	}
}

// searchK fits every k in opt.KMin..hi and keeps the best silhouette (ties
// keep the smaller k); it records the curve and the elbow in res. The
// silhouettes are formed together once every k is fitted (silhouettes:
// each distance between two sampled rows once).
func searchK(res *Result, z *mat.Dense, opt Options, kopt KMeansOptions, hi int) (*KMeansResult, error) {
	var fits []*KMeansResult
	var assigns [][]int32
	var ks []int
	for k := opt.KMin; k <= hi; k++ {
		r, err := KMeans(z, k, kopt)
		if err != nil {
			return nil, err
		}
		fits, assigns, ks = append(fits, r), append(assigns, r.Assign), append(ks, k)
	}
	sils := silhouettes(z, assigns, ks, opt.SilhouetteSample, opt.Seed, opt.Workers)
	var km *KMeansResult
	bestSil := math.Inf(-1)
	for q, r := range fits {
		k, sil := ks[q], sils[q]
		res.Curve = append(res.Curve, KScore{K: k, Inertia: r.Inertia, Silhouette: sil})
		if opt.OnK != nil {
			opt.OnK(res.Curve[len(res.Curve)-1])
		}
		score := sil
		if math.IsNaN(score) {
			score = math.Inf(-1)
		}
		if km == nil || score > bestSil {
			km, res.Silhouette, bestSil = r, sil, score
		}
	}
	res.Elbow = Elbow(res.Curve)
	return km, nil
}

// packAssign stores an assignment to at most 256 clusters a byte a row
// (into buf when large enough): a quarter of its int32s, for the best
// refinement kept while the next runs on every row.
func packAssign(buf []uint8, assign []int32) []uint8 {
	buf = slices.Grow(buf[:0], len(assign))[:len(assign)]
	for i, a := range assign {
		buf[i] = uint8(a)
	}
	return buf
}

// unpackAssign is the assignment packAssign stored.
func unpackAssign(packed []uint8) []int32 {
	out := make([]int32, len(packed))
	for i, a := range packed {
		out[i] = int32(a)
	}
	return out
}
