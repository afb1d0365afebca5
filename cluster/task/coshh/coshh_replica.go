package coshh

import "math/rand/v2"

// COSHHReplication is the number of replicas of each input block (seed 003
// §5.2: "the data replication number is set to three").
const COSHHReplication = 3

// ReplicaCandidates appends to dst the machines that may hold replicas of
// job's input under COSHH's replication (seed 003 §3.2, after the LP: "from
// all the suggested resources for these jobs, three of them are randomly
// selected"): every machine of a type whose suggested set holds the job's
// primary or secondary class. Machines are numbered type by type, as
// COSHHConfig.Machines counts them.
func (r *COSHHRouter) ReplicaCandidates(dst []int, job int) []int {
	jb := &r.jobs[job]
	suggests := func(t int) bool {
		for s := 0; s < 2; s++ {
			c := jb.class[s]
			if c < 0 {
				continue
			}
			for _, tt := range r.typesOf[s][c] {
				if int(tt) == t {
					return true
				}
			}
		}
		return false
	}
	first := 0
	for t, n := range r.cfg.Machines {
		if suggests(t) {
			for m := first; m < first+n; m++ {
				dst = append(dst, m)
			}
		}
		first += n
	}
	return dst
}

// COSHHPlaceReplicas appends to dst the machines that hold the replicas of one
// input block: min(replicas, machines) distinct machines, drawn uniformly
// from candidates first and, when they are fewer than replicas, from the
// other machines of the cluster (HDFS keeps the replication number).
// candidates nil or empty draws from every machine, as Hadoop's default
// placement does (the FIFO and Fair baselines of seed 003 §5). candidates
// must be distinct machines in [0, machines).
func COSHHPlaceReplicas(dst, candidates []int, machines, replicas int, rng *rand.Rand) []int {
	var pool []int
	return placeReplicas(dst, &pool, candidates, machines, replicas, rng)
}

// placeReplicas is COSHHPlaceReplicas with the copy of the candidates in
// *buf, a buffer reused across calls (the same draws).
func placeReplicas(dst []int, buf *[]int, candidates []int, machines, replicas int, rng *rand.Rand) []int {
	replicas = min(replicas, machines)
	from := len(dst)
	// Partial Fisher–Yates over a copy of the candidates.
	*buf = append((*buf)[:0], candidates...)
	pool := *buf
	for k := 0; k < replicas && k < len(pool); k++ {
		i := k + rng.IntN(len(pool)-k)
		pool[k], pool[i] = pool[i], pool[k]
		dst = append(dst, pool[k])
	}
	// The rest from the other machines, by rejection (few replicas).
	for len(dst)-from < replicas {
		m := rng.IntN(machines)
		taken := false
		for _, x := range dst[from:] {
			if x == m {
				taken = true
				break
			}
		}
		if !taken {
			dst = append(dst, m)
		}
	}
	return dst
}

// COSHHLocal reports whether a map task on machine reads a local block: whether
// one of the block's replicas is on the machine (seed 003 §5.1, Locality).
func COSHHLocal(replicas []int, machine int) bool {
	for _, m := range replicas {
		if m == machine {
			return true
		}
	}
	return false
}

// known reports whether job arrived (and was queued) and is not done.
func (r *COSHHRouter) known(job int) bool { return job >= 0 && job < len(r.jobs) && r.jobs[job].known }
