package main

import (
	"fmt"

	"github.com/schedplan/schedplan/pipeline"
	"github.com/schedplan/schedplan/pipeline/inputs"
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
			written, err := pipeline.EmitYARNFiles(bundle, out, force, containerMB)
			for _, p := range written {
				fmt.Fprintln(cmd.OutOrStdout(), "wrote", p)
			}
			return err
		},
	}
	f := cmd.Flags()
	f.StringVar(&bundle, "config", "schedplan.yaml", "configuration bundle to render")
	f.StringVarP(&out, "out", "o", ".", "directory to write the XML files into")
	f.BoolVar(&force, "force", false, "overwrite existing files")
	f.IntVar(&containerMB, "container-mb", inputs.DefaultRunConfig().ContainerMB, "memory of one container, for the Fair Scheduler's minResources")
	return cmd
}
