package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// container is what the manifests' tests read of a container (core/v1
// Container's fields that the manifests use; decoded strictly, so that a
// misspelt field fails).
type container struct {
	Name      string   `yaml:"name"`
	Image     string   `yaml:"image"`
	Command   []string `yaml:"command"`
	Args      []string `yaml:"args"`
	Env       []envVar `yaml:"env"`
	Resources struct {
		Requests map[string]string `yaml:"requests"`
		Limits   map[string]string `yaml:"limits"`
	} `yaml:"resources"`
	VolumeMounts []struct {
		Name      string `yaml:"name"`
		MountPath string `yaml:"mountPath"`
		ReadOnly  bool   `yaml:"readOnly"`
	} `yaml:"volumeMounts"`
}

type envVar struct {
	Name  string `yaml:"name"`
	Value string `yaml:"value"`
}

// shellCommand is the command line a container runs: the -c script of a
// /bin/sh container, or its command and args joined.
func (c container) shellCommand() string {
	if len(c.Command) == 2 && c.Command[0] == "/bin/sh" && c.Command[1] == "-c" && len(c.Args) == 1 {
		return c.Args[0]
	}
	return strings.Join(append(slices.Clone(c.Command), c.Args...), " ")
}

// checkSchedplanArgs checks that a command line is schedplan's: a real
// subcommand and flags it knows, with no shell quoting or unresolved
// placeholder left. It returns the arguments after "schedplan".
func checkSchedplanArgs(t *testing.T, where, line string) []string {
	t.Helper()
	if strings.ContainsAny(line, `"'{}$`) {
		t.Fatalf("%s: %q has quoting or an unresolved placeholder", where, line)
	}
	words := strings.Fields(line)
	if len(words) == 0 || words[0] != "schedplan" {
		t.Fatalf("%s: %q does not run schedplan", where, line)
	}
	root := newRootCmd()
	cmd, rest, err := root.Find(words[1:])
	if err != nil || cmd == root {
		t.Fatalf("%s: %q: no such schedplan command (%v)", where, line, err)
	}
	if err := cmd.ParseFlags(rest); err != nil {
		t.Fatalf("%s: %q: %v", where, line, err)
	}
	return words[1:]
}

// workflow is what the test reads of deploy/run-workflow.yaml.
type workflow struct {
	APIVersion string `yaml:"apiVersion"`
	Kind       string `yaml:"kind"`
	Spec       struct {
		Entrypoint string `yaml:"entrypoint"`
		Arguments  struct {
			Parameters []struct {
				Name  string `yaml:"name"`
				Value string `yaml:"value"`
			} `yaml:"parameters"`
		} `yaml:"arguments"`
		Templates []struct {
			Name string `yaml:"name"`
			DAG  *struct {
				Tasks []struct {
					Name         string `yaml:"name"`
					Depends      string `yaml:"depends"`
					Template     string `yaml:"template"`
					WithSequence *struct {
						Count string `yaml:"count"`
					} `yaml:"withSequence"`
					Arguments struct {
						Parameters []struct {
							Name  string `yaml:"name"`
							Value string `yaml:"value"`
						} `yaml:"parameters"`
					} `yaml:"arguments"`
				} `yaml:"tasks"`
			} `yaml:"dag"`
			Container *container `yaml:"container"`
		} `yaml:"templates"`
	} `yaml:"spec"`
}

// The run workflow decodes, its DAG is acyclic, every step runs real
// schedplan commands and flags, and its steps, run in the DAG's order on
// the embedded trace into a folder that does not exist yet (with the
// workflow's shard count, the first shard of each stage run twice, as a
// retried pod), give byte for byte the files of one "schedplan run" with
// the same flags.
func TestDeployRunWorkflow(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "deploy", "run-workflow.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var wf workflow
	if err := yaml.Unmarshal(b, &wf); err != nil {
		t.Fatal(err)
	}
	if wf.APIVersion != "argoproj.io/v1alpha1" || wf.Kind != "Workflow" {
		t.Fatalf("%s %s: not an Argo Workflow", wf.APIVersion, wf.Kind)
	}
	out := filepath.Join(t.TempDir(), "out")
	flags := "--trace embedded --budget 60 --runs 2"
	params := map[string]string{}
	for _, p := range wf.Spec.Arguments.Parameters {
		params[p.Name] = p.Value
	}
	params["flags"], params["out"] = flags, out
	var commands [][]string
	for _, tpl := range wf.Spec.Templates {
		if tpl.Name != wf.Spec.Entrypoint || tpl.DAG == nil {
			continue
		}
		// Each task depends on the one before it: the DAG is a chain, so
		// its order is the file's (a fan-out is a task's withSequence).
		for k, task := range tpl.DAG.Tasks {
			if k > 0 && task.Depends != tpl.DAG.Tasks[k-1].Name {
				t.Fatalf("task %s depends on %q, want the task before it (%s)", task.Name, task.Depends, tpl.DAG.Tasks[k-1].Name)
			}
			var body *container
			for _, c := range wf.Spec.Templates {
				if c.Name == task.Template {
					body = c.Container
				}
			}
			if body == nil || len(task.Arguments.Parameters) != 1 {
				t.Fatalf("task %s: template %q has no container, or the task does not pass args", task.Name, task.Template)
			}
			items := []string{""}
			if task.WithSequence != nil {
				items = nil
				n := expand(task.WithSequence.Count, params, "", "")
				if n != params["shards"] {
					t.Fatalf("task %s: sequence of %s, want the shards parameter", task.Name, n)
				}
				count, err := strconv.Atoi(n)
				if err != nil || count < 1 {
					t.Fatalf("task %s: sequence count %q", task.Name, n)
				}
				for i := range count {
					items = append(items, strconv.Itoa(i))
				}
			}
			for _, item := range items {
				args := expand(task.Arguments.Parameters[0].Value, params, "", item)
				line := expand(body.shellCommand(), params, args, item)
				commands = append(commands, checkSchedplanArgs(t, task.Name, line))
			}
		}
	}
	if len(commands) < 7 {
		t.Fatalf("%d commands in the workflow's DAG", len(commands))
	}
	retried := map[string]bool{} // the first shard of each stage runs twice: a pod retried after writing its part
	for _, c := range commands {
		runs := 1
		if k := slices.Index(c, "--shard"); k >= 0 && !retried[c[k-1]] {
			retried[c[k-1]], runs = true, 2
		}
		for range runs {
			if o, err := runCmd(t, nil, c...); err != nil {
				t.Fatalf("schedplan %s: %v\n%s", strings.Join(c, " "), err, o)
			}
		}
	}
	if len(retried) != 2 {
		t.Errorf("shards retried of %d stages, want tune's and validate's", len(retried))
	}
	whole := filepath.Join(t.TempDir(), "whole")
	if o, err := runCmd(t, []string{"run"}, append(strings.Fields(flags), "--out", whole)...); err != nil {
		t.Fatal(err, o)
	}
	for _, f := range []string{"schedplan.yaml", "capacity-scheduler.xml", "fair-scheduler.xml", "results.parquet", "summary.json", "report.html"} {
		a, errA := os.ReadFile(filepath.Join(out, f))
		w, errW := os.ReadFile(filepath.Join(whole, f))
		if errA != nil || errW != nil || !bytes.Equal(a, w) {
			t.Errorf("%s: the workflow's differs from one run's (%v, %v)", f, errA, errW)
		}
	}
}

var placeholder = regexp.MustCompile(`\{\{\s*([a-z.]+)\s*\}\}`)

// expand resolves Argo's placeholders: workflow parameters, the template's
// args input and the sequence item.
func expand(s string, params map[string]string, args, item string) string {
	return placeholder.ReplaceAllStringFunc(s, func(m string) string {
		name := placeholder.FindStringSubmatch(m)[1]
		switch {
		case name == "item" && item != "":
			return item
		case name == "inputs.parameters.args" && args != "":
			return args
		case strings.HasPrefix(name, "workflow.parameters."):
			if v, ok := params[strings.TrimPrefix(name, "workflow.parameters.")]; ok {
				return v
			}
		}
		return m
	})
}
