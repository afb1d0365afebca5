package task

// The PUMA and Gridmix 2 job mixes of seed 004's evaluation (§6, Tables
// 1–2) and the machines they ran on, as data.

import "fmt"

// A MixJob is one job type of a benchmark mix, as seed 004 Tables 1–2
// characterise it: task counts and mean running times measured in the
// paper's cluster.
type MixJob struct {
	Class  string // profile class (lower case), the key for ProfileSet.For
	Name   string // as the table prints it
	Abbrev string // as §6 abbreviates it
	Maps   int    // map tasks
	// Reduces is the number of reduce tasks.
	Reduces int
	// MapTaskSeconds and ReduceTaskSeconds are the mean running times of
	// one map and one reduce task, s; JobSeconds the job's running time, s.
	MapTaskSeconds, ReduceTaskSeconds, JobSeconds float64
	// Intensity is "io" or "cpu" where §6 says which resource the job
	// stresses ("sort and MonsterQuery are I/O intensive jobs, whereas
	// Combiner and self-join are more CPU intensive"), else "".
	Intensity string
}

// A Mix is a benchmark's job types.
type Mix struct {
	Name   string
	Source string
	Jobs   []MixJob
	// BatchSizes are the numbers of jobs per batch of §6.3 (all jobs of a
	// batch are submitted together).
	BatchSizes []int
}

// PUMAMix returns the PUMA mix of seed 004 Table 2 ("Job Characteristics
// of the PUMA Workload") with §6.3's batches of 50 to 200 jobs.
func PUMAMix() Mix {
	return Mix{
		Name:   "puma",
		Source: "seed 004 (PRISM, IEEE TCC 2015) Table 2; batches §6.3; intensity §6",
		Jobs: []MixJob{
			{Class: "sort", Name: "Sort", Abbrev: "SRT", Maps: 16, Reduces: 8, MapTaskSeconds: 10.87, ReduceTaskSeconds: 24.67, JobSeconds: 97, Intensity: "io"},
			{Class: "self-join", Name: "Self-join", Abbrev: "SJ", Maps: 16, Reduces: 4, MapTaskSeconds: 7.76, ReduceTaskSeconds: 22.86, JobSeconds: 74, Intensity: "cpu"},
			{Class: "inverted-index", Name: "inverted-index", Abbrev: "II", Maps: 24, Reduces: 10, MapTaskSeconds: 50.5, ReduceTaskSeconds: 15.72, JobSeconds: 132},
			{Class: "classification", Name: "classification", Abbrev: "CL", Maps: 24, Reduces: 10, MapTaskSeconds: 4.73, ReduceTaskSeconds: 10.15, JobSeconds: 70},
		},
		BatchSizes: []int{50, 100, 150, 200},
	}
}

// GridmixMix returns the Gridmix 2 mix of seed 004 Table 1 ("Job
// Characteristics of the Gridmix Workload") with §6.3's batches of 25 to
// 100 jobs.
func GridmixMix() Mix {
	return Mix{
		Name:   "gridmix",
		Source: "seed 004 (PRISM, IEEE TCC 2015) Table 1; batches §6.3 and Fig. 15b; intensity §6",
		Jobs: []MixJob{
			{Class: "monsterquery", Name: "MonsterQuery", Abbrev: "MQ", Maps: 16, Reduces: 30, MapTaskSeconds: 12.38, ReduceTaskSeconds: 17.7, JobSeconds: 156, Intensity: "io"},
			{Class: "webdatascan", Name: "WebDataScan", Abbrev: "WDS", Maps: 16, Reduces: 20, MapTaskSeconds: 18.96, ReduceTaskSeconds: 14.66, JobSeconds: 96},
			{Class: "combiner", Name: "Combiner", Abbrev: "CM", Maps: 8, Reduces: 5, MapTaskSeconds: 99.54, ReduceTaskSeconds: 16.68, JobSeconds: 162, Intensity: "cpu"},
		},
		BatchSizes: []int{25, 50, 75, 100},
	}
}

// MaxBatch bounds Mix.Batch.
const MaxBatch = 1 << 20

// Batch returns a batch of n jobs of the mix, all submitted at time 0 as in
// §6.3, the job types taken in turn (the paper does not give the
// proportions of a batch; taking them in turn gives equal shares).
func (m Mix) Batch(n int) ([]MixJob, error) {
	if n < 0 || n > MaxBatch {
		return nil, fmt.Errorf("mix %s: batch size %d is outside [0, %d]", m.Name, n, MaxBatch)
	}
	if len(m.Jobs) == 0 {
		return nil, fmt.Errorf("mix %s: no job types", m.Name)
	}
	b := make([]MixJob, n)
	for i := range b {
		b[i] = m.Jobs[i%len(m.Jobs)]
	}
	return b, nil
}

// Seed004DiskMBs is the local disk bandwidth assumed for seed 004's
// machines, MB/s: §6 says only "100 GB of local high speed hard drive";
// 100 MB/s is a typical sequential rate of such a drive (an assumption).
const Seed004DiskMBs = 100

// Seed004Machine is the capacity of one machine of seed 004 §6's cluster:
// a four-core Xeon E5606, 8 GB RAM, a local hard drive (Seed004DiskMBs,
// assumed) and a 1 Gb/s NIC (125 MB/s).
func Seed004Machine() Vector {
	return Vector{CPU: 4, Memory: 8, Disk: Seed004DiskMBs, Network: 125}
}
