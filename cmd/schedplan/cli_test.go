package main

import (
	"bytes"
	"context"
	"testing"
)

// runCmd runs "schedplan NAME... --quiet ARGS..." in-process on a fresh
// command tree and returns what it wrote to its output and error streams.
func runCmd(t *testing.T, name []string, args ...string) (string, error) {
	t.Helper()
	return runCmdContext(context.Background(), t, name, args...)
}

func runCmdContext(ctx context.Context, t *testing.T, name []string, args ...string) (string, error) {
	t.Helper()
	root := newRootCmd()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetErr(&out)
	root.SetArgs(append(append(append([]string{}, name...), "--quiet"), args...))
	err := root.ExecuteContext(ctx)
	return out.String(), err
}
