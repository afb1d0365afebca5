// Command schedplan turns a cluster's historical job log into tuned, validated
// scheduler configurations. Run "schedplan help" for the subcommands.
package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/internal/gcpause"
	"github.com/schedplan/schedplan/pipeline"
	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"golang.org/x/term"
)

// app holds the flags every subcommand shares.
type app struct {
	quiet               bool
	logFormat, logLevel string
	prof                profiler
}

// newRootCmd builds the command tree; every call gives fresh flags.
func newRootCmd() *cobra.Command {
	a := &app{}
	root := &cobra.Command{
		Use:   "schedplan",
		Short: "Offline scheduler planning from historical job logs",
		Long: `schedplan turns your cluster's job log into YARN scheduler settings and
tells you whether they would beat the scheduler you run today. Start with
"schedplan run --trace jobs.parquet --out out": it sizes and groups the jobs,
works out how much more load the cluster can take, tunes a
capacity-scheduler.xml and a fair-scheduler.xml on the older part of the log,
replays them as YARN would run them on the newer part against your current
scheduler, and says "deploy" or "keep" with a confidence interval
(out/report.html). A log is Parquet, Arrow IPC, CSV or SWIM .tsv (other
systems' logs: "schedplan convert"); "embedded" is the SWIM Facebook 2009
sample in the binary. The methods come from papers (COSHH, LAS_MQ, H-PFSP,
PRISM, Dell'Amico's simulator): docs/papers.md.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		PersistentPreRunE: func(cmd *cobra.Command, args []string) error {
			gcpause.Resume() // the command's work starts here (see package gcpause)
			if err := a.setupLogging(); err != nil {
				return err
			}
			warnDeprecated(cmd.Flags())
			return a.prof.start()
		},
	}
	pf := root.PersistentFlags()
	pf.BoolVarP(&a.quiet, "quiet", "q", false, "no progress bars and only warnings and errors in the log")
	pf.StringVar(&a.logFormat, "log-format", "text", "log format: text or json")
	pf.StringVar(&a.logLevel, "log-level", "info", "log level: debug, info, warn or error")
	pf.StringVar(&a.prof.cpuPath, "cpuprofile", "", "write a Go CPU profile of the command to this file")
	pf.StringVar(&a.prof.memPath, "memprofile", "", "write a Go heap profile at the end of the command to this file")
	_ = pf.MarkHidden("cpuprofile")
	pf.StringVar(&a.prof.peak.path, "peakprofile", "", "write a Go heap profile of the largest live heap of the command to this file")
	_ = pf.MarkHidden("memprofile")
	_ = pf.MarkHidden("peakprofile")
	root.PersistentPostRunE = func(cmd *cobra.Command, args []string) error { return a.prof.stop() }
	root.AddCommand(newDescribeCmd(a), newConvertCmd(a), newSimulateCmd(a), newSweepCmd(a), newClassifyCmd(a),
		newCapacityCmd(a), newTuneCmd(a), newBoundsCmd(a), newEmitCmd(a), newRunCmd(a), newYARNControllerCmd(a))
	var wrap func(c *cobra.Command)
	wrap = func(c *cobra.Command) {
		if run := c.RunE; run != nil {
			c.RunE = func(cmd *cobra.Command, args []string) error {
				err := run(cmd, args)
				if err != nil {
					_ = a.prof.stop() // cobra runs PersistentPostRunE on success only
				}
				return cliError(err)
			}
		}
		for _, sub := range c.Commands() {
			wrap(sub)
		}
	}
	wrap(root)
	return root
}

func (a *app) setupLogging() error {
	h, err := pipeline.LogHandler(os.Stderr, a.logFormat, a.logLevel, a.quiet)
	if err != nil {
		return cliError(err)
	}
	slog.SetDefault(slog.New(h))
	return nil
}

// interactive reports whether progress bars may be drawn on stderr.
func (a *app) interactive() bool { return a.barsOn(term.IsTerminal(int(os.Stderr.Fd()))) }

// barsOn reports whether progress bars are drawn: on a terminal, unless
// --quiet or --log-format json (whose stderr is JSON lines only).
func (a *app) barsOn(terminal bool) bool { return terminal && !a.quiet && a.logFormat != "json" }

// deprecate hides a flag that is no longer used; setting it is a warning of
// the log (warnDeprecated), not a line the flag parser prints, which would
// break a JSON log.
func deprecate(f *pflag.FlagSet, name, msg string) {
	_ = f.MarkHidden(name)
	_ = f.SetAnnotation(name, "deprecated", []string{msg})
}

func warnDeprecated(f *pflag.FlagSet) {
	f.Visit(func(fl *pflag.Flag) {
		if msg := fl.Annotations["deprecated"]; len(msg) > 0 {
			slog.Warn("--"+fl.Name+" is deprecated: "+msg[0], "flag", fl.Name)
		}
	})
}

// exitError is an error as the command line words it (msg; "" keeps
// err's message) with the process's exit status.
type exitError struct {
	code int
	msg  string
	err  error
}

func (e *exitError) Error() string { return cmp.Or(e.msg, e.err.Error()) }
func (e *exitError) Unwrap() error { return e.err }

// cliError words library errors for the command line: a parameter becomes
// its flag, and errors the user can act on say how.
func cliError(err error) error {
	var pe *experiment.ParamError
	var tb *experiment.TooBigError
	switch {
	case err == nil:
		return nil
	case errors.Is(err, context.Canceled):
		return &exitError{130, "interrupted: stopped before writing anything more; every file written is whole, and running the same command again resumes", err}
	case errors.As(err, &pe):
		if v := fmt.Sprint(pe.Value); v != "" {
			return &exitError{1, fmt.Sprintf("--%s %s: %s", pe.Param, v, pe.Msg), err}
		}
		return &exitError{1, fmt.Sprintf("--%s: %s", pe.Param, pe.Msg), err} // a flag not given
	case errors.As(err, &tb):
		return &exitError{1, err.Error() + "; lower --runs or --budget, shard the work, or pass --i-know to run it anyway", err}
	case errors.Is(err, data.ErrExists):
		return &exitError{1, err.Error() + " (pass --force to overwrite)", err}
	case errors.Is(err, experiment.ErrNoOutputDir):
		return &exitError{1, "--out: " + err.Error(), err}
	}
	return err
}

// stopGrace is how long a command may take to stop on its own after
// SIGINT or SIGTERM (every stage checks its context) before the process
// exits anyway, so that no phase — a read that cannot be interrupted, a
// library call that does not take a context — keeps it running: the
// signal stops every command within a second.
const stopGrace = 500 * time.Millisecond

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() {
		<-ctx.Done()
		stop() // a second signal kills at once
		time.Sleep(stopGrace)
		data.RemovePending()
		os.Exit(exit(os.Stderr, os.Args[1:], &exitError{130, "interrupted: stopped at once; every file written is whole, and running the same command again resumes", context.Canceled}))
	}()
	if err := newRootCmd().ExecuteContext(ctx); err != nil {
		os.Exit(exit(os.Stderr, os.Args[1:], err))
	}
}

// exit writes the command's final error to w, one JSON object when args
// ask for --log-format json (the flags may not have been parsed: the error
// may be the parser's), and returns the exit status.
func exit(w io.Writer, args []string, err error) int {
	code := 1
	var ee *exitError
	if errors.As(err, &ee) {
		code = ee.code
	}
	var attrs []any
	var pe *experiment.ParamError
	var iv *pflag.InvalidValueError
	var vr *pflag.ValueRequiredError
	var ne *pflag.NotExistError // an unknown flag: named as given
	switch {
	case errors.As(err, &pe):
		attrs = []any{"flag", pe.Param}
	case errors.As(err, &iv):
		attrs = []any{"flag", iv.GetFlag().Name}
	case errors.As(err, &vr):
		attrs = []any{"flag", vr.GetFlag().Name}
	case errors.As(err, &ne):
		attrs = []any{"flag", ne.GetSpecifiedName()}
	}
	pipeline.LogExit(w, pipeline.LogFormatArg(args) == "json", "schedplan", err, code, attrs...)
	return code
}
