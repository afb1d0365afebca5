package tasklevel

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/cluster/task"
	"github.com/schedplan/schedplan/cluster/task/prism"
	"github.com/schedplan/schedplan/pipeline/report"
)

// The phase-level policies of the task resolution (simulate --level task):
// PRISM (seed 004) and its two baselines run on the phase model of package
// cluster/task (prism.PhaseSim): tasks made of phases with resource demands
// (the default profile file's sort class, seed 004 Fig. 8) on machines with
// capacity vectors (cpu cores, GB, MB/s of disk and network), slowed when
// over-packed (prism.Seed004Thrash), in seed 004's setting
// (prism.Seed004Config): PRISM and fair-slots on Hadoop 0.20.2 (heartbeats
// every 3 s and at each task end; Fair serves the largest deficit and
// assigns one task per heartbeat), yarn-containers on YARN 2.0.4
// (heartbeats every 1 s, container memory in 1 GB steps, one off-switch
// container per node update, an ApplicationMaster container per job, a
// bound on the active jobs). The
// model has no per-machine speed: exec_rate does not apply.

// maxPhaseSlots bounds fair-slots' and yarn-containers' slot counts.
const maxPhaseSlots = 1 << 16

var phasePolicyDocs = map[string]string{
	"prism":           "PRISM (seed 004 Alg. 1): phase-level multi-resource scheduling, utility U = U_fairness + α·U_perf; alpha (0.02), k (20), a (0.1 /s²), epsilon (0.99), fairness (tasks: each job's Hadoop 0.20.2 deficit in running tasks against a fair share of slots (14) per machine, the default; deficit: the same in dominant resource shares; drf: eq. 3's spread of DRF shares), slots (14), maxpicks (0: none), hold (1: a paused phase that does not fit holds capacity), oob (1: a task end sends a heartbeat at once, Hadoop 0.20.2; default 1), phaseoob (1: a phase end too, not seed 004's design; default 0), replicas (HDFS replicas of a reduce's output write, whose remote copies load disk and network as seed 004's counters do not show; default 1). Phase model, sort profile (Fig. 8), heartbeat 3 s",
	"fair-slots":      "Hadoop 0.20.2 Fair Scheduler with slots, seed 004's baseline on PRISM's phase model; jobs served by largest time-integrated deficit (fair share − running tasks, slot-seconds); map, reduce slots per machine (8, 6: §6.1); assignmultiple (1: a map and a reduce per heartbeat; default 0: one task, Hadoop's default); oob (1: a task end sends a heartbeat at once; default 1); replicas (HDFS replicas of a reduce's output write, whose remote copies load disk and network as seed 004's counters do not show; default 1); heartbeat 3 s",
	"yarn-containers": "YARN 2.0.4 Capacity Scheduler (FIFO) with fixed vcores+memory containers, seed 004's baseline on PRISM's phase model; containers = machine / map, reduce slots (8, 6: §6.1); container memory granted in 1 GB steps (a reduce on an 8 GB machine: 8/6 GB asked, 2 GB granted), one AM or reduce container per node heartbeat, an ApplicationMaster container per job (1.5 GB asked, 2 GB granted), at most one active job per 10 GB of cluster memory; oob (1: a task end sends a heartbeat at once; default 0); replicas (HDFS replicas of a reduce's output write, whose remote copies load disk and network as seed 004's counters do not show; default 1); heartbeat 1 s",
}

// PhasePolicyNames returns the phase-level policies, sorted.
func PhasePolicyNames() []string {
	return slices.Sorted(maps.Keys(phasePolicyDocs))
}

// TaskPolicyDoc is the doc of a policy the task level runs: the task
// registry's or a phase-level policy's; "" for neither.
func TaskPolicyDoc(name string) string {
	if d := task.PolicyDoc(name); d != "" {
		return d
	}
	return phasePolicyDocs[name]
}

// TaskPolicyNames lists every policy the task level runs.
func TaskPolicyNames() []string {
	return append(task.PolicyNames(), PhasePolicyNames()...)
}

// PhaseMachines returns the capacity vectors of spec's machines, count
// copies per resource type: its resources block (cpu_cores, mem_gb,
// disk_mb_s, net_mb_s), a field that is 0 (not given) taking seed 004's
// machine's value (prism.Seed004Machine: 4 cores, 8 GB, 100 MB/s, 125 MB/s).
func PhaseMachines(spec *cluster.Spec) []prism.Vector {
	var out []prism.Vector
	for _, r := range spec.Resources {
		v := prism.Seed004Machine()
		if m := r.Resources; m != nil {
			for d, x := range [prism.NumDims]float64{m.CPUCores, m.MemGB, m.DiskMBs, m.NetMBs} {
				if x > 0 {
					v[d] = x
				}
			}
		}
		for range r.Count {
			out = append(out, v)
		}
	}
	return out
}

// phasePolicy is a parsed phase-level specification.
type phasePolicy struct {
	runner *prism.PrismRunner // profiles and PRISM parameters (defaults for the baselines)
	cfg    prism.PhaseSimConfig
	// replicas is HDFS's replicas of a reduce's output write
	// (prism.ReplicateHDFSWrites; 1: as the profile's counters show it).
	replicas int
}

// parsePhase checks a phase-level specification on the resolution's
// machines.
func (r *TaskLevel) parsePhase(spec string) (*phasePolicy, error) {
	name, params, err := sim.SplitSpec(spec)
	if err != nil {
		return nil, err
	}
	if len(r.Machines) == 0 {
		return nil, fmt.Errorf("policy %s: the cluster has no machines", name)
	}
	var sched prism.PhaseScheduler
	switch name {
	case "prism":
		sched = prism.SchedPrism
	case "fair-slots":
		sched = prism.SchedFair
	case "yarn-containers":
		sched = prism.SchedYARN
	default:
		return nil, fmt.Errorf("policy %q is not a phase-level policy (known: %v)", name, PhasePolicyNames())
	}
	cfg := prism.Seed004Config(sched, r.Machines)
	// oob= (all three), phaseoob= (prism) and assignmultiple= (fair-slots)
	// are the heartbeat model's.
	assignMultiple := false
	for key, to := range map[string]*bool{"oob": &cfg.OutOfBand, "phaseoob": &cfg.PhaseOutOfBand, "assignmultiple": &assignMultiple} {
		v, given := params[key]
		if !given || (key == "phaseoob" && sched != prism.SchedPrism) || (key == "assignmultiple" && sched != prism.SchedFair) {
			continue
		}
		if *to, err = strconv.ParseBool(v); err != nil {
			return nil, fmt.Errorf("policy %s: %s=%q: want 0 or 1", name, key, v)
		}
		delete(params, key)
	}
	if assignMultiple {
		cfg.FairAssign = prism.FairMapAndReduce
	}
	// replicas= (all three) is the workload's: the phases' demands.
	replicas := 1
	if v, given := params["replicas"]; given {
		if replicas, err = strconv.Atoi(v); err != nil || replicas < 1 || replicas > prism.MaxHDFSReplication {
			return nil, fmt.Errorf("policy %s: replicas=%q: want a whole number of HDFS replicas in [1, %d]", name, v, prism.MaxHDFSReplication)
		}
		delete(params, "replicas")
	}
	prismSpec := "prism"
	if name == "prism" {
		prismSpec = specOf(name, params)
	}
	runner, err := prism.NewPrismRunner(prismSpec, "default")
	if err != nil {
		return nil, err
	}
	cfg.Prism = runner.Config
	p := &phasePolicy{runner: runner, cfg: cfg, replicas: replicas}
	if sched == prism.SchedPrism {
		return p, nil
	}
	for k, v := range params {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > maxPhaseSlots {
			return nil, fmt.Errorf("policy %s: %s=%q: want a whole number of slots in [1, %d]", name, k, v, maxPhaseSlots)
		}
		switch k {
		case "map":
			p.cfg.MapSlots = n
		case "reduce":
			p.cfg.ReduceSlots = n
		default:
			return nil, fmt.Errorf("policy %s: unknown parameter %q (known: map, reduce, oob, replicas%s)", name, k, map[bool]string{true: ", assignmultiple", false: ""}[sched == prism.SchedFair])
		}
	}
	// Containers are sized on the first machine (a cluster of one machine
	// type, as seed 004's; with several types YARN would still ask one
	// size per task), their memory granted in 1 GB steps as
	// Seed004Containers' (prism.YARNNormalize).
	m := r.Machines[0]
	p.cfg.Container = [prism.NumSides]prism.Vector{
		prism.YARNNormalize(prism.Vector{prism.CPU: m[prism.CPU] / float64(p.cfg.MapSlots), prism.Memory: m[prism.Memory] / float64(p.cfg.MapSlots)}),
		prism.YARNNormalize(prism.Vector{prism.CPU: m[prism.CPU] / float64(p.cfg.ReduceSlots), prism.Memory: m[prism.Memory] / float64(p.cfg.ReduceSlots)}),
	}
	if sched == prism.SchedYARN {
		for i, c := range []prism.Vector{p.cfg.AMContainer, p.cfg.Container[prism.MapSide], p.cfg.Container[prism.ReduceSide]} {
			if what := [...]string{"ApplicationMaster", "map", "reduce"}[i]; !slices.ContainsFunc(r.Machines, c.Fits) {
				return nil, fmt.Errorf("policy %s: the %s container (%v, memory granted in %g GB steps) fits no machine of the cluster spec", name, what, c, prism.YARNMinAllocationGB)
			}
		}
	}
	return p, nil
}

// specOf writes name and params back as a specification (in key order).
func specOf(name string, params map[string]string) string {
	if len(params) == 0 {
		return name
	}
	keys := make([]string, 0, len(params))
	for k := range params {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for i, k := range keys {
		keys[i] = k + "=" + params[k]
	}
	return name + ":" + strings.Join(keys, ",")
}

// PhaseMetrics are seed 004 §6.3's figures of one phase-level run.
type PhaseMetrics struct {
	Policy string `json:"policy"`
	// MeanRunTime is the mean job running time (completion − arrival), s;
	// Makespan the last completion − the first arrival, s.
	MeanRunTime float64 `json:"mean_job_running_time_s"`
	Makespan    float64 `json:"makespan_s"`
	// Utilisation is the time-weighted mean use of each resource over the
	// makespan, as a fraction of the cluster's capacity (cpu, mem, disk,
	// net).
	Utilisation map[string]float64 `json:"utilisation"`
	// MeanANP is the mean application normalised performance (ideal
	// running time / running time, dimensionless); Unfairness its
	// coefficient of variation over the jobs (seed 004 §6.3).
	MeanANP    *float64 `json:"mean_anp"`          // null when undefined (no job ran)
	Unfairness *float64 `json:"unfairness_cv_anp"` // null when undefined (mean ANP 0)
	// ANPJobs is the number of jobs the ANP covers: those with a positive
	// running time.
	ANPJobs int `json:"anp_jobs"`
}

// phaseRecord keeps the metrics of the phase-level runs over all the
// resolution's jobs, by specification.
type phaseRecord = specRecord[PhaseMetrics]

// phaseRec returns the resolution's record, creating it.
func (r *TaskLevel) phaseRec() *phaseRecord { return recordOf(&r.phase) }

// runPhase simulates the task jobs first.. under a phase-level policy; it
// records the metrics when the run covers all the resolution's jobs.
func (t *TaskSimulator) runPhase(ctx context.Context, jobs []sim.Job, first int, spec string) (*sim.Result, error) {
	pp, err := t.R.parsePhase(spec)
	if err != nil {
		return nil, err
	}
	pj, err := pp.runner.PhaseJobs(t.R.Jobs[first : first+len(jobs)])
	if err == nil && pp.replicas > 1 {
		pj, err = prism.ReplicateHDFSWrites(pj, pp.replicas)
	}
	if err != nil {
		return nil, err
	}
	s, err := prism.NewPhaseSim(pp.cfg, pj)
	if err != nil {
		return nil, err
	}
	res, err := s.RunContext(ctx)
	if err != nil {
		return nil, err
	}
	t.res.Completion = append(t.res.Completion[:0], res.Completion...)
	t.res.Response = append(t.res.Response[:0], res.RunTime...)
	if first == 0 && len(jobs) == len(t.R.Jobs) {
		name, _, _ := sim.SplitSpec(spec)
		m := PhaseMetrics{Policy: name, MeanRunTime: res.MeanRun, Makespan: res.Makespan, Utilisation: map[string]float64{},
			MeanANP: report.FinitePtr(res.ANP.MeanANP), Unfairness: report.FinitePtr(res.ANP.Unfairness), ANPJobs: res.ANPJobs}
		if spec != name {
			m.Policy = spec
		}
		for d := range prism.NumDims {
			m.Utilisation[d.String()] = res.MeanUtil[d]
		}
		rec := t.R.phaseRec()
		rec.mu.Lock()
		rec.by[spec] = m
		rec.mu.Unlock()
	}
	return &t.res, nil
}

// PhaseMetricsOf returns the recorded metrics of the phase-level policies
// among specs, in their order.
func (r *TaskLevel) PhaseMetricsOf(specs []string) []PhaseMetrics {
	return r.phaseRec().of(specs)
}

// writePhaseText prints the phase-level metrics of a simulate report.
func writePhaseText(out io.Writer, ms []PhaseMetrics, machines []prism.Vector) {
	if len(ms) == 0 {
		return
	}
	desc := ""
	if len(machines) > 0 {
		desc = fmt.Sprintf("%d machines (the first: %v)", len(machines), machines[0])
	}
	fmt.Fprintf(out, "\nphase level (seed 004 model, %s; heartbeats %g s and at task ends for prism and fair-slots (Hadoop 0.20.2), %g s for yarn-containers (YARN 2.0.4); utilisation = mean share of the cluster's capacity used):\n", desc, prism.Seed004HadoopHeartbeat, prism.Seed004YARNHeartbeat)
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "policy\tmean job running time (s)\tmakespan (s)\tcpu util\tmem util\tdisk util\tnet util\tmean ANP\tunfairness (CV of ANP)\tANP over jobs\t")
	for _, m := range ms {
		fmt.Fprintf(tw, "%s\t%.6g\t%.6g\t%.2f%%\t%.2f%%\t%.2f%%\t%.2f%%\t%s\t%s\t%d\t\n", report.Printable(m.Policy), m.MeanRunTime, m.Makespan,
			100*m.Utilisation["cpu"], 100*m.Utilisation["mem"], 100*m.Utilisation["disk"], 100*m.Utilisation["net"], fmtCV(m.MeanANP), fmtCV(m.Unfairness), m.ANPJobs)
	}
	tw.Flush()
}

func fmtCV(x *float64) string {
	if x == nil {
		return "undefined"
	}
	return strconv.FormatFloat(*x, 'f', 3, 64)
}
