package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// runCmd runs "schedplan NAME... --quiet ARGS..." in-process, with the
// subcommand's flags reset to their defaults first, and returns what it wrote
// to its output and error streams.
func runCmd(t *testing.T, name []string, args ...string) (string, error) {
	t.Helper()
	cmd, _, err := rootCmd.Find(name)
	if err != nil {
		t.Fatal(err)
	}
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			var def []string
			if d := strings.Trim(f.DefValue, "[]"); d != "" {
				def = strings.Split(d, ",")
			}
			sv.Replace(def)
		} else {
			f.Value.Set(f.DefValue)
		}
		f.Changed = false
	})
	var out bytes.Buffer
	rootCmd.SetOut(&out)
	rootCmd.SetErr(&out)
	rootCmd.SetArgs(append(append(append([]string{}, name...), "--quiet"), args...))
	err = rootCmd.Execute()
	rootCmd.SetOut(nil)
	rootCmd.SetErr(nil)
	return out.String(), err
}
