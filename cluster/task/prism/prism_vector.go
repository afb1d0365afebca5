package prism

// Multi-resource vectors for the phase-level model of PRISM (seed 004:
// Zhang et al., "PRISM: Fine-Grained Resource-Aware Scheduling for
// MapReduce", IEEE TCC 2015). The paper profiles CPU, memory, local disk
// and network use per phase (§3, Fig. 8); a machine has a capacity in the
// same four resources.

import (
	"fmt"
	"math"
	"strings"
)

// Dim names one resource of a [Vector].
type Dim int

// The four resources of seed 004 §3, in the order of a [Vector].
const (
	CPU     Dim = iota // cores (1 = one core fully busy)
	Memory             // GB
	Disk               // local disk throughput, MB/s (10^6 bytes per second)
	Network            // network throughput, MB/s
	NumDims            // number of resources
)

var dimNames = [NumDims]string{"cpu", "mem", "disk", "net"}
var dimUnits = [NumDims]string{"cores", "GB", "MB/s", "MB/s"}

// String returns the resource's short name (cpu, mem, disk, net).
func (d Dim) String() string {
	if d < 0 || d >= NumDims {
		return fmt.Sprintf("Dim(%d)", int(d))
	}
	return dimNames[d]
}

// Unit returns the unit of the resource (cores, GB, MB/s).
func (d Dim) Unit() string {
	if d < 0 || d >= NumDims {
		return "?"
	}
	return dimUnits[d]
}

// MaxAmount bounds every component of a demand or capacity vector (in the
// component's unit). It keeps sums of thousands of vectors finite, so no
// contention or utilisation figure becomes Inf or NaN.
const MaxAmount = 1e15

// A Vector is an amount of each resource: cores, GB, MB/s of local disk and
// MB/s of network ([CPU], [Memory], [Disk], [Network]). It serves as a
// phase's demand, a machine's capacity or free capacity, and a job's usage.
type Vector [NumDims]float64

// String formats the vector with its units, e.g.
// "cpu 0.17 cores, mem 0.11 GB, disk 11.2 MB/s, net 0 MB/s".
func (v Vector) String() string {
	var b strings.Builder
	for d := range NumDims {
		if d > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s %.3g %s", d, v[d], d.Unit())
	}
	return b.String()
}

// Add returns v + w.
func (v Vector) Add(w Vector) Vector {
	for d := range v {
		v[d] += w[d]
	}
	return v
}

// Sub returns v − w.
func (v Vector) Sub(w Vector) Vector {
	for d := range v {
		v[d] -= w[d]
	}
	return v
}

// Scale returns k·v.
func (v Vector) Scale(k float64) Vector {
	for d := range v {
		v[d] *= k
	}
	return v
}

// Fits reports whether v ≤ free in every resource: a phase of demand v can
// be admitted on a machine with free capacity free.
func (v Vector) Fits(free Vector) bool {
	return v[CPU] <= free[CPU] && v[Memory] <= free[Memory] &&
		v[Disk] <= free[Disk] && v[Network] <= free[Network]
}

// DominantShare is DRF's dominant share of usage v against capacity c
// (Ghodsi et al., NSDI 2011, cited as [11] in seed 004 eq. 3):
// max over resources r with c_r > 0 of v_r / c_r. Resources of zero
// capacity are left out.
func (v Vector) DominantShare(c Vector) float64 {
	s := 0.0
	for d := range v {
		if c[d] > 0 {
			s = max(s, v[d]/c[d])
		}
	}
	return s
}

// Check reports the first component that is NaN, negative, infinite or
// above [MaxAmount], naming it with its unit; what names the vector in the
// message.
func (v Vector) Check(what string) error {
	for d := range v {
		x := v[d]
		if math.IsNaN(x) || x < 0 || x > MaxAmount {
			return fmt.Errorf("%s: %s must be in [0, %g] %s, got %v", what, Dim(d), float64(MaxAmount), Dim(d).Unit(), x)
		}
	}
	return nil
}
