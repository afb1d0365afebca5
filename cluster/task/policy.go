package task

// Node is the machine a policy is asked to fill.
type Node struct {
	Index int // 0-based, numbered machine type by machine type
	Type  int // index into Cluster.Types
	Free  int // free containers
}

// TaskRef names one task of a run.
type TaskRef struct {
	Job, Stage, Task int // indices into jobs, Job.Stages, Stage.Tasks
	Node             int
	Containers       int
	// Run names this run of the task (a preempted task runs again under
	// another); a Preempter passes it back to kill the task.
	Run int64
}

// Policy is a task-level scheduler. The simulator owns the jobs' progress
// (ready, running and completed tasks, service received) and exposes it
// through the State given to Start; the policy keeps only its own order,
// in structures that make each call cheap (see the package doc for each
// policy's cost). The calls, all at State.Now():
//
//	Start(s)            once per run, before any other call
//	Arrive(j)           job j was submitted
//	Released(j, st)     stage st of job j became runnable (its tasks are
//	                    ready: at arrival for the first stage, later at
//	                    the slow-start point)
//	Started(t), Ended(t) a task started on / released its containers of a
//	                    node
//	Done(j)             job j completed (after its last Ended)
//	Pick(n)             node n has free containers: which job (and stage,
//	                    or −1 for the job's earliest ready stage whose next
//	                    task fits) gets the next one; job −1 for none
//
// Pick is asked again as long as the node has free containers and the
// previous pick placed a task. A pick whose task does not fit the node's
// free containers reserves the node for that job, as YARN does: the node
// takes no other task until the reserved one fits or the job has no ready
// task left. A Pick that returns −1 ends the round for the node's machine
// type at events (with heartbeats, for that node's heartbeat): a policy
// that declines a node of a type declines the type, unless it implements
// PerNode() bool returning true (e.g. a multi-resource policy that tracks
// each machine's own resources from the Started and Ended notifications),
// and then only that machine is passed over until the next round, at
// O(declined machines) per round. Policies may pick by node (locality,
// machine type, label) since they see the node.
//
// Adding a policy means one file with a type that implements Policy (embed
// Base for the notifications it ignores) and one entry in the registry
// (registry.go). A policy may also implement WorkConserving() bool (the
// checker then verifies that no container idles while an eligible task
// waits) and Eligible(j int) bool (whether an arrived job may run now, for
// policies with admission limits).
type Policy interface {
	Name() string
	Start(s *State) error
	Arrive(j int)
	Released(j, stage int)
	Started(t TaskRef)
	Ended(t TaskRef)
	Done(j int)
	Pick(n Node) (job, stage int)
}

// Base implements the notifications of Policy as no-ops, for embedding.
type Base struct{}

func (Base) Arrive(int)        {}
func (Base) Released(int, int) {}
func (Base) Started(TaskRef)   {}
func (Base) Ended(TaskRef)     {}
func (Base) Done(int)          {}

// LocalityOracle tells a policy where a job's input blocks are: whether
// job j has a map task not yet started whose block has a replica on node
// (numbered as Node.Index). FIFO (LocalityPreference) and Fair
// (LocalityDelay) use one when a run provides it (SetLocality; the COSHH
// comparison, coshh.SimulateCOSHHMetrics, does).
type LocalityOracle interface {
	HasLocal(job, node int) bool
}
