package data

import "testing"

// clusterLogMap maps testdata/cluster-log.csv (a Hadoop-style export with its
// own column names and submit times in epoch milliseconds) to the canonical
// columns; the README uses the same mapping.
const clusterLogMap = "job_id=jobid,submit_time=submitted_ms:ms,user=owner,queue=pool,map_tasks=maps,reduce_tasks=reduces," +
	"map_task_seconds=map_secs,reduce_task_seconds=reduce_secs,input_bytes=hdfs_read,shuffle_bytes=shuffle,output_bytes=hdfs_written"

func TestClusterLogCSV(t *testing.T) {
	m, err := ParseMapping(clusterLogMap)
	if err != nil {
		t.Fatal(err)
	}
	// Its state column marks job 5 FAILED and job 9 KILLED: dropped by
	// default, kept with KeepFailed.
	d, err := ReadFile("testdata/cluster-log.csv", ReadOptions{Map: m, Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	if d.Len() != 10 || d.ID.At(4) != "job_201901_0006" || d.ID.At(7) != "job_201901_0010" {
		t.Fatalf("%d jobs without the failed ones", d.Len())
	}
	j, err := ReadFile("testdata/cluster-log.csv", ReadOptions{Map: m, Strict: true, Log: LogOptions{KeepFailed: true}})
	if err != nil {
		t.Fatal(err)
	}
	if j.Len() != 12 {
		t.Fatalf("%d jobs", j.Len())
	}
	if j.ID.At(3) != "job_201901_0004" || j.Submit[1] != 1546300812.5 || j.UserAt(6) != "ml-team" || j.UserAt(7) != DefaultUser {
		t.Errorf("row values: %q %v %q %q", j.ID.At(3), j.Submit[1], j.UserAt(6), j.UserAt(7))
	}
	if q, _ := j.Queue.At(6); q != "research" {
		t.Errorf("queue %q", q)
	}
	if v, ok := j.ReduceTaskSeconds.At(2); ok {
		t.Errorf("empty reduce_secs read as %v", v)
	}
	if v, _ := j.MapTaskSeconds.At(3); v != 41230.75 {
		t.Errorf("map_task_seconds %v", v)
	}
	if v, _ := j.InputBytes.At(3); v != 107374182400 {
		t.Errorf("input_bytes %v", v)
	}
	if _, ok := j.ShuffleBytes.At(2); ok {
		t.Error("empty shuffle read as a value")
	}
	if j.Present(ColSize) || j.Present(ColStart) {
		t.Error("absent columns present")
	}
}
