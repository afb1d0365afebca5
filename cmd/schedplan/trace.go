package main

import (
	"fmt"
	"log/slog"

	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/estimate"
	"github.com/schedplan/schedplan/pipeline/inputs"
	"github.com/schedplan/schedplan/pipeline/tasklevel"
	"github.com/spf13/cobra"
)

// traceFlags are the flags of every subcommand that reads a job log.
type traceFlags struct {
	trace, format, mapping string
	strict                 bool
	dn, load               float64
}

func (t *traceFlags) register(cmd *cobra.Command) {
	d := inputs.DefaultRunConfig()
	f := cmd.Flags()
	f.StringVarP(&t.trace, "trace", "t", d.Trace, `job log: a .parquet, .arrow, .arrows (Arrow stream), .tsv or .csv file, or "embedded[:NAME]"`)
	f.StringVar(&t.format, "format", "", "input format (parquet, arrow, arrow-stream, tsv, csv); default: from the file name")
	f.StringVar(&t.mapping, "map", "", "column mapping canonical=source,... (e.g. submit_time=ts,user=owner; time units as submit_time=ts:ms)")
	f.BoolVar(&t.strict, "strict", false, "reject unsorted submit times instead of sorting them")
	f.Float64Var(&t.dn, "dn", d.Sizes.DN, "d/n: disk over network bandwidth, for sizes derived from bytes")
	f.Float64Var(&t.load, "load", d.Sizes.Load, "offered load that sizes derived from bytes are normalised to")
}

// readOptions returns the reader options the flags set.
func (t *traceFlags) readOptions() (data.ReadOptions, error) {
	opt := data.ReadOptions{Format: data.Format(t.format), Strict: t.strict, Warn: func(msg string) { slog.Warn(msg) }}
	if t.mapping != "" {
		m, err := data.ParseMapping(t.mapping)
		if err != nil {
			return opt, fmt.Errorf("--map: %w", err)
		}
		opt.Map = m
	}
	return opt, nil
}

// read loads the job log.
func (t *traceFlags) read() (*data.Jobs, error) {
	opt, err := t.readOptions()
	if err != nil {
		return nil, err
	}
	return data.Open(t.trace, opt)
}

// inputOptions returns how to read the log: the flags (the input may be
// given as the argument instead of --trace) and the log flags.
func (t *traceFlags) inputOptions(cmd *cobra.Command, args []string, lf *logFlags) (inputs.InputOptions, error) {
	if len(args) == 1 {
		if cmd.Flags().Changed("trace") {
			return inputs.InputOptions{}, fmt.Errorf("give the input either as an argument or with --trace, not both")
		}
		t.trace = args[0]
	}
	opt, err := t.readOptions()
	lf.options(&opt)
	return inputs.InputOptions{Trace: t.trace, Read: opt, Tasks: lf.tasks}, err
}

// sizes returns the size-derivation options the flags set.
func (t *traceFlags) sizes() estimate.SizeOptions {
	return estimate.SizeOptions{DN: t.dn, Load: t.load}
}

// readWithSpec loads the cluster spec (--cluster) and then the sized log.
func (t *traceFlags) readWithSpec(clusterPath string) (*cluster.Spec, *inputs.SizedLog, error) {
	return inputs.ReadSpecAndLog(clusterPath, t.trace, t.readOptions, t.sizes())
}

// windowFlags place a fluid simulation: the cluster spec (users' weights;
// the capacity in the units of the sizes) and the window of the log.
type windowFlags struct {
	cluster, window string
	capacity, split float64
}

func (w *windowFlags) register(cmd *cobra.Command, window string) {
	d := inputs.DefaultRunConfig()
	f := cmd.Flags()
	f.StringVar(&w.cluster, "cluster", d.Cluster, `cluster spec (YAML); "auto" (the default) a homogeneous cluster sized for offered load 0.7 on the log's measured work (on sizes normalised to a load: as many containers as Table 3); "coshh-table3" the six-resource cluster of Rasooli and Down's COSHH (Table 3)`)
	f.Float64Var(&w.capacity, "capacity", 0, "fluid server capacity in the units of the sizes (0: 1 for sizes normalised to a load, else the cluster spec's containers)")
	f.Float64Var(&w.split, "split", d.Split, "fraction of the jobs (by submit time) that tune; the rest validate")
	f.StringVar(&w.window, "window", window, "jobs to use: all, tune or validate (see --split)")
}

// load reads the trace and prepares the window at the capacity of the
// cluster spec (or --capacity).
func (w *windowFlags) load(tf *traceFlags) (*tasklevel.Window, error) {
	spec, s, err := tf.readWithSpec(w.cluster)
	if err != nil {
		return nil, err
	}
	return tasklevel.OpenWindow(s.Jobs, s.Sizes, s.Src, s.Opt, spec, w.capacity, w.split, w.window)
}
