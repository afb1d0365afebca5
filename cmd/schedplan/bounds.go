package main

import (
	"path/filepath"

	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/pipeline"
	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/runreport"
	"github.com/schedplan/schedplan/pipeline/tasklevel"
	"github.com/schedplan/schedplan/pipeline/tuner"
	"github.com/spf13/cobra"
)

func newBoundsCmd(a *app) *cobra.Command {
	var (
		tf            traceFlags
		wf            windowFlags
		policies, out string
		asJSON, force bool
	)
	cmd := &cobra.Command{
		Use:   "bounds",
		Short: "How good any scheduler could be on the log (the SRPT lower bound), and how far each policy is from it and from fair-share deadlines",
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
			specs, err := experiment.ParsePolicies("policy", policies)
			if err != nil {
				return err
			}
			if _, err := pipeline.CheckOutFile(out, force); err != nil {
				return err
			}
			w, err := wf.load(&tf)
			if err != nil {
				return err
			}
			b, rows, err := tasklevel.MeasureBounds(cmd.Context(), w, specs)
			if err != nil {
				return err
			}
			if out != "" {
				if err := pipeline.MakeOutDir("--out", filepath.Dir(out)); err != nil {
					return err
				}
				if err := data.WriteTableFile(out, force, w.DeadlinesTable(b)); err != nil {
					return err
				}
			}
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), runreport.NewBoundsReport(w, b, rows))
			}
			runreport.WriteBoundsText(cmd.OutOrStdout(), w, b, rows)
			return nil
		},
	}
	tf.register(cmd)
	wf.register(cmd, "all")
	f := cmd.Flags()
	f.StringVarP(&policies, "policy", "p", "fifo,"+tuner.FairSpec+",las,"+sim.DefaultLASMQ().Spec()+",srpt,fsp+ps", "policies to measure against the bounds")
	f.BoolVar(&asJSON, "json", false, "print JSON")
	f.StringVarP(&out, "out", "o", "", "write every job's PS deadline to a .parquet, .arrow or .csv file")
	f.BoolVar(&force, "force", false, "overwrite --out")
	return cmd
}
