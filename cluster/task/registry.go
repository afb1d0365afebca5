package task

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/schedplan/schedplan/cluster/sim"
)

// policyDef is a registry entry: a one-line description, what the policy
// reads besides arrivals and tasks, and a constructor from its name and
// parameters. A fluid form is the task-level form of the fluid policy of
// the same name (package sim's registry): what it uses is the fluid
// registry's record, not written here again.
type policyDef struct {
	doc   string
	fluid bool
	uses  sim.Uses // for a fluid form: taken from the fluid registry
	make  func(name string, params map[string]string) (Policy, error)
}

// registry holds the task-level policies, each name written once (its
// key): those of this package here, those of a package of their own
// (cluster/task/coshh, cluster/task/hpfsp) added by its init through
// Register. Package sim's registry holds the fluid ones; the grammar of a
// specification is the same (ParsePolicy). A name both registries hold
// names one policy at two resolutions: its entry here is a fluidForm
// (TestRegistriesAgree checks it).
var registry = map[string]policyDef{
	"capacity": own("YARN Capacity Scheduler without a capacity-scheduler.xml: queues=name:capacity[:max]/... (percent; default one queue \"default\" of 100), ulf (user-limit-factor, default 1)", sim.Uses{}, makeCapacity),
	"fifo":     fluidForm("YARN FifoScheduler: earliest-submitted job first", sim.NoParamsMaker(func() Policy { return &FIFO{} })),
	"fair":     own("Hadoop Fair Scheduler without an allocation file: pool=user|queue|single (one pool per user, by the job's queue, or one), within=fair|fifo, preempt=seconds (fair-share preemption timeout; default off)", sim.Uses{}, makeFair),
	"srpt":     fluidForm("shortest estimated remaining work (Estimate - attained), refreshed at the job's events; exact estimates: seed 000's IDEAL", sim.NoParamsMaker(func() Policy { return &SRPT{} })),
	"fsp":      fluidForm("fair sojourn protocol (FSP+FIFO) over a virtual PS of the estimates at the cluster's rate", sim.NoParamsMaker(func() Policy { return &FSP{} })),
	"las":      fluidForm("least attained service (containers x time), refreshed at the job's events", sim.NoParamsMaker(func() Policy { return &LAS{} })),
	"las_mq":   fluidForm("multi-level queue (seed 000, Alg. 1-2): k, alpha0 (held container-seconds: containers × seconds held, not work), p, weights=w1/w2/..., decay, strict, stage=true|false, order=remaining|containers|fifo (remaining and containers alike: by remaining containers), leftover=even|priority, limit (running jobs admitted at once; default 0: none)", makeLASMQ),
}

// own is the entry of a policy only the task level runs, with what it
// uses.
func own(doc string, uses sim.Uses, make func(string, map[string]string) (Policy, error)) policyDef {
	return policyDef{doc: doc, uses: uses, make: make}
}

// Register adds a task-level policy of a package of its own to the
// registry, as image.RegisterFormat does a decoder: the package's init
// calls it, so a program that imports the package (cluster/task/all
// imports every one) resolves the name. doc is the one-line description,
// uses what the policy reads besides arrivals and tasks (Estimates,
// Cluster), make its constructor from name and parameters. It panics
// when the name is empty, already registered, or make is nil.
func Register(name, doc string, uses sim.Uses, make func(name string, params map[string]string) (Policy, error)) {
	if _, dup := registry[name]; dup || name == "" || make == nil {
		panic(fmt.Sprintf("task: Register(%q): empty, nil constructor, or registered twice", name))
	}
	registry[name] = own(doc, uses, make)
}

// fluidForm is the entry of the task-level form of a fluid policy.
func fluidForm(doc string, make func(string, map[string]string) (Policy, error)) policyDef {
	return policyDef{doc: doc, fluid: true, make: make}
}

// PolicyNames lists the registered task-level policy names, sorted.
func PolicyNames() []string {
	return slices.Sorted(maps.Keys(registry))
}

// PolicyDoc returns a registered policy's one-line description.
func PolicyDoc(name string) string { return registry[name].doc }

// LookupPolicy returns what the registry says of a task-level policy (its
// default configuration): its name, description and what it reads besides
// arrivals and tasks. Of Uses, only Estimates (the policy reads the jobs'
// estimates, State.Estimate) and Cluster (it needs the cluster spec's machine types)
// apply at the task level: rate caps and job weights are fluid notions. A
// fluid form reads estimates exactly when the fluid policy of its name
// does. It reports false for an unknown name.
func LookupPolicy(name string) (sim.PolicyInfo, bool) {
	d, ok := registry[name]
	if !ok {
		return sim.PolicyInfo{}, false
	}
	uses := d.uses
	if d.fluid {
		f, err := sim.LookupPolicy(name)
		if err != nil {
			panic("task: fluid form of an unknown fluid policy: " + err.Error())
		}
		uses = sim.Uses{Estimates: f.Uses.Estimates}
	}
	return sim.PolicyInfo{Name: name, Doc: d.doc, Uses: uses}, true
}

// NewPolicy builds a fresh task-level policy from a name and parameters
// (as sim.SplitSpec returns them). Callers that handle some parameters
// themselves (e.g. file= for a YARN configuration) take them out first.
func NewPolicy(name string, params map[string]string) (Policy, error) {
	def, ok := registry[name]
	if !ok {
		return nil, fmt.Errorf("unknown task-level policy %q (known: %s)", name, strings.Join(PolicyNames(), ", "))
	}
	return def.make(name, params)
}

// ParsePolicy builds a fresh task-level policy from a specification, with
// the grammar of sim.ParsePolicy: "fifo", "fair:within=fifo",
// "las_mq:k=10,alpha0=100,p=10". Names are case-insensitive; an unknown
// name is an error that lists the known ones. Lists of specifications
// split with sim.SplitPolicies.
func ParsePolicy(spec string) (Policy, error) {
	name, params, err := sim.SplitSpec(spec)
	if err != nil {
		return nil, err
	}
	return NewPolicy(name, params)
}

// lasmqOwnParams are the task-level LAS_MQ's parameters besides the queue
// shape's (sim.LASMQQueueParams).
var lasmqOwnParams = []string{"stage", "order", "leftover", "limit"}

// makeLASMQ takes the task-level parameters (stage, order, leftover,
// limit) and hands the others to the fluid LAS_MQ's parser (sim), so the
// two resolutions read k, alpha0, p, weights, decay and strict alike.
func makeLASMQ(_ string, p map[string]string) (Policy, error) {
	m := DefaultLASMQ()
	fluid := map[string]string{}
	for k, v := range p {
		var err error
		switch k {
		case "stage":
			m.StageAware, err = strconv.ParseBool(v)
		case "order":
			// containers is the fluid name of this order (sim.OrderContainers).
			if strings.EqualFold(v, string(sim.OrderContainers)) {
				v = "remaining"
			}
			m.InQueueFIFO, err = oneOf(v, "remaining", "fifo")
		case "leftover":
			m.LeftoverByPriority, err = oneOf(v, "even", "priority")
		case "limit":
			m.Limit, err = strconv.Atoi(v)
		default:
			if !slices.Contains(sim.LASMQQueueParams(), k) {
				return nil, fmt.Errorf("las_mq: unknown parameter %q (known: %s)", k, strings.Join(append(sim.LASMQQueueParams(), lasmqOwnParams...), ", "))
			}
			fluid[k] = v
		}
		if err != nil {
			return nil, fmt.Errorf("las_mq: parameter %s=%q: %v", k, v, err)
		}
	}
	fm, err := sim.ParseLASMQ(fluid)
	if err != nil {
		return nil, err
	}
	m.K, m.Alpha0, m.P, m.Weights, m.Strict = fm.K, fm.Alpha0, fm.P, fm.Weights, fm.Strict
	if err := m.Validate(); err != nil {
		return nil, err
	}
	return m, nil
}

// OneOf parses a two-valued policy parameter: false for a, true for b
// (case-insensitive); the error names both. Policies registered from other
// packages (task.Register) use it.
func OneOf(v, a, b string) (bool, error) { return oneOf(v, a, b) }

// oneOf parses a two-valued parameter: false for a, true for b.
func oneOf(v, a, b string) (bool, error) {
	switch strings.ToLower(v) {
	case a:
		return false, nil
	case b:
		return true, nil
	}
	return false, fmt.Errorf("want %s or %s", a, b)
}

func makeFair(_ string, p map[string]string) (Policy, error) {
	f := &Fair{Placement: PlaceByUser}
	for k, v := range p {
		var err error
		switch k {
		case "pool":
			switch strings.ToLower(v) {
			case "user":
				f.Placement = PlaceByUser
			case "queue":
				f.Placement, f.UserQueues = PlaceByQueue, true
			case "single":
				f.Placement = PlaceInDefault
			default:
				err = fmt.Errorf("want user, queue or single")
			}
		case "within":
			f.DefaultFIFO, err = oneOf(v, "fair", "fifo")
		case "preempt":
			f.Root.FairSharePreemptionTimeout, err = strconv.ParseFloat(v, 64)
			if err == nil && !(f.Root.FairSharePreemptionTimeout > 0 && f.Root.FairSharePreemptionTimeout < math.Inf(1)) {
				err = fmt.Errorf("want a finite positive number of seconds")
			}
			f.Preemption = true
		default:
			return nil, fmt.Errorf("fair: unknown parameter %q (known: pool, within, preempt)", k)
		}
		if err != nil {
			return nil, fmt.Errorf("fair: parameter %s=%q: %v", k, v, err)
		}
	}
	return f, nil
}

func makeCapacity(_ string, p map[string]string) (Policy, error) {
	c := &Capacity{}
	ulf := 0.0
	queues := "default:100"
	for k, v := range p {
		var err error
		switch k {
		case "queues":
			queues = v
		case "ulf":
			ulf, err = strconv.ParseFloat(v, 64)
		default:
			return nil, fmt.Errorf("capacity: unknown parameter %q (known: queues, ulf)", k)
		}
		if err != nil {
			return nil, fmt.Errorf("capacity: parameter %s=%q: %v", k, v, err)
		}
	}
	for _, q := range strings.Split(queues, "/") {
		f := strings.Split(q, ":")
		if len(f) < 2 || len(f) > 3 {
			return nil, fmt.Errorf("capacity: queue %q is not name:capacity[:max]", q)
		}
		cq := CapacityQueue{Name: strings.TrimSpace(f[0]), UserLimitFactor: ulf}
		var err error
		if cq.Capacity, err = strconv.ParseFloat(f[1], 64); err != nil {
			return nil, fmt.Errorf("capacity: queue %q: capacity: %v", q, err)
		}
		if len(f) == 3 {
			if cq.MaxCapacity, err = strconv.ParseFloat(f[2], 64); err != nil {
				return nil, fmt.Errorf("capacity: queue %q: maximum capacity: %v", q, err)
			}
		}
		c.Root.Children = append(c.Root.Children, cq)
	}
	return c, nil
}
