package task

import (
	"testing"
)

// A hand-computed report. Machine type a: 1 machine of 2 containers at
// rate 1; b: 1 machine of 1 container at rate 2 (offered first, being
// faster). Job 1 (user u): 2 tasks of 2 s; job 2 (user v): 1 task of 2 s;
// both at 0 in queue x. FIFO puts job 1's first task on b (1 s), its
// second and job 2's on a (2 s each): both complete at 2.
func TestSummarize(t *testing.T) {
	cl := &Cluster{Types: []MachineType{{Name: "a", Count: 1, Containers: 2, ExecRate: 1}, {Name: "b", Count: 1, Containers: 1, ExecRate: 2}}}
	jobs := []Job{mr(0, 2, 2, 0, 0, 0), mr(0, 1, 2, 0, 0, 0)}
	jobs[0].User, jobs[1].User = "u", "v"
	jobs[0].Queue, jobs[1].Queue = "x", "x"
	r := runSpec(t, jobs, cl, "fifo", Options{})
	dl, err := PSDeadlines(jobs, cl)
	if err != nil {
		t.Fatal(err)
	}
	// Capped PS at rate 4 (caps: job 1 4/1 = 4, job 2 2/1 = 2): 2 each
	// until job 2 (work 2) ends at 1; job 1 (work 4) has 2 left at rate 4:
	// 1.5.
	checkResponses(t, "deadlines", dl, []float64{1.5, 1})
	rep := Summarize(jobs, cl, r, dl)
	a := rep.All
	switch {
	case a.Jobs != 2 || a.Response.Mean != 2 || a.Makespan != 2:
		t.Errorf("all: %+v", a)
	// Times alone (AloneTimes): job 1's tasks on b (1 s) and a (2 s): 2;
	// job 2's one task on b: 1 (= SlowdownFloor). Slowdowns 2/2 and 2/1
	// (work/rate would give 2/1 and 2/0.5 = 4, as if job 2's one task
	// could use the cluster).
	case a.Slowdown.Min != 1 || a.Slowdown.Max != 2:
		t.Errorf("slowdowns %+v, want 1 and 2", a.Slowdown)
	case a.Missed != 2 || a.MaxLate != 1:
		t.Errorf("missed %d, max late %v; want 2 and 1", a.Missed, a.MaxLate)
	case !near(a.Utilisation, 6.0/(4*2), 1e-12):
		t.Errorf("utilisation %v, want 0.75", a.Utilisation)
	}
	if len(rep.Users) != 2 || rep.Users[0].Name != "u" || rep.Users[1].Name != "v" || rep.Users[1].Summary.Jobs != 1 || rep.Users[1].Summary.Missed != 1 {
		t.Errorf("users %+v", rep.Users)
	}
	if len(rep.Queues) != 1 || rep.Queues[0].Name != "x" || rep.Queues[0].Summary.Jobs != 2 {
		t.Errorf("queues %+v", rep.Queues)
	}
	// Busy: a 2 containers × 2 s, b 1 container × 1 s; buckets of 1 s.
	if len(rep.Types) != 2 || rep.Types[0].Mean != 1 || rep.Types[1].Mean != 0.5 {
		t.Errorf("types %+v", rep.Types)
	}
	if r.UtilWidth != 1 || len(r.Util[0]) != 2 || r.Util[0][0] != 1 || r.Util[0][1] != 1 || r.Util[1][0] != 1 || r.Util[1][1] != 0 {
		t.Errorf("utilisation series %v (width %v)", r.Util, r.UtilWidth)
	}
	if rep.Decisions != r.Decisions || rep.Decisions < 3 {
		t.Errorf("decisions %d", rep.Decisions)
	}
}

// The utilisation series stays within its bucket budget on long runs and
// keeps the busy integral.
func TestUtilisationBuckets(t *testing.T) {
	jobs := []Job{mr(0, 1, 1000, 0, 0, 0), mr(5000, 1, 10, 0, 0, 0)}
	r := runSpec(t, jobs, Uniform(1, 1), "fifo", Options{UtilBuckets: 16})
	if len(r.Util[0]) > 16 {
		t.Fatalf("%d buckets, want ≤ 16", len(r.Util[0]))
	}
	busy := 0.0
	for k, u := range r.Util[0] {
		w := r.UtilWidth
		if k == len(r.Util[0])-1 {
			w = 5010 - float64(k)*r.UtilWidth
		}
		busy += u * w
	}
	if !near(busy, 1010, 1e-9) || r.TypeBusy[0] != 1010 {
		t.Errorf("busy %v (series) and %v, want 1010", busy, r.TypeBusy[0])
	}
}

// ParsePolicy never panics, and what it accepts has a name.
func FuzzParsePolicy(f *testing.F) {
	for _, s := range append([]string{"", ":", "fifo:x", "las_mq:k=", "las_mq:weights=1//2", "capacity:queues=a", "capacity:queues=a:x:1", "fair:pool=", "LAS_MQ : K = 3"}, testSpecs...) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		p, err := ParsePolicy(spec)
		if err == nil && p.Name() == "" {
			t.Errorf("%q: policy without a name", spec)
		}
	})
}

// Reference deadlines by hand: completion + 10% of the reference response
// + 1 s.
func TestReferenceDeadlines(t *testing.T) {
	jobs := []Job{{Arrival: 0}, {Arrival: 5}, {Arrival: 7}}
	got := ReferenceDeadlines(jobs, []float64{10, 5, 27})
	checkResponses(t, "deadlines", got, []float64{12, 6, 30})
}
