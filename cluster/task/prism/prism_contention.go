package prism

// The contention model of the phase-level simulation: what over-packing a
// machine costs (seed 004 §3, §6.1: "when the number of slots is large ...
// the running time again becomes high due to multiple tasks competing for
// bottleneck resources").
//
// Every phase on a machine runs at a speed ρ ∈ [0, 1] (1 = its profiled
// speed, Phase.Duration seconds for the whole phase) and then uses ρ·d of
// its demand d. The speeds are the max-min fair (progressive-filling)
// solution of Σ_i ρ_i·d_ir ≤ C_r for every resource r, ρ_i ≤ 1: all
// phases speed up together until a resource saturates; the phases using
// it stop there; the others continue. In particular, when one resource r
// is oversubscribed, every phase using it runs at C_r / Σ_i d_ir — slowed
// in proportion to the oversubscription — and the other phases at full
// speed; when none is, every phase runs at full speed. Memory is treated
// like the throughputs (its oversubscription stands for paging), except
// that a phase holds all of its memory whatever its speed (MachineUsage).
// A phase that needs a resource the machine has none of (C_r = 0) gets
// speed 0: the task-level core should not place it there.
//
// Shared without loss, an oversubscribed resource would still deliver its
// whole capacity, and over-packing would cost nothing in throughput; seed
// 004 measured the opposite (§6.1, Figs. 6–7). ThrashedCapacity lowers the
// capacity of an oversubscribed resource before the speeds are computed
// (PhaseSimConfig.Thrash; Seed004Thrash for seed 004's runs).

// DemandSum returns the sum of the demands.
func DemandSum(demands []Vector) Vector {
	var s Vector
	for _, d := range demands {
		s = s.Add(d)
	}
	return s
}

// PhaseRates returns the speed ρ_i ∈ [0, 1] of each phase of demand
// demands[i] running together on a machine of capacity c (see above),
// written to rates (grown if short). O(NumDims · len(demands)).
func PhaseRates(c Vector, demands []Vector, rates []float64) []float64 {
	n := len(demands)
	if cap(rates) < n {
		rates = make([]float64, n)
	}
	rates = rates[:n]
	const unset = -1.0
	for i := range rates {
		rates[i] = unset
	}
	var used Vector // by phases whose speed is set
	for {
		var unsetSum Vector
		left := 0
		for i, d := range demands {
			if rates[i] == unset {
				unsetSum = unsetSum.Add(d)
				left++
			}
		}
		if left == 0 {
			return rates
		}
		level, bottleneck := 1.0, Dim(-1)
		for r := range NumDims {
			if unsetSum[r] > 0 {
				if l := max(c[r]-used[r], 0) / unsetSum[r]; l < level {
					level, bottleneck = l, r
				}
			}
		}
		for i, d := range demands {
			if rates[i] == unset && (bottleneck < 0 || d[bottleneck] > 0) {
				rates[i] = level
				used = used.Add(d.Scale(level))
			}
		}
	}
}

// MachineUsage returns what phases of demands running at speeds rates use
// of each resource: Σ_i ρ_i·d_ir for CPU, disk and network, and the memory
// they hold, Σ_i d_i,mem, capped at the machine's memory c[Memory].
func MachineUsage(c Vector, demands []Vector, rates []float64) Vector {
	var u Vector
	held := 0.0
	for i, d := range demands {
		u = u.Add(d.Scale(rates[i]))
		held += d[Memory]
	}
	u[Memory] = min(held, c[Memory])
	return u
}

// ThrashedCapacity is the capacity a machine of capacity c delivers to
// phases whose demands sum to sum, under the thrashing penalties thrash
// (one β_r ≥ 0 per resource): where the demand on resource r exceeds the
// capacity by the factor x_r = sum_r / c_r > 1, the resource delivers
// c_r / (1 + β_r·(x_r − 1)) instead of c_r — seek thrashing of a disk
// shared by more streams than it can serve, retransmissions on a
// saturated link, paging when memory is over-committed (seed 004 §3,
// §6.1: over-packing makes the running time "again high ... due to
// multiple tasks competing for bottleneck resources", Figs. 6–7). β_r = 0
// is the loss-free model (the resource delivers c_r however oversubscribed);
// β_r = 1 makes the goodput c_r / x_r, so each phase using r runs at
// 1/x_r² of full speed. Resources that are not oversubscribed keep c_r.
func ThrashedCapacity(c, thrash, sum Vector) Vector {
	for r := range NumDims {
		if thrash[r] > 0 && c[r] > 0 && sum[r] > c[r] {
			x := sum[r] / c[r]
			c[r] /= 1 + thrash[r]*(x-1)
		}
	}
	return c
}
