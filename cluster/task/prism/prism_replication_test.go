package prism

import (
	"strings"
	"testing"
)

// ReplicateHDFSWrites by hand: a reduce phase writing 5 MB/s to HDFS with
// 3 replicas gains 10 MB/s of disk and 10 MB/s of network; the map side
// (HDFS reads) and the input jobs are unchanged; bad replica counts are
// errors that name the value.
func TestReplicateHDFSWrites(t *testing.T) {
	in := []PhaseJob{{Name: "j", Count: [NumSides]int{1, 1}, Phases: [NumSides][]Phase{
		{{Kind: PhaseMap, Duration: 1, Demand: Vector{CPU: 0.5, Disk: 2}, HDFS: 7}},
		{{Kind: PhaseShuffle, Duration: 1, Demand: Vector{Network: 3}}, {Kind: PhaseReduce, Duration: 1, Demand: Vector{CPU: 0.1, Disk: 4}, HDFS: 5}},
	}}}
	for _, tc := range []struct {
		replicas      int
		disk, network float64 // of the reduce phase
	}{{1, 4, 0}, {3, 14, 10}} {
		out, err := ReplicateHDFSWrites(in, tc.replicas)
		if err != nil {
			t.Fatalf("replicas %d: %v", tc.replicas, err)
		}
		r := out[0].Phases[ReduceSide][1].Demand
		if r[Disk] != tc.disk || r[Network] != tc.network || r[CPU] != 0.1 {
			t.Errorf("replicas %d: reduce phase demand %v, want disk %g, network %g, cpu 0.1", tc.replicas, r, tc.disk, tc.network)
		}
		if sh := out[0].Phases[ReduceSide][0].Demand; sh != (Vector{Network: 3}) {
			t.Errorf("replicas %d: shuffle (no HDFS) demand %v changed", tc.replicas, sh)
		}
		if m := out[0].Phases[MapSide][0].Demand; m != (Vector{CPU: 0.5, Disk: 2}) {
			t.Errorf("replicas %d: map phase demand %v changed (HDFS reads are not replicated)", tc.replicas, m)
		}
	}
	if d := in[0].Phases[ReduceSide][1].Demand; d[Disk] != 4 || d[Network] != 0 {
		t.Errorf("input job modified: %v", d)
	}
	for _, bad := range []int{0, -1, MaxHDFSReplication + 1} {
		if _, err := ReplicateHDFSWrites(in, bad); err == nil || !strings.Contains(err.Error(), "replication") {
			t.Errorf("replicas %d: error %v, want one naming the replication", bad, err)
		}
	}
}
