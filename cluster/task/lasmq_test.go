package task

import "testing"

// Hand-computed LAS_MQ runs (seed 000 §3, Alg. 1–2).
func TestLASMQHand(t *testing.T) {
	for _, tc := range []struct {
		name, spec string
		cl         *Cluster
		jobs       []Job
		want       []float64
	}{
		// A (8 maps of 1 s) alone takes all 4 containers; its service
		// reaches α_0 = 4 at t=1 and it moves to queue 2. B arrives at 1:
		// the queues share 2 + 2 containers; B's 2 tasks run 1–2, A's 2
		// tasks 1–2, A's last 2 tasks 2–3.
		{"demotion and weighted sharing", "las_mq:k=2,alpha0=4,stage=false,limit=0",
			Uniform(1, 4), []Job{mr(0, 8, 1, 0, 0, 0), mr(1, 2, 1, 0, 0, 0)}, []float64{3, 1}},
		// One container, strict priority, FIFO within a queue. With stage
		// awareness, A's first task (10% of its stage) makes its
		// estimate 1/0.1 = 10 ≥ α_0 = 5 at t=1: A is demoted and B
		// (arrived at 0.5) runs 1–2; A's other 9 tasks run 2–11.
		{"stage aware", "las_mq:k=2,alpha0=5,strict=true,order=fifo,limit=0",
			Uniform(1, 1), []Job{mr(0, 10, 1, 0, 0, 0), mr(0.5, 1, 1, 0, 0, 0)}, []float64{11, 1.5}},
		// Without it A keeps queue 1 (ahead of B by entry) until its
		// service reaches 5 at t=5; B runs 5–6.
		{"not stage aware", "las_mq:k=2,alpha0=5,strict=true,order=fifo,stage=false,limit=0",
			Uniform(1, 1), []Job{mr(0, 10, 1, 0, 0, 0), mr(0.5, 1, 1, 0, 0, 0)}, []float64{11, 5.5}},
		// Ordered by remaining containers instead, B (1 left) goes
		// before A (9 left) at t=1 even without stage awareness.
		{"order by remaining containers", "las_mq:k=2,alpha0=5,strict=true,stage=false,limit=0",
			Uniform(1, 1), []Job{mr(0, 10, 1, 0, 0, 0), mr(0.5, 1, 1, 0, 0, 0)}, []float64{11, 1.5}},
		// Admission limit 1: B waits for A however small it is.
		{"admission limit", "las_mq:k=2,alpha0=5,strict=true,stage=false,limit=1",
			Uniform(1, 1), []Job{mr(0, 10, 1, 0, 0, 0), mr(0.5, 1, 1, 0, 0, 0)}, []float64{10, 10.5}},
		// Leftover (work conservation, Alg. 2 line 13): A (1 map of 10 s)
		// is demoted at t=1 (α_0 = 1). B (3 maps of 1 s) arrives at 2:
		// the two queues' shares are 2 and 2 containers; B takes its 2,
		// A's queue uses 1 and has nothing ready, so B also gets the
		// leftover container and ends at 3.
		{"leftover", "las_mq:k=2,alpha0=1,limit=0",
			Uniform(1, 4), []Job{mr(0, 1, 10, 0, 0, 0), mr(2, 3, 1, 0, 0, 0)}, []float64{10, 1}},
	} {
		r := runSpec(t, tc.jobs, tc.cl, tc.spec, Options{})
		checkResponses(t, tc.name, responses(tc.jobs, r), tc.want)
	}
}
