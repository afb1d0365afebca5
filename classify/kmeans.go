package classify

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"time"

	"github.com/schedplan/schedplan/internal/offheap"
	"github.com/schedplan/schedplan/internal/par"
	"gonum.org/v1/gonum/mat"
)

// Init is a k-means seeding method.
type Init int

const (
	// KMeansPlusPlus seeds with D² sampling (Arthur and Vassilvitskii 2007):
	// the first centre is a uniform random point, each next one a point drawn
	// with probability proportional to its squared distance to the nearest
	// centre chosen so far. It costs O(n·k·d) in all.
	KMeansPlusPlus Init = iota
	// Uniform seeds with k distinct rows drawn uniformly at random.
	Uniform
	// GreedyKMeansPlusPlus draws 2 + ⌊ln k⌋ candidates by D² sampling at
	// each step and keeps the one that lowers the potential most
	// (scikit-learn's default); seeding costs that many times more.
	GreedyKMeansPlusPlus
)

// ParseInit parses "k-means++" (or "kmeans++"), "greedy" and "uniform".
func ParseInit(s string) (Init, error) {
	switch s {
	case "k-means++", "kmeans++", "":
		return KMeansPlusPlus, nil
	case "greedy", "greedy-k-means++":
		return GreedyKMeansPlusPlus, nil
	case "uniform", "random":
		return Uniform, nil
	}
	return 0, fmt.Errorf("init %q: want k-means++, greedy or uniform", s)
}

func (m Init) String() string {
	switch m {
	case Uniform:
		return "uniform"
	case GreedyKMeansPlusPlus:
		return "greedy k-means++"
	}
	return "k-means++"
}

// KMeansOptions parameterise KMeans. The zero value means: k-means++
// seeding, one restart, at most 300 iterations, tolerance 1e-4, seed 0, all
// cores.
type KMeansOptions struct {
	Init     Init
	Restarts int     // independent seedings; the run of least inertia is kept. Default 1.
	MaxIter  int     // Lloyd iterations per restart. Default 300.
	Tol      float64 // stop when Σ_j ‖Δc_j‖² ≤ Tol × mean feature variance. Default 1e-4; negative: 0.
	Seed     uint64
	// Workers is how many goroutines to use; 0 means runtime.GOMAXPROCS(0).
	// Results do not depend on it.
	Workers int
	// Plain turns Hamerly's bounds off: every iteration computes all n·k
	// distances (for comparison; the clustering is the same).
	Plain bool
	// Start, when not nil, holds k initial centres (k × d): no seeding,
	// and one run (Restarts and Init are ignored). Used to refine, on all
	// rows, centres fitted on a sample.
	Start *mat.Dense
	// scratchAssign holds the assignment off the heap (offheap): the
	// caller reads it, then frees it with KMeansResult.freeAssign.
	scratchAssign bool
}

func (o KMeansOptions) withDefaults() KMeansOptions {
	if o.Restarts <= 0 {
		o.Restarts = 1
	}
	if o.MaxIter <= 0 {
		o.MaxIter = 300
	}
	if o.Tol == 0 {
		o.Tol = 1e-4
	} else if o.Tol < 0 {
		o.Tol = 0
	}
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	return o
}

// KMeansResult is the outcome of KMeans.
type KMeansResult struct {
	Centroids *mat.Dense // k × d, in the space of the input rows
	Assign    []int32    // cluster of each row
	Inertia   float64    // Σ_i ‖x_i − c_{a(i)}‖²
	// StartInertia is the kept restart's Σ_i min_c ‖x_i − c‖² at its
	// starting centres (the seeding's, or Start), added chunk by chunk
	// in row order.
	StartInertia float64
	Iterations   int  // Lloyd iterations of the kept restart
	Converged    bool // the kept restart stopped by tolerance, not by MaxIter
	Restart      int  // index of the kept restart
	// Inertias holds every restart's final inertia, in restart order, and
	// Starts every restart's final centres.
	Inertias []float64
	Starts   []*mat.Dense
	// SeedTime and LloydTime are the wall-clock times the kept restart
	// spent seeding and iterating (they vary from run to run).
	SeedTime, LloydTime time.Duration
	// freeAssign frees Assign when it is off the heap (scratchAssign);
	// Assign is nil after it.
	freeAssign func()
}

// releaseAssign frees the assignment (off the heap or not) and forgets it.
func (r *KMeansResult) releaseAssign() {
	if r.freeAssign != nil {
		r.freeAssign()
	}
	r.Assign, r.freeAssign = nil, nil
}

// chunkRows is the number of rows processed as one unit of work. Partial
// sums are formed per chunk and combined in chunk order, so results do not
// depend on how many goroutines process the chunks.
const chunkRows = 8192

// KMeans clusters the rows of x into k clusters by Lloyd's algorithm,
// accelerated with Hamerly's bounds (exactly the same assignments as plain
// Lloyd, far fewer distance computations once clusters settle).
//
// Each restart draws from its own random stream derived from (Seed, restart
// index); restarts run in parallel and the one of least inertia is kept (the
// lowest index among equals). Within a restart, rows are processed in fixed
// chunks whose partial sums are combined in order. Hence the result is the
// same bit for bit whatever Workers is.
//
// A cluster that loses all its rows is moved to the row farthest from its
// current centre. x must hold finite values and at least k rows; k ≥ 1.
func KMeans(x *mat.Dense, k int, opt KMeansOptions) (*KMeansResult, error) {
	rows, err := kmeansRowsOf(x, k)
	if err != nil {
		return nil, err
	}
	return rows.kmeans(k, opt)
}

// kmeansRows are the rows KMeans clusters, checked, with the mean feature
// variance its tolerance is relative to: formed once for several runs on
// the same rows (the refinement of a sample's best starts on every row).
type kmeansRows struct {
	pts  []float64 // n × d, row-major
	n, d int
	vari float64 // meanVariance(pts)
}

// kmeansRowsOf checks x and k as KMeans does and returns x's rows.
func kmeansRowsOf(x *mat.Dense, k int) (*kmeansRows, error) {
	n, d := x.Dims()
	switch {
	case k < 1:
		return nil, fmt.Errorf("k-means: k = %d, want at least 1", k)
	case n < k:
		return nil, fmt.Errorf("k-means: %d rows cannot form %d clusters", n, k)
	case d == 0:
		return nil, errors.New("k-means: no features")
	}
	raw := x.RawMatrix()
	pts := raw.Data
	if raw.Stride != d {
		pts = make([]float64, n*d)
		for i := 0; i < n; i++ {
			copy(pts[i*d:(i+1)*d], raw.Data[i*raw.Stride:i*raw.Stride+d])
		}
	}
	for i, v := range pts {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("k-means: row %d, column %d: %v is not a finite number", i/d+1, i%d+1, v)
		}
	}
	return &kmeansRows{pts: pts, n: n, d: d, vari: meanVariance(pts, n, d)}, nil
}

// kmeans is KMeans on checked rows (k as kmeansRowsOf checked it).
func (rows *kmeansRows) kmeans(k int, opt KMeansOptions) (*KMeansResult, error) {
	opt = opt.withDefaults()
	pts, n, d := rows.pts, rows.n, rows.d
	tolAbs := opt.Tol * rows.vari
	if opt.Start != nil {
		if r, c := opt.Start.Dims(); r != k || c != d {
			return nil, fmt.Errorf("k-means: %d × %d start centres for k = %d, d = %d", r, c, k, d)
		}
		opt.Restarts = 1
	}

	runs := make([]*run, opt.Restarts)
	// Split the workers: restarts run side by side, and each restart gets
	// the workers left over (at least one).
	concurrent := min(opt.Workers, opt.Restarts)
	inner := max(1, opt.Workers/concurrent)
	par.For(opt.Restarts, concurrent, func(r int) {
		rr := &run{pts: pts, n: n, d: d, k: k, workers: inner, plain: opt.Plain, scratchAssign: opt.scratchAssign && opt.Restarts == 1}
		rng := rand.New(rand.NewPCG(opt.Seed, uint64(r)))
		t0 := time.Now()
		switch {
		case opt.Start != nil:
			rr.centers = make([]float64, k*d)
			for c := 0; c < k; c++ {
				mat.Row(rr.centers[c*d:(c+1)*d], c, opt.Start)
			}
		case opt.Init == Uniform:
			rr.seedUniform(rng)
		case opt.Init == GreedyKMeansPlusPlus:
			rr.seedPlusPlus(rng, 2+int(math.Log(float64(k))))
		default:
			rr.seedPlusPlus(rng, 1)
		}
		t1 := time.Now()
		rr.lloyd(opt.MaxIter, tolAbs)
		rr.seedTime, rr.lloydTime = t1.Sub(t0), time.Since(t1)
		// The bounds and partial sums are not needed any more.
		rr.freeBounds()
		rr.lower, rr.upper, rr.chunkSums, rr.stale = nil, nil, nil, nil
		runs[r] = rr
	})

	res := &KMeansResult{Inertias: make([]float64, len(runs)), Starts: make([]*mat.Dense, len(runs))}
	best := 0
	for r, rr := range runs {
		res.Inertias[r] = rr.inertia
		res.Starts[r] = mat.NewDense(k, d, rr.centers)
		if rr.inertia < runs[best].inertia {
			best = r
		}
	}
	b := runs[best]
	res.Centroids = mat.NewDense(k, d, b.centers)
	res.Assign = b.assign
	res.Inertia = b.inertia
	res.StartInertia = b.start
	res.Iterations = b.iters
	res.Converged = b.converged
	res.Restart = best
	res.SeedTime, res.LloydTime = b.seedTime, b.lloydTime
	res.freeAssign = b.freeAssign
	return res, nil
}

// meanVariance returns the mean over columns of each column's variance.
func meanVariance(pts []float64, n, d int) float64 {
	if n == 0 {
		return 0
	}
	mean := make([]float64, d)
	for i := 0; i < n; i++ {
		row := pts[i*d : i*d+d]
		for j, v := range row {
			mean[j] += v
		}
	}
	for j := range mean {
		mean[j] /= float64(n)
	}
	total := 0.0
	for i := 0; i < n; i++ {
		row := pts[i*d : i*d+d]
		for j, v := range row {
			e := v - mean[j]
			total += e * e
		}
	}
	return total / float64(n) / float64(d)
}

// run is one restart: its centres, assignment and Hamerly bounds.
type run struct {
	pts       []float64 // n × d, row-major
	n, d, k   int
	workers   int
	plain     bool
	seedTime  time.Duration
	lloydTime time.Duration
	centers   []float64 // k × d
	assign    []int32
	upper     []float64 // upper bound on the distance to the assigned centre
	lower     []float64 // lower bound on the distance to any other centre
	// freeBounds frees upper and lower, which are off the heap: with
	// the assignment they are 20 B a row (0.2 GB at 10 M rows) for the
	// length of one run (offheap).
	freeBounds func()
	// scratchAssign holds assign off the heap too; freeAssign frees it.
	scratchAssign bool
	freeAssign    func()
	inertia       float64
	start         float64 // the inertia at the starting centres
	iters         int
	converged     bool
	chunkSums     []float64 // per chunk: k×d coordinate sums
	chunkCount    []int     // per chunk: k counts
	// stale marks the chunks whose assignments changed since their sums
	// were formed: sums recomputes only those (a clean chunk's sums are
	// the same numbers, so the centres are the same to the bit).
	stale    []bool
	chunkVal []float64 // per chunk: a scalar (D² mass, inertia, changes)
}

func (r *run) chunks() int { return (r.n + chunkRows - 1) / chunkRows }

// forChunks calls fn for every chunk, on r.workers goroutines.
func (r *run) forChunks(fn func(c, lo, hi int)) {
	par.For(r.chunks(), r.workers, func(c int) { fn(c, c*chunkRows, min(r.n, (c+1)*chunkRows)) })
}

// sqDist returns ‖a − b‖² for two rows of equal length. Four accumulators
// break the chain of dependent additions (the loop is otherwise bound by
// the latency of one add per coordinate); the order of additions is fixed,
// so the result is deterministic.
func sqDist(a, b []float64) float64 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float64
	j := 0
	for ; j+4 <= len(a); j += 4 {
		x := a[j : j+4 : j+4]
		y := b[j : j+4 : j+4]
		e0, e1, e2, e3 := x[0]-y[0], x[1]-y[1], x[2]-y[2], x[3]-y[3]
		s0 += e0 * e0
		s1 += e1 * e1
		s2 += e2 * e2
		s3 += e3 * e3
	}
	for ; j < len(a); j++ {
		e := a[j] - b[j]
		s0 += e * e
	}
	return (s0 + s1) + (s2 + s3)
}

// sqDist3 is sqDist for three features written out (the same additions
// in the same order), small enough to inline where one distance is formed
// per row.
func sqDist3(a, b []float64) float64 {
	a, b = a[:3], b[:3]
	e0, e1, e2 := a[0]-b[0], a[1]-b[1], a[2]-b[2]
	return (e0*e0 + e1*e1) + e2*e2
}

// distances sets out[c] to sqDist(x, centre c) for the k = len(out) centres
// stored row-major in centers. Three and eight features (the common cases
// of a job log) get unrolled kernels that keep the row in registers; they
// add in the same order as sqDist, so both give the same bits.
func distances(x, centers, out []float64) {
	d := len(x)
	if d == 3 {
		// COSHH's paper features on one machine type (priority, execution
		// rate, arrival rate): sqDist's tail loop, in registers.
		centers = centers[:len(out)*3]
		for c := range out {
			out[c] = sqDist3(x, centers[c*3:c*3+3])
		}
		return
	}
	if d == 8 {
		x0, x1, x2, x3, x4, x5, x6, x7 := x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7]
		centers = centers[:len(out)*8]
		for c := range out {
			y := centers[c*8 : c*8+8 : c*8+8]
			e0, e1, e2, e3 := x0-y[0], x1-y[1], x2-y[2], x3-y[3]
			e4, e5, e6, e7 := x4-y[4], x5-y[5], x6-y[6], x7-y[7]
			out[c] = ((e0*e0 + e4*e4) + (e1*e1 + e5*e5)) + ((e2*e2 + e6*e6) + (e3*e3 + e7*e7))
		}
		return
	}
	for c := range out {
		out[c] = sqDist(x, centers[c*d:c*d+d])
	}
}

// nearest2 returns the index of the smallest of dist and the two smallest
// values (the first index among equals).
func nearest2(dist []float64) (a int, b1, b2 float64) {
	b1, b2 = math.Inf(1), math.Inf(1)
	for c, v := range dist {
		if v < b1 {
			b2, b1, a = b1, v, c
		} else if v < b2 {
			b2 = v
		}
	}
	return a, b1, b2
}

// seedPlusPlus chooses the initial centres by D² sampling. With trials > 1
// (greedy k-means++) each step draws that many candidates and keeps the one
// that lowers the potential Σ_i min_c ‖x_i − c‖² most.
func (r *run) seedPlusPlus(rng *rand.Rand, trials int) {
	n, d, k := r.n, r.d, r.k
	trials = max(trials, 1)
	r.centers = make([]float64, k*d)
	first := rng.IntN(n)
	copy(r.centers[:d], r.pts[first*d:first*d+d])
	minD := make([]float64, n)
	nc := r.chunks()
	mass := make([]float64, nc)
	update := func(c []float64, init bool) {
		r.forChunks(func(ch, lo, hi int) {
			s := 0.0
			for i := lo; i < hi; i++ {
				var dd float64
				if d == 3 {
					dd = sqDist3(r.pts[i*3:i*3+3], c)
				} else {
					dd = sqDist(r.pts[i*d:i*d+d], c)
				}
				if init || dd < minD[i] {
					minD[i] = dd
				}
				s += minD[i]
			}
			mass[ch] = s
		})
	}
	// draw returns a row drawn with probability ∝ minD, or -1 when every
	// row coincides with a chosen centre.
	draw := func(total float64) int {
		if !(total > 0) {
			return -1
		}
		u := rng.Float64() * total
		ch := 0
		for ; ch < nc-1 && u >= mass[ch]; ch++ {
			u -= mass[ch]
		}
		pick := -1
		lo, hi := ch*chunkRows, min(n, (ch+1)*chunkRows)
		for i := lo; i < hi; i++ {
			if minD[i] > 0 {
				pick = i
				if u < minD[i] {
					break
				}
				u -= minD[i]
			}
		}
		return pick
	}
	var pot []float64 // per chunk and candidate: the potential with it
	if trials > 1 {
		pot = make([]float64, nc*trials)
	}
	cand := make([]int, trials)
	update(r.centers[:d], true)
	for c := 1; c < k; c++ {
		total := 0.0
		for _, m := range mass {
			total += m
		}
		pick := draw(total)
		if pick >= 0 && trials > 1 {
			cand[0] = pick
			for t := 1; t < trials; t++ {
				cand[t] = draw(total)
			}
			r.forChunks(func(ch, lo, hi int) {
				p := pot[ch*trials : (ch+1)*trials]
				for t, ci := range cand {
					y := r.pts[ci*d : ci*d+d]
					s := 0.0
					for i := lo; i < hi; i++ {
						s += min(minD[i], sqDist(r.pts[i*d:i*d+d], y))
					}
					p[t] = s
				}
			})
			best, bestPot := 0, math.Inf(1)
			for t := range cand {
				s := 0.0
				for ch := 0; ch < nc; ch++ {
					s += pot[ch*trials+t]
				}
				if s < bestPot {
					best, bestPot = t, s
				}
			}
			pick = cand[best]
		}
		if pick < 0 {
			// Every row coincides with a chosen centre (fewer distinct rows
			// than k): take any row; the cluster will be empty and relocated.
			pick = rng.IntN(n)
		}
		copy(r.centers[c*d:c*d+d], r.pts[pick*d:pick*d+d])
		if c < k-1 {
			update(r.centers[c*d:c*d+d], false)
		}
	}
}

// seedUniform chooses k distinct rows uniformly at random.
func (r *run) seedUniform(rng *rand.Rand) {
	n, d, k := r.n, r.d, r.k
	r.centers = make([]float64, k*d)
	chosen := make(map[int]bool, k)
	for c := 0; c < k; c++ {
		i := rng.IntN(n)
		for chosen[i] {
			i = rng.IntN(n)
		}
		chosen[i] = true
		copy(r.centers[c*d:c*d+d], r.pts[i*d:i*d+d])
	}
}

// lloyd runs Hamerly's exact variant of Lloyd's algorithm from r.centers.
func (r *run) lloyd(maxIter int, tolAbs float64) {
	n, d, k := r.n, r.d, r.k
	nc := r.chunks()
	if r.scratchAssign {
		r.assign, r.freeAssign = offheap.Make[int32](n)
	} else {
		r.assign = make([]int32, n)
	}
	var bounds []float64
	bounds, r.freeBounds = offheap.Make[float64](2 * n)
	r.upper, r.lower = bounds[:n:n], bounds[n:]
	r.chunkSums = make([]float64, nc*k*d)
	r.chunkCount = make([]int, nc*k)
	r.chunkVal = make([]float64, nc)
	r.stale = make([]bool, nc)
	for ch := range r.stale {
		r.stale[ch] = true
	}
	half := make([]float64, k)   // half the distance to the nearest other centre
	move := make([]float64, k)   // how far each centre moved
	newC := make([]float64, k*d) // next centres
	counts := make([]int, k)

	// First pass: exact nearest and second-nearest distances, the inertia
	// at the starting centres and, while the chunk is in cache, its sums.
	r.forChunks(func(ch, lo, hi int) {
		dist := make([]float64, k)
		s := 0.0
		for i := lo; i < hi; i++ {
			distances(r.pts[i*d:i*d+d], r.centers, dist)
			a, b1, b2 := nearest2(dist)
			r.assign[i] = int32(a)
			r.upper[i] = math.Sqrt(b1)
			r.lower[i] = math.Sqrt(b2)
			s += b1
		}
		r.chunkVal[ch] = s
		r.chunkSum(ch, lo, hi)
	})
	r.start = 0
	for _, v := range r.chunkVal {
		r.start += v
	}

	for r.iters = 1; ; r.iters++ {
		// Update step: centres are the means of their rows.
		r.sums(newC, counts)
		r.relocateEmpty(newC, counts)
		shift := 0.0
		maxMove, secondMove, argMax := 0.0, 0.0, -1
		for c := 0; c < k; c++ {
			s := sqDist(newC[c*d:c*d+d], r.centers[c*d:c*d+d])
			shift += s
			m := math.Sqrt(s)
			move[c] = m
			if m > maxMove {
				secondMove, maxMove, argMax = maxMove, m, c
			} else if m > secondMove {
				secondMove = m
			}
		}
		copy(r.centers, newC)
		if shift <= tolAbs {
			r.converged = true
			break
		}
		if r.iters >= maxIter {
			break
		}
		// Half the distance from each centre to its nearest other centre.
		for c := range half {
			half[c] = math.Inf(1)
		}
		for a := 0; a < k; a++ {
			for b := a + 1; b < k; b++ {
				h := 0.5 * math.Sqrt(sqDist(r.centers[a*d:a*d+d], r.centers[b*d:b*d+d]))
				half[a] = min(half[a], h)
				half[b] = min(half[b], h)
			}
		}
		// Assignment step with Hamerly's bounds.
		r.forChunks(func(ch, lo, hi int) {
			changed := 0.0
			dist := make([]float64, k)
			for i := lo; i < hi; i++ {
				a := int(r.assign[i])
				u := r.upper[i] + move[a]
				l := r.lower[i]
				if a == argMax {
					l -= secondMove
				} else {
					l -= maxMove
				}
				m := max(half[a], l)
				if r.plain {
					m = math.Inf(-1)
				}
				if u <= m {
					r.upper[i], r.lower[i] = u, l
					continue
				}
				x := r.pts[i*d : i*d+d]
				if d == 3 {
					u = math.Sqrt(sqDist3(x, r.centers[a*3:a*3+3]))
				} else {
					u = math.Sqrt(sqDist(x, r.centers[a*d:a*d+d]))
				}
				if u <= m {
					r.upper[i], r.lower[i] = u, l
					continue
				}
				distances(x, r.centers, dist)
				na, b1, b2 := nearest2(dist)
				if na != a {
					r.assign[i] = int32(na)
					changed++
				}
				r.upper[i] = math.Sqrt(b1)
				r.lower[i] = math.Sqrt(b2)
			}
			r.chunkVal[ch] = changed
			if changed != 0 {
				r.chunkSum(ch, lo, hi) // while the chunk is in cache
			}
		})
		anyChange := false
		for _, v := range r.chunkVal {
			if v != 0 {
				anyChange = true
				break
			}
		}
		if !anyChange {
			r.converged = true
			break
		}
	}
	// Inertia with exact distances.
	r.forChunks(func(ch, lo, hi int) {
		s := 0.0
		for i := lo; i < hi; i++ {
			a := int(r.assign[i])
			if d == 3 {
				s += sqDist3(r.pts[i*3:i*3+3], r.centers[a*3:a*3+3])
			} else {
				s += sqDist(r.pts[i*d:i*d+d], r.centers[a*d:a*d+d])
			}
		}
		r.chunkVal[ch] = s
	})
	r.inertia = 0
	for _, v := range r.chunkVal {
		r.inertia += v
	}
}

// sums sets newC to the mean of each cluster's rows (unchanged centre for an
// empty cluster) and counts to the cluster sizes, combining per-chunk partial
// sums in chunk order. Only the stale chunks' partial sums are formed again:
// once clusters settle, most chunks keep every assignment and their sums.
func (r *run) sums(newC []float64, counts []int) {
	d, k := r.d, r.k
	r.forChunks(func(ch, lo, hi int) {
		if r.stale[ch] {
			r.chunkSum(ch, lo, hi)
		}
	})
	clear(newC)
	clear(counts)
	for ch := 0; ch < r.chunks(); ch++ {
		s := r.chunkSums[ch*k*d : (ch+1)*k*d]
		for j, v := range s {
			newC[j] += v
		}
		for c, v := range r.chunkCount[ch*k : (ch+1)*k] {
			counts[c] += v
		}
	}
	for c := 0; c < k; c++ {
		if counts[c] == 0 {
			copy(newC[c*d:c*d+d], r.centers[c*d:c*d+d])
			continue
		}
		inv := 1 / float64(counts[c])
		for j := c * d; j < c*d+d; j++ {
			newC[j] *= inv
		}
	}
}

// chunkSum forms chunk ch's (rows lo..hi−1) partial coordinate sums and
// counts per cluster, in row order, and marks them current.
func (r *run) chunkSum(ch, lo, hi int) {
	d, k := r.d, r.k
	s := r.chunkSums[ch*k*d : (ch+1)*k*d]
	cnt := r.chunkCount[ch*k : (ch+1)*k]
	clear(s)
	clear(cnt)
	if d == 3 {
		// The loop below written out for three features: the same
		// additions, in row order.
		for i := lo; i < hi; i++ {
			a := int(r.assign[i])
			cnt[a]++
			dst, x := s[a*3:a*3+3], r.pts[i*3:i*3+3]
			dst[0] += x[0]
			dst[1] += x[1]
			dst[2] += x[2]
		}
		r.stale[ch] = false
		return
	}
	for i := lo; i < hi; i++ {
		a := int(r.assign[i])
		cnt[a]++
		dst := s[a*d : a*d+d]
		for j, v := range r.pts[i*d : i*d+d] {
			dst[j] += v
		}
	}
	r.stale[ch] = false
}

// relocateEmpty gives every empty cluster the row farthest from its centre
// (among rows in clusters of two or more), then recomputes the means. It is
// rare, so it is simple: O(n·d) per empty cluster.
func (r *run) relocateEmpty(newC []float64, counts []int) {
	d := r.d
	moved := false
	for c := 0; c < r.k; c++ {
		if counts[c] != 0 {
			continue
		}
		far, farD := -1, -1.0
		for i := 0; i < r.n; i++ {
			a := int(r.assign[i])
			if counts[a] < 2 {
				continue
			}
			dd := sqDist(r.pts[i*d:i*d+d], newC[a*d:a*d+d])
			if dd > farD {
				far, farD = i, dd
			}
		}
		if far < 0 || farD == 0 {
			// No row can leave its cluster without emptying it, or every
			// row sits on its centre: the data has fewer distinct rows than
			// k. Leave the cluster empty.
			continue
		}
		counts[r.assign[far]]--
		counts[c]++
		r.assign[far] = int32(c)
		r.stale[far/chunkRows] = true
		r.upper[far], r.lower[far] = 0, 0 // forces an exact check next pass
		moved = true
	}
	if moved {
		r.sums(newC, counts)
	}
}
