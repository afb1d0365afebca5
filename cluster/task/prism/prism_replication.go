package prism

// HDFS replication of the reduce tasks' output: the remote half of a
// reduce's write that a task's own I/O counters do not show.

import "fmt"

// HDFSReplication is Hadoop's default number of replicas of an HDFS block
// (dfs.replication = 3 in hdfs-default.xml of 0.20.2 and YARN 2.0.x; seed
// 004 §6 does not change it).
const HDFSReplication = 3

// MaxHDFSReplication bounds ReplicateHDFSWrites' replicas (HDFS's own
// limit, dfs.replication.max, defaults to 512).
const MaxHDFSReplication = 512

// ReplicateHDFSWrites returns copies of jobs whose reduce-side phases also
// carry the remote replicas of their HDFS writes: a phase writing h MB/s
// to HDFS (Phase.HDFS; on the reduce side it is the job's output) makes
// the other replicas−1 datanodes of its pipeline receive h MB/s each over
// the network and write it to their disks, so the phase's demand gains
// (replicas−1)·h MB/s of disk and as much network. The profile's HDFS
// column is the task's own counter (seed 004 §3: "I/O usage are obtained
// by reading MapReduce I/O Counters"), which counts the bytes the client
// writes once. The remote replicas land on other machines; on a cluster
// of identical machines running the same mix each machine receives about
// as much replica traffic as its own reduces send, so the model charges it
// to the writing phase's machine (a mean-field approximation: no
// placement of replicas). Map-side HDFS I/O is the input read, which is
// not replicated. PRISM sees the added demand (it packs by the phase's
// demand), as a profile measured with the datanodes' load would show it.
// replicas = 1 returns plain copies. An error names a bad replicas.
func ReplicateHDFSWrites(jobs []PhaseJob, replicas int) ([]PhaseJob, error) {
	if replicas < 1 || replicas > MaxHDFSReplication {
		return nil, fmt.Errorf("hdfs replication %d is outside [1, %d]", replicas, MaxHDFSReplication)
	}
	extra := float64(replicas - 1)
	out := make([]PhaseJob, len(jobs))
	for i, j := range jobs {
		ph := make([]Phase, len(j.Phases[ReduceSide]))
		for k, p := range j.Phases[ReduceSide] {
			p.Demand[Disk] += extra * p.HDFS
			p.Demand[Network] += extra * p.HDFS
			ph[k] = p
		}
		j.Phases[ReduceSide] = ph
		out[i] = j
	}
	return out, nil
}
