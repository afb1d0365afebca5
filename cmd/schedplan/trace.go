package main

import (
	"fmt"
	"log/slog"

	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/estimate"
	"github.com/spf13/cobra"
)

// traceFlags are the flags of every subcommand that reads a job log.
type traceFlags struct {
	trace   string
	format  string
	mapping string
	strict  bool
	dn      float64
	load    float64
}

func (t *traceFlags) register(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVarP(&t.trace, "trace", "t", "embedded", `job log: a .parquet, .arrow, .arrows (Arrow stream), .tsv or .csv file, or "embedded[:NAME]"`)
	f.StringVar(&t.format, "format", "", "input format (parquet, arrow, arrow-stream, tsv, csv); default: from the file name")
	f.StringVar(&t.mapping, "map", "", "column mapping canonical=source,... (e.g. submit_time=ts,user=owner; time units as submit_time=ts:ms)")
	f.BoolVar(&t.strict, "strict", false, "reject unsorted submit times instead of sorting them")
	f.Float64Var(&t.dn, "dn", 4, "d/n: disk over network bandwidth, for sizes derived from bytes")
	f.Float64Var(&t.load, "load", 0.9, "offered load that sizes derived from bytes are normalised to")
}

// read loads the job log.
func (t *traceFlags) read() (*data.Jobs, error) {
	opt := data.ReadOptions{
		Format: data.Format(t.format),
		Strict: t.strict,
		Warn:   func(msg string) { slog.Warn(msg) },
	}
	if t.mapping != "" {
		m, err := data.ParseMapping(t.mapping)
		if err != nil {
			return nil, fmt.Errorf("--map: %w", err)
		}
		opt.Map = m
	}
	return data.Open(t.trace, opt)
}

// sizeOptions returns the size-derivation options the flags set.
func (t *traceFlags) sizeOptions() estimate.SizeOptions {
	return estimate.SizeOptions{DN: t.dn, Load: t.load}
}

// readClusterSized loads the job log and derives every job's size in
// container-seconds of the cluster spec (see estimate.ContainerSeconds): the
// unit in which classes' execution rates μ and the COSHH LP are computed.
func (t *traceFlags) readClusterSized(spec *cluster.Spec) (*data.Jobs, []float64, error) {
	j, err := t.read()
	if err != nil {
		return nil, nil, err
	}
	sizes, src, err := estimate.Sizes(j, t.sizeOptions())
	if err != nil {
		return nil, nil, err
	}
	return j, estimate.ContainerSeconds(sizes, src, t.sizeOptions(), spec.Capacity()), nil
}

// readSized loads the job log and derives every job's size.
func (t *traceFlags) readSized() (*data.Jobs, []float64, error) {
	j, err := t.read()
	if err != nil {
		return nil, nil, err
	}
	sizes, src, err := estimate.Sizes(j, t.sizeOptions())
	if err != nil {
		return nil, nil, err
	}
	slog.Debug("sizes derived", "trace", j.Source, "jobs", j.Len(), "source", src)
	return j, sizes, nil
}
