// Command schedplan turns a cluster's historical job log into tuned, validated
// scheduler configurations. Run "schedplan help" for the subcommands.
package main

import (
	"errors"
	"fmt"
	"log/slog"
	"os"

	"github.com/spf13/cobra"
	"golang.org/x/term"
)

// globals are the flags every subcommand shares.
var globals struct {
	quiet     bool
	logFormat string
	logLevel  string
}

var rootCmd = &cobra.Command{
	Use:   "schedplan",
	Short: "Offline scheduler planning from historical job logs",
	Long: `schedplan reads a cluster's job log (Parquet, Arrow IPC, SWIM .tsv or CSV),
derives job sizes, classifies jobs, solves the COSHH capacity LP, tunes
scheduler settings, computes bounds and validates configurations by simulation.

A trace is a file path or "embedded" (the SWIM Facebook 2009 sample that ships
inside the binary; "embedded:fb2009-50" is its first 50 jobs).`,
	SilenceUsage:  true,
	SilenceErrors: true,
	PersistentPreRunE: func(cmd *cobra.Command, args []string) error {
		return setupLogging()
	},
}

func init() {
	pf := rootCmd.PersistentFlags()
	pf.BoolVarP(&globals.quiet, "quiet", "q", false, "no progress bars and only warnings and errors in the log")
	pf.StringVar(&globals.logFormat, "log-format", "text", "log format: text or json")
	pf.StringVar(&globals.logLevel, "log-level", "info", "log level: debug, info, warn or error")
}

func setupLogging() error {
	var level slog.Level
	if err := level.UnmarshalText([]byte(globals.logLevel)); err != nil {
		return fmt.Errorf("--log-level: %w", err)
	}
	if globals.quiet && level < slog.LevelWarn {
		level = slog.LevelWarn
	}
	opts := &slog.HandlerOptions{Level: level}
	var h slog.Handler
	switch globals.logFormat {
	case "text":
		h = slog.NewTextHandler(os.Stderr, opts)
	case "json":
		h = slog.NewJSONHandler(os.Stderr, opts)
	default:
		return fmt.Errorf("--log-format: %q is not text or json", globals.logFormat)
	}
	slog.SetDefault(slog.New(h))
	return nil
}

// interactive reports whether progress bars may be drawn: stderr is a
// terminal and --quiet is off.
func interactive() bool {
	return !globals.quiet && term.IsTerminal(int(os.Stderr.Fd()))
}

// exitError carries a process exit code other than 1.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }

func main() {
	if err := rootCmd.Execute(); err != nil {
		fmt.Fprintln(os.Stderr, "schedplan:", err)
		var ee *exitError
		if errors.As(err, &ee) {
			os.Exit(ee.code)
		}
		os.Exit(1)
	}
}
