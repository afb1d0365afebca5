package inputs

import (
	"crypto/sha256"
	"encoding/binary"
	"hash"
	"math"

	"github.com/schedplan/schedplan/pipeline/experiment"
)

// SimJobsKey is the canonical content of the simulation jobs and the
// capacity, the key of the stages that simulate them (Inputs.JobsKey): the
// SHA-256 of the capacity and then, job by job, its arrival, size,
// estimate, weight and cap, each as the little-endian bits of a float64.
// It reads SimJobs when they are held, else the log's columns they are
// built from (submit times, Sizes, the weights of experiment.JobRange;
// estimate = size and cap = 0 as JobsOf builds them): the same bytes,
// without building the jobs.
func (in *Inputs) SimJobsKey() ([]byte, error) {
	k := newKeyWriter()
	k.put(in.Capacity)
	if !in.released() {
		for _, j := range in.SimJobs {
			k.job(j.Arrival, j.Size, j.Estimate, j.Weight, j.Cap)
		}
		return k.sum(), nil
	}
	rng := in.sim.rng
	if rng == nil {
		var err error
		if rng, err = experiment.NewJobRange(in.Jobs, in.Sizes, in.Spec); err != nil {
			return nil, err
		}
	}
	for i, s := range in.Sizes {
		k.job(in.Jobs.Submit[i], s, s, rng.Weight(i), 0)
	}
	return k.sum(), nil
}

// keyWriter hashes float64s through a buffer: one call of the hash per 4
// KiB, not per value (50 M calls at 10 M jobs); the bytes hashed are the
// same.
type keyWriter struct {
	buf []byte
	h   hash.Hash
}

func newKeyWriter() *keyWriter {
	return &keyWriter{buf: make([]byte, 0, 4096), h: sha256.New()}
}

// put appends v's little-endian bits.
func (k *keyWriter) put(v float64) {
	if len(k.buf)+8 > cap(k.buf) {
		k.h.Write(k.buf)
		k.buf = k.buf[:0]
	}
	k.buf = binary.LittleEndian.AppendUint64(k.buf, math.Float64bits(v))
}

// job appends one job's five values.
func (k *keyWriter) job(arrival, size, estimate, weight, jobCap float64) {
	k.put(arrival)
	k.put(size)
	k.put(estimate)
	k.put(weight)
	k.put(jobCap)
}

// sum is the hash of everything put.
func (k *keyWriter) sum() []byte {
	k.h.Write(k.buf)
	k.buf = k.buf[:0]
	return k.h.Sum(nil)
}
