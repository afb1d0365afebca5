package main

import (
	"fmt"
	"path/filepath"

	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/pipeline"
	"github.com/spf13/cobra"
)

func newEmitCmd(a *app) *cobra.Command {
	var (
		bundle, out string
		force       bool
		containerMB int
	)
	cmd := &cobra.Command{
		Use:   "emit",
		Short: "Render a schedplan.yaml bundle as YARN capacity-scheduler.xml and fair-scheduler.xml",
		Long: `emit renders a configuration bundle (schedplan.yaml, as written by
"schedplan run") as YARN scheduler configuration files, and checks them against
YARN's structural rules (queue names, sibling capacities summing to 100 on
every partition, label access) before writing them.`,
		Example: `  schedplan emit --config out/schedplan.yaml --out yarn/`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if containerMB < 1 || containerMB > pipeline.MaxContainerMB {
				return fmt.Errorf("--container-mb %d: want 1 to %d MB", containerMB, pipeline.MaxContainerMB)
			}
			if out == "" {
				return fmt.Errorf("--out: no directory given")
			}
			b, err := pipeline.LoadBundle(bundle)
			if err != nil {
				return err
			}
			files, err := pipeline.RenderYARN(b, pipeline.FairSchedulerOptions{ContainerMB: containerMB})
			if err != nil {
				return err
			}
			names := []string{"capacity-scheduler.xml", "fair-scheduler.xml"}
			for _, name := range names {
				if p := filepath.Join(out, name); !force && exists(p) {
					return fmt.Errorf("%s: %w", p, data.ErrExists)
				}
			}
			for _, name := range names {
				p := filepath.Join(out, name)
				if err := data.WriteBytesAtomic(p, force, files[name]); err != nil {
					return err
				}
				fmt.Fprintln(cmd.OutOrStdout(), "wrote", p)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&bundle, "config", "schedplan.yaml", "configuration bundle to render")
	f.StringVarP(&out, "out", "o", ".", "directory to write the XML files into")
	f.BoolVar(&force, "force", false, "overwrite existing files")
	f.IntVar(&containerMB, "container-mb", pipeline.DefaultRunConfig().ContainerMB, "memory of one container, for the Fair Scheduler's minResources")
	return cmd
}
