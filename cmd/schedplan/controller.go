package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/schedplan/schedplan/cluster/yarn"
	"github.com/schedplan/schedplan/internal/configfile"
	"github.com/schedplan/schedplan/pipeline"
	"github.com/spf13/cobra"
)

func newYARNControllerCmd(a *app) *cobra.Command {
	var (
		rm, user           string
		interval           time.Duration
		containerMB, amMB  int
		dryRun, once, asJS bool
	)
	cmd := &cobra.Command{
		Use:   "yarn-controller CAPACITY_SCHEDULER_XML",
		Short: "Apply an emitted capacity-scheduler.xml's LAS_MQ demotions on a running YARN cluster",
		Long: `YARN never moves an application between queues by itself, so the LAS_MQ
levels of an emitted capacity-scheduler.xml act only with this controller:
every --interval it lists the running applications through the
ResourceManager's REST API and moves each one whose attained service in held
container-seconds (memorySeconds / --container-mb) has passed its level's
schedplan.las-mq.<leaf>.demote-after-held-container-seconds to the next level.
The RM must authenticate the caller (simple auth: --user is sent as
user.name; Kerberos is not supported). The README says more.`,
		Example: `  schedplan yarn-controller out/capacity-scheduler.xml --rm http://rm:8088 --user yarn --dry-run --once
  schedplan yarn-controller out/capacity-scheduler.xml --rm http://rm:8088 --user yarn --interval 5s`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := pipeline.CheckContainerMB(containerMB); err != nil {
				return err
			}
			b, err := configfile.Read(args[0])
			if err != nil {
				return err
			}
			cs, err := yarn.ParseCapacityScheduler(b)
			if err != nil {
				return fmt.Errorf("%s: %w", args[0], err)
			}
			mb := 0.0 // the file's, or 1024
			if cmd.Flags().Changed("container-mb") {
				mb = float64(containerMB)
			}
			c, err := yarn.NewController(cs, yarn.ControllerOptions{RM: rm, ContainerMB: mb, AMMB: float64(amMB), User: user, DryRun: dryRun})
			if errors.Is(err, yarn.ErrRMAddress) {
				return fmt.Errorf("--rm: %w", err)
			} else if errors.Is(err, yarn.ErrContainerMB) {
				return fmt.Errorf("--container-mb: %w", err)
			} else if errors.Is(err, yarn.ErrAMMB) {
				return fmt.Errorf("--am-mb: %w", err)
			} else if err != nil {
				return fmt.Errorf("%s: %w", args[0], err)
			}
			w := cmd.OutOrStdout()
			report := func(moves []yarn.Move, err error) {
				if err != nil {
					slog.Warn("poll failed; retrying at the next interval", "err", err)
				}
				for _, m := range moves {
					if asJS {
						_ = json.NewEncoder(w).Encode(m) // one line a move
					} else if m.Err != "" {
						slog.Warn("move refused", "move", m.String(), "err", m.Err)
					} else {
						fmt.Fprintln(w, map[bool]string{false: "moved", true: "would move"}[dryRun], m.String())
					}
				}
			}
			if once {
				var moves []yarn.Move
				moves, err = c.Step(cmd.Context())
				report(moves, nil)
			} else {
				err = c.Run(cmd.Context(), interval, report)
			}
			if errors.Is(err, context.Canceled) {
				return nil // Ctrl-C ends a controller normally
			}
			return err
		},
	}
	f := cmd.Flags()
	f.StringVar(&rm, "rm", "", "the ResourceManager's web address, e.g. http://rm:8088 (required)")
	f.StringVar(&user, "user", "", "user.name for the RM's simple authentication")
	f.DurationVar(&interval, "interval", 5*time.Second, "time between polls")
	f.IntVar(&amMB, "am-mb", 0, "the ApplicationMaster's container memory in MB: attained service leaves out what the AM held, as the tuning and the simulation count (0: every container counts, as YARN's memorySeconds)")
	f.IntVar(&containerMB, "container-mb", pipeline.DefaultRunConfig().ContainerMB, "memory of one container in MB: attained service = memorySeconds / this, in held container-seconds (default: the file's schedplan.container-mb, emit's and run's --container-mb; else 1024)")
	f.BoolVar(&dryRun, "dry-run", false, "print the moves without making them")
	f.BoolVar(&once, "once", false, "poll once and exit")
	f.BoolVar(&asJS, "json", false, "one JSON object per move, a line each")
	_ = cmd.MarkFlagRequired("rm")
	return cmd
}
