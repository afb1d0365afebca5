package swimfull

import (
	"io"
	"math"

	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/data/internal/logread"
)

// Full-format SWIM traces: the per-job lines that SWIM's
// parse-hadoop-jobhistory.pl writes from Hadoop job history and that its
// WorkloadSynthesis.pl samples from (github.com/SWIMProjectUCB/SWIM,
// workloadSuite). Fourteen tab-separated fields: job id, job name, map
// input bytes, shuffle bytes, reduce output bytes, submit time (s),
// duration (finish − launch, s), map task time and reduce task time
// (task-seconds), total task time, map tasks, reduce tasks, and the input
// and output paths (MD5 hashes, may be empty). The 6-column SWIM .tsv is
// the sampled subset of these (FormatTSV).
//
// A job becomes job_id, submit_time, the three byte counts, map/reduce
// task-seconds and map/reduce task counts. The duration is run time from
// launch, not response time (launch − submit is not in the trace), so it
// gives no start or finish time.

// swimFullMinFields is the number of fields up to the reduce task count.
const swimFullMinFields = 12

var swimFullNames = [swimFullMinFields]string{
	"job id", "job name", "map input bytes", "shuffle bytes", "reduce output bytes",
	"submit time", "duration", "map task time", "reduce task time", "total task time",
	"map tasks", "reduce tasks",
}

func (s *logState) readSWIMFull(r io.Reader, file string) error {
	var f [16][]byte
	var v [swimFullMinFields]float64
	return s.EachLine(r, file, func(line []byte, ln int64) error {
		n := data.SplitTabs(line, f[:])
		if n >= data.TSVFields && n <= data.TSVMaxFields && ln == 1 {
			return data.InputErrorf(file, 1, "", "a full-format SWIM line has 12 to 14 tab-separated fields, this one has %d: a sampled SWIM .tsv (6 fields, 9 with paths); read it with --format tsv", n)
		}
		if n < swimFullMinFields || n > 14 {
			return s.Bad(file, ln, "", "a full-format SWIM line has 12 to 14 tab-separated fields, this one has %d", n)
		}
		if len(f[0]) == 0 {
			return s.Bad(file, ln, swimFullNames[0], "empty job id")
		}
		bad := false
		for k := 2; k < swimFullMinFields && !bad; k++ {
			x, ok := logread.ParseFloatBytes(f[k])
			if len(f[k]) == 0 && k != 5 { // the script prints nothing for a counter it never saw
				x, ok = 0, true
			}
			if !ok || math.IsInf(x, 0) || x < 0 {
				if err := s.Bad(file, ln, swimFullNames[k], "%q is not a non-negative number", f[k]); err != nil {
					return err
				}
				bad = true
			}
			v[k] = x
		}
		if bad {
			return nil
		}
		if v[10] > math.MaxInt32 || v[11] > math.MaxInt32 || v[2] >= 1<<63 || v[3] >= 1<<63 || v[4] >= 1<<63 {
			return s.Bad(file, ln, "", "a count is too large")
		}
		r := data.NewJobRow()
		r.ID = logread.UnsafeString(f[0])
		r.Submit = v[5]
		r.InputBytes, r.ShuffleBytes, r.OutputBytes = int64(v[2]), int64(v[3]), int64(v[4])
		r.MapTaskSeconds, r.ReduceTaskSeconds = v[7], v[8]
		r.MapTasks, r.ReduceTasks = int32(v[10]), int32(v[11])
		s.AddJob(&r)
		return nil
	})
}
