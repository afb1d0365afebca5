package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/schedplan/schedplan/cluster/yarn"
	"github.com/schedplan/schedplan/internal/configfile"
	"github.com/schedplan/schedplan/pipeline"
	"github.com/schedplan/schedplan/pipeline/inputs"
	"github.com/schedplan/schedplan/pipeline/tunedeploy"
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
		Short: "Move running applications down the emitted capacity-scheduler.xml's levels as they use service (needed for its LAS_MQ levels to act)",
		Long: `YARN never moves an application between queues by itself, so the LAS_MQ
levels of an emitted capacity-scheduler.xml act only with this controller:
every --interval it lists the running applications through the
ResourceManager's REST API and moves each one whose attained service in held
container-seconds (memorySeconds / --container-mb) has passed its level's
schedplan.las-mq.<leaf>.demote-after-held-container-seconds to the next level.
The RM must authenticate the caller (simple auth: --user is sent as
user.name; Kerberos is not supported): a 401 stops the controller. Records
the RM lists are checked one by one (only RUNNING applications with a valid
id and usage, each once); a refused move is retried after a backoff, and
--once exits non-zero when any move was refused. docs/yarn.md says more.`,
		Example: `  schedplan yarn-controller out/capacity-scheduler.xml --rm http://rm:8088 --user yarn --dry-run --once
  schedplan yarn-controller out/capacity-scheduler.xml --rm http://rm:8088 --user yarn --interval 5s`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := pipeline.CheckContainerMB(containerMB); err != nil {
				return err
			}
			if err := yarn.CheckInterval(interval); err != nil {
				return fmt.Errorf("--interval: %w", err)
			}
			if err := yarn.CheckAMMB(float64(amMB)); err != nil {
				return fmt.Errorf("--am-mb: %w", err)
			}
			b, err := configfile.Read(args[0])
			if err != nil {
				return err
			}
			cs, err := yarn.ParseCapacityScheduler(b)
			if err != nil {
				return fmt.Errorf("%s: %w", args[0], err)
			}
			if v := tunedeploy.NotToDeploy(b); v != "" {
				slog.Warn("the file is marked not to deploy: its run's verdict keeps the current scheduler or deploys the other file", "file", args[0], "verdict", v)
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
			report := controllerReport(cmd.OutOrStdout(), asJS, dryRun)
			if once {
				p, err := c.Step(cmd.Context())
				report(p, err)
				return onceError(p, controllerError(err, user))
			}
			err = controllerError(c.Run(cmd.Context(), interval, report), user)
			if errors.Is(err, context.Canceled) {
				return nil // Ctrl-C ends a controller normally
			}
			return err
		},
	}
	f := cmd.Flags()
	f.StringVar(&rm, "rm", "", "the ResourceManager's web address, e.g. http://rm:8088 (required)")
	f.StringVar(&user, "user", "", "user.name for the RM's simple authentication")
	f.DurationVar(&interval, "interval", 5*time.Second, "time between polls (at least 1s; doubled, up to 10m, after polls that fail or whose every move is refused)")
	f.IntVar(&amMB, "am-mb", 0, "the ApplicationMaster's container memory in MB (0 to 16777216): attained service leaves out what the AM held, as the tuning and the simulation count (0: every container counts, as YARN's memorySeconds)")
	f.IntVar(&containerMB, "container-mb", inputs.DefaultRunConfig().ContainerMB, "memory of one container in MB: attained service = memorySeconds / this, in held container-seconds (default: the file's schedplan.container-mb, emit's and run's --container-mb; else 1024)")
	f.BoolVar(&dryRun, "dry-run", false, "print the moves without making them")
	f.BoolVar(&once, "once", false, "poll once and exit")
	f.BoolVar(&asJS, "json", false, "one JSON object per move, a line each")
	_ = cmd.MarkFlagRequired("rm")
	return cmd
}

// controllerReport returns the function that prints a poll: its moves on
// w (one JSON object a line with asJS), refusals, skipped records and
// the poll's error in the log.
func controllerReport(w io.Writer, asJS, dryRun bool) func(yarn.Poll, error) {
	return func(p yarn.Poll, err error) {
		if err != nil && !errors.Is(err, context.Canceled) {
			slog.Warn("poll failed", "err", err)
		}
		for _, s := range p.Skipped {
			slog.Warn("application record skipped", "app", s.App, "queue", s.Queue, "reason", s.Reason)
		}
		if p.Deferred > 0 {
			slog.Info("refused moves waiting for their retry", "applications", p.Deferred)
		}
		for _, m := range p.Moves {
			if asJS {
				_ = json.NewEncoder(w).Encode(m) // one line a move
			} else if m.Err != "" {
				slog.Warn("move refused; retried after a backoff", "move", m.String(), "err", m.Err)
			} else {
				fmt.Fprintln(w, map[bool]string{false: "moved", true: "would move"}[dryRun], m.String())
			}
		}
	}
}

// controllerError names --user in an error of an RM that wants an
// authenticated caller.
func controllerError(err error, user string) error {
	switch {
	case !errors.Is(err, yarn.ErrUnauthenticated):
		return err
	case user == "":
		return fmt.Errorf("--user: the ResourceManager refused the requests as unauthenticated; pass --user NAME (simple authentication): %w", err)
	default:
		return fmt.Errorf("--user %s: the ResourceManager refused it as unauthenticated (Kerberos is not supported): %w", user, err)
	}
}

// onceError is --once's error: the poll's, else one when any move was
// refused (an operator's script must not read a refused move as done).
func onceError(p yarn.Poll, err error) error {
	if err != nil {
		return err
	}
	if n := p.Refused(); n > 0 {
		for _, m := range p.Moves {
			if m.Err != "" {
				return fmt.Errorf("%d of %d moves refused by the ResourceManager; first: %s: %s", n, len(p.Moves), m.App, m.Err)
			}
		}
	}
	return nil
}
