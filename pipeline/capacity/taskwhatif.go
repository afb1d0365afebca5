package capacity

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"math"
	"text/tabwriter"

	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/cluster/task"
	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/estimate"
	"github.com/schedplan/schedplan/lp"
	"github.com/schedplan/schedplan/pipeline/bundle"
	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/inputs"
	"github.com/schedplan/schedplan/pipeline/report"
	"github.com/schedplan/schedplan/pipeline/tasklevel"
	"github.com/schedplan/schedplan/pipeline/tuner"
)

// WhatIfSim is a cluster (the spec, or the spec after a what-if) with λ from
// the capacity LP and the simulated responses of the whole log at task
// level under each configuration.
type WhatIfSim struct {
	Change   string  `json:"change"` // "" for the spec as it is
	Lambda   float64 `json:"lambda"`
	RateCS   float64 `json:"rate_container_seconds_per_s"`
	Machines int     `json:"machines"`
	// OfferedLoad is the log's load on the cluster (TaskLoadDef; null when
	// undefined).
	OfferedLoad *float64 `json:"offered_load"`
	// Rows are the configurations' responses (seconds).
	Rows []WhatIfRow `json:"rows"`
}

// WhatIfRow is one configuration's simulated responses.
type WhatIfRow struct {
	Name   string  `json:"name"`
	Policy string  `json:"policy"`
	Mean   float64 `json:"mean_response_s"`
	P99    float64 `json:"p99_response_s"`
}

// ApplyWhatIf returns a copy of spec with the machine changes of a what-if
// ("R2=+10,R1=-1") applied; counts must stay whole and non-negative.
func ApplyWhatIf(spec *cluster.Spec, whatIf string) (*cluster.Spec, error) {
	p := &lp.COSHHProblem{}
	for _, r := range spec.Resources {
		p.TypeNames = append(p.TypeNames, r.Name)
		p.Counts = append(p.Counts, float64(r.Count))
	}
	cs, err := lp.ParseChanges(p, whatIf)
	if err != nil {
		return nil, experiment.ParamErr("what-if", whatIf, "%v", err)
	}
	out := *spec
	out.Resources = append([]cluster.ResourceType(nil), spec.Resources...)
	for _, c := range cs {
		n := float64(out.Resources[c.Type].Count) + c.Delta
		if n != math.Trunc(n) || n < 0 || n > inputs.MaxMachines {
			return nil, experiment.ParamErr("what-if", whatIf, "%s would have %v machines", out.Resources[c.Type].Name, n)
		}
		out.Resources[c.Type].Count = int(n)
	}
	return &out, nil
}

// SimulateWhatIfs simulates the whole log at task level on the spec and on
// the spec after each what-if, under every configuration (names[i] runs
// specs[i]). The jobs' work does not change with the machines: sizes are
// converted to container-seconds on the spec as it is. lambda gives λ of
// each what-if from the capacity LP (the spec's first).
func SimulateWhatIfs(ctx context.Context, j *data.Jobs, sizes []float64, src estimate.Source, opt estimate.SizeOptions, spec *cluster.Spec,
	whatIfs []string, lambda []float64, names, specs []string, seed uint64) ([]WhatIfSim, error) {
	jobs, err := WhatIfJobs(j, sizes, src, opt, spec, seed)
	if err != nil {
		return nil, err
	}
	var out []WhatIfSim
	for k, w := range append([]string{""}, whatIfs...) {
		_, cl, err := whatIfCluster(spec, w)
		if err != nil {
			return nil, err
		}
		x, err := (&tasklevel.TaskLevel{Cluster: cl, Jobs: jobs}).TaskExperiment(specs)
		if err != nil {
			return nil, err
		}
		res, err := x.Run(ctx, experiment.RunOptions{})
		if err != nil {
			return nil, fmt.Errorf("what-if %q: %w", w, err)
		}
		ws := WhatIfSim{Change: w, RateCS: cl.Rate(), Machines: cl.Nodes(), OfferedLoad: report.FinitePtr(tasklevel.ExecLoad(jobs, cl))}
		if k < len(lambda) {
			ws.Lambda = lambda[k]
		}
		for i, p := range res.Policies {
			m := p.Aggregate().Mean
			ws.Rows = append(ws.Rows, WhatIfRow{Name: names[i], Policy: specs[i], Mean: m.Response.Mean, P99: m.Response.P99})
		}
		out = append(out, ws)
	}
	return out, nil
}

// WhatIfJobs are the jobs a what-if simulates: the whole log at task
// level in the execution-time model (ExecModelScales), its sizes converted
// to container-seconds on spec as it is (the jobs' work and speeds do not
// change with the machine counts).
func WhatIfJobs(j *data.Jobs, sizes []float64, src estimate.Source, opt estimate.SizeOptions, spec *cluster.Spec, seed uint64) ([]task.Job, error) {
	return firstWhatIfJobs(j, sizes, src, opt, spec, seed, j.Len())
}

// firstWhatIfJobs are whatIfJobs of the log's first n rows (the same jobs:
// a job's tasks are synthesised from its row and the seed alone).
func firstWhatIfJobs(j *data.Jobs, sizes []float64, src estimate.Source, opt estimate.SizeOptions, spec *cluster.Spec, seed uint64, n int) ([]task.Job, error) {
	capacity, _ := tasklevel.SimCapacity(src, opt, spec)
	fl, err := experiment.JobsOfRange(j, sizes, spec, 0, n) // not the whole log's jobs
	if err != nil {
		return nil, err
	}
	return tasklevel.ModelTaskJobs(j, nil, fl, 0, capacity, spec, spec.Capacity(), seed)
}

// whatIfCluster returns spec after the what-if w ("": spec as it is) and
// its task-level cluster.
func whatIfCluster(spec *cluster.Spec, w string) (*cluster.Spec, *task.Cluster, error) {
	s := spec
	if w != "" {
		var err error
		if s, err = ApplyWhatIf(spec, w); err != nil {
			return nil, nil, err
		}
	}
	cl, err := tasklevel.TaskCluster(s)
	if err != nil {
		return nil, nil, fmt.Errorf("what-if %s: %w", w, err)
	}
	return s, cl, nil
}

// writeWhatIfTable prints a what-if table: a blank line, the title, then
// the header and the rows (rows writes them) aligned right.
func writeWhatIfTable(w io.Writer, title, header string, rows func(tw io.Writer)) {
	fmt.Fprintf(w, "\n%s\n", title)
	tw := report.NewTable(w, tabwriter.AlignRight)
	fmt.Fprintln(tw, header)
	rows(tw)
	tw.Flush()
}

// whatIfName names a what-if's cluster in a table.
func whatIfName(change string) string { return cmp.Or(change, "as specified") }

// WriteWhatIfSims prints the simulated what-ifs as a table.
func WriteWhatIfSims(w io.Writer, sims []WhatIfSim) {
	writeWhatIfTable(w, "simulated at task level (whole log; responses in seconds; offered load: "+experiment.TaskLoadDef+", OVERLOADED above 1: the means are of an overloaded system)",
		"cluster\tλ\tmachines\trate (container-s/s)\toffered load\tconfiguration\tmean response (s)\tp99 response (s)\t",
		func(tw io.Writer) {
			for _, s := range sims {
				for _, r := range s.Rows {
					fmt.Fprintf(tw, "%s\t%.4g\t%d\t%.4g\t%s\t%s\t%.4g\t%.4g\t\n", whatIfName(s.Change), s.Lambda, s.Machines, s.RateCS, experiment.LoadCell(experiment.LoadOf(s.OfferedLoad)), r.Name, r.Mean, r.P99)
				}
			}
		})
}

// TaskConfigs are the configurations a task-level what-if simulates: the
// current scheduler (the user's own YARN file, else Fair with one pool per
// user) and the tuned LAS_MQ of a bundle, its thresholds converted to
// held container-seconds (Bundle.HeldPerUnit), and its tuned H-PFSP when it has an
// h_pfsp section; without a bundle, Hu et al.'s default LAS_MQ, so named.
func TaskConfigs(bundlePath, currentConfig string) (names, specs []string, err error) {
	names, specs = []string{"current (fair, one pool per user)"}, []string{"fair:pool=user"}
	if currentConfig != "" {
		s, err := inputs.CurrentConfigSpec(currentConfig)
		if err != nil {
			return nil, nil, err
		}
		names[0], specs[0] = "current ("+currentConfig+")", s
	}
	if bundlePath == "" {
		return append(names, tuner.DefaultLASMQName), append(specs, sim.DefaultLASMQ().Spec()), nil
	}
	b, err := bundle.LoadBundle(bundlePath)
	if err != nil {
		return nil, nil, fmt.Errorf("--config: %w", err)
	}
	if b.LASMQ == nil {
		return nil, nil, fmt.Errorf("--config %s: the bundle has no las_mq section", bundlePath)
	}
	held, err := b.HeldPerUnit()
	if err != nil {
		return nil, nil, fmt.Errorf("--config %s: %w", bundlePath, err)
	}
	p, err := sim.ParsePolicy(b.LASMQ.Spec())
	if err != nil {
		return nil, nil, fmt.Errorf("--config %s: %w", bundlePath, err)
	}
	m := tasklevel.TaskLASMQ(p.(*sim.LASMQ), held)
	names, specs = append(names, "tuned las_mq ("+bundlePath+")"), append(specs, m.Spec())
	if h := b.HPFSP; h != nil {
		names, specs = append(names, "tuned h-pfsp ("+bundlePath+")"), append(specs, h.Spec())
	}
	return names, specs, nil
}

// WhatIfLambdas returns λ of the spec and of the last n what-ifs (the
// ones given with CapacityOptions.WhatIfs, in order); zeros without an LP.
func (a *CapacityAnalysis) WhatIfLambdas(n int) []float64 {
	out := []float64{a.Lambda}
	for k := len(a.WhatIfs) - n; k < len(a.WhatIfs); k++ {
		if k >= 0 {
			out = append(out, a.WhatIfs[k].Lambda)
		} else {
			out = append(out, 0)
		}
	}
	return out
}
