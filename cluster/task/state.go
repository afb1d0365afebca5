package task

import "math"

// State is the progress of a run as the simulator keeps it. Policies read
// it (they must not keep pointers into it across runs); every accessor is
// O(1).
type State struct {
	now     float64
	jobs    []Job
	est     []float64 // Options.Estimates (nil: Job.Estimate)
	queueOf []string  // Options.Queues (nil: Job.Queue)
	cl      *Cluster

	js []jobRT
	ss []stageRT // all stages, job by job; js[j].s0 is job j's first
	// exts holds the deferred and preempted tasks of the stages that have
	// any (stageRT.ext).
	exts []stageExt

	types    []typeRT
	nodeType []int32
	free     []int32
	resJob   []int32 // reservation: job, or −1
	resStage []int32 // and its global stage

	ready      int // ready tasks of all jobs
	containers int
	rate       float64
	slowStart  float64
	rampup     float64 // Options.ReduceRampup

	users, queues []string
	userWaiting   []int32   // user → jobs with a ready task
	runs          []runInfo // running tasks' slots (TaskRef.Run)
}

// jobRT is one job's state, held for every job of a run (and kept between
// a worker's runs), packed to 80 B: container counts fit an int32
// (CheckJobs bounds a job's containers by MaxJobContainers).
type jobRT struct {
	s0, ns     int32 // first global stage, number of stages
	open       int32 // first stage not complete (global)
	stagesDone int32
	runC       int32 // containers held
	ready      int32 // ready tasks
	readyC     int32 // containers of ready tasks
	remC       int32 // containers of tasks not completed
	user       int32
	queue      int32
	arrived    bool
	done       bool
	svc, svcT  float64
	attW       float64 // base work attained, up to svcT
	runRate    float64 // Σ containers × exec_rate of the tasks still working
}

// stageRT is one stage's state. It is held for every stage of a run (a
// worker's simulator keeps it between runs), so the fields are ordered
// to pack (80 B) and the lists most stages never need are in ext.
type stageRT struct {
	job           int32
	idx           int32 // stage index within the job
	n, next, done int32
	runC          int32
	// Progress: tasks whose work is done, and for the working ones
	// (durations d_i > 0, started at s_i) Σ 1/d_i and Σ (s_i − arrival)/d_i,
	// so that progress(t) = (workDone + (t − arrival)·invDur − sod) / n.
	workDone int32
	working  int32
	totC     int32 // containers of all tasks
	// ext is the stage's lists in State.exts, plus 1 (0 until a task is
	// deferred or preempted), and retries the length of its retry list:
	// an index, not a pointer, so that the garbage collector need not
	// scan the stages.
	ext, retries int32
	released     bool
	svc, svcT    float64
	invDur, sod  float64
}

// stageExt holds a stage's deferred and preempted tasks.
type stageExt struct {
	deferred []event // tasks that finished working before the previous stage completed
	// retry holds preempted tasks, started again before task next.
	retry []int32
}

// extra returns g's lists, allocating them at first use. The pointer
// holds until the next stage's lists are allocated.
func (s *State) extra(g *stageRT) *stageExt {
	if g.ext == 0 {
		s.exts = append(s.exts, stageExt{})
		g.ext = int32(len(s.exts))
	}
	return &s.exts[g.ext-1]
}

// deferredTasks returns the tasks deferred by slow start (nil: none).
func (s *State) deferredTasks(g *stageRT) []event {
	if g.ext == 0 {
		return nil
	}
	return s.exts[g.ext-1].deferred
}

// retry makes task t of stage g ready again, before its other pending
// tasks.
func (s *State) retry(g *stageRT, t int32) {
	x := s.extra(g)
	x.retry = append(x.retry, t)
	g.retries++
}

type typeRT struct {
	first, count int32
	cpn          int32 // containers per node
	rate         float64
	busy         int64 // busy containers
}

// Now is the simulated time in seconds.
func (s *State) Now() float64 { return s.now }

// Jobs returns the run's jobs (read-only). A run's estimates and queues
// may replace theirs (Options.Estimates, Options.Queues): read those with
// Estimate and QueueName.
func (s *State) Jobs() []Job { return s.jobs }

// Estimate is job j's size estimate in this run: Options.Estimates[j],
// else Job.Estimate.
func (s *State) Estimate(j int) float64 {
	if s.est != nil {
		return s.est[j]
	}
	return s.jobs[j].Estimate
}

// QueueName is the queue job j names in this run: Options.Queues[j], else
// Job.Queue.
func (s *State) QueueName(j int) string {
	if s.queueOf != nil {
		return s.queueOf[j]
	}
	return s.jobs[j].Queue
}

// Cluster returns the run's cluster (read-only).
func (s *State) Cluster() *Cluster { return s.cl }

// Containers is the cluster's total number of containers.
func (s *State) Containers() int { return s.containers }

// Rate is the cluster's total speed (Cluster.Rate).
func (s *State) Rate() float64 { return s.rate }

// SlowStart is the fraction of a stage's tasks that must complete before
// the next stage becomes runnable.
func (s *State) SlowStart() float64 { return s.slowStart }

// Live reports whether the run t names is still running (it has not
// ended and was not preempted).
func (s *State) Live(t TaskRef) bool {
	slot, gen := int(uint32(t.Run)), int32(t.Run>>32)
	return slot < len(s.runs) && s.runs[slot].gen == gen && s.runs[slot].live
}

// NumNodes counts the machines.
func (s *State) NumNodes() int { return len(s.free) }

// NodeType is machine n's type (index into Cluster.Types).
func (s *State) NodeType(n int) int { return int(s.nodeType[n]) }

// NodeFree is machine n's free containers.
func (s *State) NodeFree(n int) int { return int(s.free[n]) }

// NodeContainers is machine n's containers.
func (s *State) NodeContainers(n int) int { return int(s.types[s.nodeType[n]].cpn) }

// NodeReserved is the job machine n is reserved for, or −1.
func (s *State) NodeReserved(n int) int { return int(s.resJob[n]) }

// TypeBusy is the number of busy containers on machines of type t.
func (s *State) TypeBusy(t int) int { return int(s.types[t].busy) }

// Users lists the distinct user names of the jobs, in order of first
// appearance; User(j) indexes it.
func (s *State) Users() []string { return s.users }

// Queues lists the distinct queue names of the jobs, in order of first
// appearance; Queue(j) indexes it.
func (s *State) Queues() []string { return s.queues }

// User is job j's user (index into Users).
func (s *State) User(j int) int { return int(s.js[j].user) }

// Queue is job j's queue (index into Queues).
func (s *State) Queue(j int) int { return int(s.js[j].queue) }

// Arrived reports whether job j has been submitted.
func (s *State) Arrived(j int) bool { return s.js[j].arrived }

// Done reports whether job j has completed.
func (s *State) Done(j int) bool { return s.js[j].done }

// TotalReady counts the ready tasks of all jobs.
func (s *State) TotalReady() int { return s.ready }

// UserWaiting counts user u's jobs (index into Users) that have a ready
// task.
func (s *State) UserWaiting(u int) int { return int(s.userWaiting[u]) }

// addReady changes job j's ready tasks by d, keeping the run's count and
// its user's count of jobs with a ready task.
func (s *State) addReady(j int32, d int32) {
	r := &s.js[j]
	was := r.ready > 0
	s.ready += int(d)
	r.ready += d
	if now := r.ready > 0; now != was {
		if now {
			s.userWaiting[r.user]++
		} else {
			s.userWaiting[r.user]--
		}
	}
}

// Ready counts job j's ready tasks (runnable, not started).
func (s *State) Ready(j int) int { return int(s.js[j].ready) }

// ReadyContainers is the containers job j's ready tasks need.
func (s *State) ReadyContainers(j int) int64 { return int64(s.js[j].readyC) }

// Running is the containers job j holds.
func (s *State) Running(j int) int { return int(s.js[j].runC) }

// RemainingContainers is the containers of job j's tasks that have not
// completed (running ones included), over all stages.
func (s *State) RemainingContainers(j int) int64 { return int64(s.js[j].remC) }

// Stages is the number of job j's stages.
func (s *State) Stages(j int) int { return int(s.js[j].ns) }

func (s *State) stage(j, st int) *stageRT { return &s.ss[int(s.js[j].s0)+st] }

// StageReady counts the ready tasks of job j's stage st.
func (s *State) StageReady(j, st int) int {
	g := s.stage(j, st)
	if !g.released {
		return 0
	}
	return int(g.pending())
}

// NextContainers is the containers of the next task the simulator would
// start from job j's stage st, or 0 when the stage has no ready task.
func (s *State) NextContainers(j, st int) int {
	g := s.stage(j, st)
	if !g.released || g.pending() == 0 {
		return 0
	}
	return s.jobs[j].Stages[st].Tasks[s.head(g)].Containers
}

// StageReleased reports whether stage st of job j is runnable.
func (s *State) StageReleased(j, st int) bool { return s.stage(j, st).released }

// StageComplete reports whether all tasks of stage st of job j completed.
func (s *State) StageComplete(j, st int) bool {
	g := s.stage(j, st)
	return g.released && g.done == g.n
}

// StageProgress is stage st's progress as Hadoop reports it: the mean over
// its tasks of their done share (1 for tasks whose work has ended, elapsed
// / duration for running ones, 0 for the others); 1 for a stage without
// tasks. Exact at Now; it grows at StageProgressRate until the stage's
// next task start or end.
func (s *State) StageProgress(j, st int) float64 {
	g := s.stage(j, st)
	if g.n == 0 {
		return 1
	}
	p := float64(g.workDone)
	if g.working > 0 {
		p += (s.now-s.jobs[j].Arrival)*g.invDur - g.sod
	}
	return min(max(p/float64(g.n), 0), 1)
}

// StageProgressRate is the growth rate of StageProgress (per second)
// until stage st's next task start or end.
func (s *State) StageProgressRate(j, st int) float64 {
	g := s.stage(j, st)
	if g.n == 0 {
		return 0
	}
	return g.invDur / float64(g.n)
}

// StageDone counts the completed tasks of stage st.
func (s *State) StageDone(j, st int) int { return int(s.stage(j, st).done) }

// workEnd takes a task whose work has ended out of its stage's progress.
func (s *State) workEnd(g *stageRT, ri *runInfo) {
	g.workDone++
	if ri.inv > 0 {
		g.working--
		if g.working == 0 {
			g.invDur, g.sod = 0, 0 // no drift
			return
		}
		g.invDur -= ri.inv
		g.sod -= ri.sod
	}
}

// StageRunning is the containers stage st of job j holds.
func (s *State) StageRunning(j, st int) int { return int(s.stage(j, st).runC) }

// Service is the service job j has received: Σ containers × time held, in
// container-seconds (seed 000 eq. 6), exact at Now.
func (s *State) Service(j int) float64 {
	r := &s.js[j]
	return r.svc + float64(r.runC)*(s.now-r.svcT)
}

// StageService is the service of job j's stage st so far.
func (s *State) StageService(j, st int) float64 {
	g := s.stage(j, st)
	return g.svc + float64(g.runC)*(s.now-g.svcT)
}

// Attained is job j's base work done: completed tasks' duration ×
// containers plus the running tasks' elapsed time × containers × exec_rate,
// in container-seconds at exec_rate 1 (comparable with Work and Estimate).
func (s *State) Attained(j int) float64 {
	r := &s.js[j]
	return r.attW + r.runRate*(s.now-r.svcT)
}

// CurrentStage is job j's first stage that has not completed (Stages(j)
// when all have).
func (s *State) CurrentStage(j int) int { return int(s.js[j].open - s.js[j].s0) }

// pending counts the stage's tasks not started (or preempted).
func (g *stageRT) pending() int32 { return g.n - g.next + g.retries }

// head is the task stage g starts next (pending() > 0).
func (s *State) head(g *stageRT) int32 {
	if g.retries > 0 {
		return s.exts[g.ext-1].retry[g.retries-1]
	}
	return g.next
}

// take removes head from stage g's pending tasks.
func (s *State) take(g *stageRT) int32 {
	if g.retries > 0 {
		x := &s.exts[g.ext-1]
		g.retries--
		t := x.retry[g.retries]
		x.retry = x.retry[:g.retries]
		return t
	}
	g.next++
	return g.next - 1
}

// touch brings job j's service accumulators to now.
func (s *State) touch(j int32) {
	r := &s.js[j]
	if dt := s.now - r.svcT; dt != 0 {
		r.svc += float64(r.runC) * dt
		r.attW += r.runRate * dt
		r.svcT = s.now
	}
}

func (s *State) touchStage(g *stageRT) {
	if dt := s.now - g.svcT; dt != 0 {
		g.svc += float64(g.runC) * dt
		g.svcT = s.now
	}
}

// slowStartMet reports whether stage g has completed enough tasks for the
// next stage to become runnable (Hadoop: completed/total ≥ slowstart).
func (s *State) slowStartMet(g *stageRT) bool {
	return g.released && (g.done == g.n || float64(g.done) >= s.slowStart*float64(g.n)*(1-1e-12))
}

// intern maps names to indices in first-appearance order.
func intern(names *[]string, idx map[string]int32, name string) int32 {
	if i, ok := idx[name]; ok {
		return i
	}
	i := int32(len(*names))
	*names = append(*names, name)
	idx[name] = i
	return i
}

var inf = math.Inf(1)

// rampStage returns job j's stage after its current one (global index)
// when Options.ReduceRampup lets that stage's next task start before the
// current stage's waiting tasks, else −1.
func (s *State) rampStage(j int32) int32 {
	r := &s.js[j]
	g := r.open + 1
	if s.rampup == 0 || g >= r.s0+r.ns {
		return -1
	}
	cur, nx := &s.ss[r.open], &s.ss[g]
	if cur.pending() == 0 || !nx.released || nx.pending() == 0 {
		return -1
	}
	c := float64(s.jobs[j].Stages[nx.idx].Tasks[s.head(nx)].Containers)
	limit := min(float64(cur.done)/float64(cur.n), s.rampup) * (float64(r.runC) + c)
	if float64(r.runC-cur.runC)+c > limit {
		return -1
	}
	return g
}
