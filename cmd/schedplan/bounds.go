package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/pipeline"
	"github.com/spf13/cobra"
)

// boundsRow is one policy measured against the bounds.
type boundsRow struct {
	Policy      string  `json:"policy"`
	Mean        float64 `json:"mean_response"`
	Gap         float64 `json:"gap_to_lower_bound"` // mean / SRPT mean − 1
	Missed      int     `json:"missed_deadlines"`
	MissedShare float64 `json:"missed_share"`
	MaxLate     float64 `json:"max_lateness_s"`
}

func newBoundsCmd(a *app) *cobra.Command {
	var (
		tf       traceFlags
		wf       windowFlags
		policies string
		asJSON   bool
		out      string
		force    bool
	)
	cmd := &cobra.Command{
		Use:   "bounds",
		Short: "Protective offline bounds: PS deadlines, the SRPT lower bound, FSP's value; and each policy's gap and deadline misses",
		Long: `bounds computes, with exact sizes on the fluid model, every job's PS
completion time (its protective deadline), the SRPT mean response (a lower
bound on every policy's mean response) and the FSP mean response (a feasible
protective schedule: FSP with exact sizes misses no PS deadline). Each policy
of --policy is then measured against them: its gap to the lower bound and how
many jobs miss their PS deadline, and by how much.

--window picks the jobs: all (default), tune or validate (see --split). The
capacity is in the units of the sizes (see simulate).`,
		Example: `  schedplan bounds
  schedplan bounds --window validate --policy fifo,gps,las_mq:k=8,alpha0=2,p=4 --out deadlines.parquet`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			specs, err := parsePolicies("policy", policies)
			if err != nil {
				return err
			}
			if out != "" {
				if _, err := checkOut(out, force); err != nil {
					return err
				}
			}
			sj, err := wf.load(&tf)
			if err != nil {
				return err
			}
			jobs, source, window := sj.jobs, sj.sized.jobs.Source, wf.window
			b, err := pipeline.ComputeBounds(jobs, sj.capacity)
			if err != nil {
				return err
			}
			x := &pipeline.Experiment{Jobs: jobs, Capacity: sj.capacity, Deadlines: b.Deadlines, Policies: specs, Runs: 1}
			res, err := x.Run(cmd.Context(), pipeline.RunOptions{})
			if err != nil {
				return err
			}
			var rows []boundsRow
			for _, p := range res.Policies {
				sum := p.Summaries[0]
				rows = append(rows, boundsRow{Policy: p.Policy, Mean: sum.Response.Mean, Gap: b.Gap(sum.Response.Mean),
					Missed: sum.Missed, MissedShare: sum.MissedShare, MaxLate: sum.MaxLate})
			}
			if out != "" {
				t := &data.Table{Names: []string{"job", "arrival", "size", "ps_deadline"}}
				idx, arr, size := make([]int64, len(jobs)), make([]float64, len(jobs)), make([]float64, len(jobs))
				for i, j := range jobs {
					idx[i], arr[i], size[i] = int64(i), j.Arrival, j.Size
				}
				t.Cols = []any{idx, arr, size, b.Deadlines}
				if err := data.WriteTableFile(out, force, t); err != nil {
					return err
				}
			}
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), struct {
					Trace    string           `json:"trace"`
					Window   string           `json:"window"`
					Bounds   *pipeline.Bounds `json:"bounds"`
					Policies []boundsRow      `json:"policies"`
				}{source, window, b, rows})
			}
			printBounds(cmd.OutOrStdout(), source, window, b, rows)
			return nil
		},
	}
	tf.register(cmd)
	wf.register(cmd, "all")
	f := cmd.Flags()
	f.StringVarP(&policies, "policy", "p", "fifo,"+pipeline.FairSpec+",las,"+sim.DefaultLASMQ().Spec()+",srpt,fsp+ps", "policies to measure against the bounds")
	f.BoolVar(&asJSON, "json", false, "print JSON")
	f.StringVarP(&out, "out", "o", "", "write every job's PS deadline to a .parquet, .arrow or .csv file")
	f.BoolVar(&force, "force", false, "overwrite --out")
	return cmd
}

func printBounds(out io.Writer, source, window string, b *pipeline.Bounds, rows []boundsRow) {
	fmt.Fprintf(out, "trace %s, window %s: %d jobs, capacity %g\n", source, window, b.Jobs, b.Capacity)
	fmt.Fprintf(out, "lower bound (SRPT, exact sizes)   mean response %.6g\n", b.SRPTMean)
	fmt.Fprintf(out, "protective schedule (FSP, exact)  mean response %.6g (misses %d PS deadlines)\n", b.FSPMean, b.FSPMissed)
	fmt.Fprintf(out, "processor sharing (the deadlines) mean response %.6g\n\n", b.PSMean)
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "policy\tmean response\tgap to bound\tmissed deadlines\tshare\tmax lateness (s)\t")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%.6g\t%+.1f%%\t%d\t%.1f%%\t%.4g\t\n", r.Policy, r.Mean, 100*r.Gap, r.Missed, 100*r.MissedShare, r.MaxLate)
	}
	tw.Flush()
}
