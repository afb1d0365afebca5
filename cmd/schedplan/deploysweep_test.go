package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"gopkg.in/yaml.v3"
)

// The objects of deploy/kustomization.yaml, after its replacements, as the
// tests read them (the fields of batch/v1 Job, core/v1 Pod and
// PersistentVolumeClaim the manifests use; decoded strictly).
type (
	k8sMeta struct {
		Name   string            `yaml:"name"`
		Labels map[string]string `yaml:"labels"`
	}
	podSpec struct {
		RestartPolicy   string `yaml:"restartPolicy"`
		SecurityContext struct {
			RunAsUser  int64 `yaml:"runAsUser"`
			RunAsGroup int64 `yaml:"runAsGroup"`
			FSGroup    int64 `yaml:"fsGroup"`
		} `yaml:"securityContext"`
		Containers []container `yaml:"containers"`
		Volumes    []struct {
			Name                  string `yaml:"name"`
			PersistentVolumeClaim struct {
				ClaimName string `yaml:"claimName"`
			} `yaml:"persistentVolumeClaim"`
			ConfigMap struct {
				Name string `yaml:"name"`
			} `yaml:"configMap"`
		} `yaml:"volumes"`
	}
	k8sJob struct {
		APIVersion string  `yaml:"apiVersion"`
		Kind       string  `yaml:"kind"`
		Metadata   k8sMeta `yaml:"metadata"`
		Spec       struct {
			CompletionMode        string `yaml:"completionMode"`
			Completions           *int   `yaml:"completions"`
			Parallelism           *int   `yaml:"parallelism"`
			BackoffLimit          *int   `yaml:"backoffLimit"`
			BackoffLimitPerIndex  *int   `yaml:"backoffLimitPerIndex"`
			MaxFailedIndexes      *int   `yaml:"maxFailedIndexes"`
			ActiveDeadlineSeconds *int64 `yaml:"activeDeadlineSeconds"`
			Template              struct {
				Metadata k8sMeta `yaml:"metadata"`
				Spec     podSpec `yaml:"spec"`
			} `yaml:"template"`
		} `yaml:"spec"`
	}
	k8sDeployment struct {
		APIVersion string  `yaml:"apiVersion"`
		Kind       string  `yaml:"kind"`
		Metadata   k8sMeta `yaml:"metadata"`
		Spec       struct {
			Replicas *int `yaml:"replicas"`
			Strategy struct {
				Type string `yaml:"type"`
			} `yaml:"strategy"`
			Selector struct {
				MatchLabels map[string]string `yaml:"matchLabels"`
			} `yaml:"selector"`
			Template struct {
				Metadata k8sMeta `yaml:"metadata"`
				Spec     podSpec `yaml:"spec"`
			} `yaml:"template"`
		} `yaml:"spec"`
	}
	k8sPod struct {
		APIVersion string  `yaml:"apiVersion"`
		Kind       string  `yaml:"kind"`
		Metadata   k8sMeta `yaml:"metadata"`
		Spec       podSpec `yaml:"spec"`
	}
	k8sPVC struct {
		APIVersion string  `yaml:"apiVersion"`
		Kind       string  `yaml:"kind"`
		Metadata   k8sMeta `yaml:"metadata"`
		Spec       struct {
			AccessModes []string `yaml:"accessModes"`
			Resources   struct {
				Requests map[string]string `yaml:"requests"`
			} `yaml:"resources"`
		} `yaml:"spec"`
	}
	kustomization struct {
		APIVersion   string   `yaml:"apiVersion"`
		Kind         string   `yaml:"kind"`
		Resources    []string `yaml:"resources"`
		Replacements []struct {
			Source struct {
				Kind      string `yaml:"kind"`
				Name      string `yaml:"name"`
				FieldPath string `yaml:"fieldPath"`
			} `yaml:"source"`
			Targets []struct {
				Select struct {
					Kind string `yaml:"kind"`
					Name string `yaml:"name"`
				} `yaml:"select"`
				FieldPaths []string `yaml:"fieldPaths"`
			} `yaml:"targets"`
		} `yaml:"replacements"`
	}
)

// decodeStrict decodes YAML into v, refusing fields v does not have.
func decodeStrict(b []byte, v any) error {
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	return dec.Decode(v)
}

// deployFile reads a file of deploy/.
func deployFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "deploy", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// fieldNode finds a kustomize field path (a.b.[name=x].c) in a document.
func fieldNode(doc *yaml.Node, path string) (*yaml.Node, error) {
	n := doc
	if n.Kind == yaml.DocumentNode {
		n = n.Content[0]
	}
	for _, seg := range strings.Split(path, ".") {
		var next *yaml.Node
		if k, v, ok := strings.Cut(strings.Trim(seg, "[]"), "="); ok && strings.HasPrefix(seg, "[") && n.Kind == yaml.SequenceNode {
			for _, item := range n.Content {
				if f, err := fieldNode(item, k); err == nil && f.Value == v {
					next = item
				}
			}
		} else if n.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(n.Content); i += 2 {
				if n.Content[i].Value == seg {
					next = n.Content[i+1]
				}
			}
		}
		if next == nil {
			return nil, fmt.Errorf("%s: no %s", path, seg)
		}
		n = next
	}
	return n, nil
}

// kustomize builds deploy/kustomization.yaml as kubectl apply -k does
// (its resources, its replacements: the source's value into each target,
// keeping the target's type) and returns the objects by kind/name, with
// the source and target values of each replacement before it.
func kustomize(t *testing.T) (map[string][]byte, map[string]string) {
	t.Helper()
	var k kustomization
	if err := decodeStrict(deployFile(t, "kustomization.yaml"), &k); err != nil {
		t.Fatalf("kustomization.yaml: %v", err)
	}
	docs := map[string]*yaml.Node{}
	for _, r := range k.Resources {
		var doc yaml.Node
		if err := yaml.Unmarshal(deployFile(t, r), &doc); err != nil {
			t.Fatalf("%s: %v", r, err)
		}
		kind, err1 := fieldNode(&doc, "kind")
		name, err2 := fieldNode(&doc, "metadata.name")
		if err1 != nil || err2 != nil {
			t.Fatalf("%s: no kind or name", r)
		}
		docs[kind.Value+"/"+name.Value] = &doc
	}
	before := map[string]string{}
	for _, rep := range k.Replacements {
		src, err := fieldNode(docs[rep.Source.Kind+"/"+rep.Source.Name], rep.Source.FieldPath)
		if err != nil {
			t.Fatalf("replacement source: %v", err)
		}
		before[rep.Source.FieldPath] = src.Value
		for _, tg := range rep.Targets {
			for _, fp := range tg.FieldPaths {
				n, err := fieldNode(docs[tg.Select.Kind+"/"+tg.Select.Name], fp)
				if err != nil {
					t.Fatalf("replacement target: %v", err)
				}
				before[fp] = n.Value
				n.Value = src.Value
			}
		}
	}
	out := map[string][]byte{}
	for key, doc := range docs {
		b, err := yaml.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		out[key] = b
	}
	return out, before
}

// dockerVersion is the Dockerfile's image version label; its stages' base
// images must be pinned to versions.
func dockerVersion(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "Dockerfile"))
	if err != nil {
		t.Fatal(err)
	}
	var froms []string
	version := ""
	var logical []string // instructions, their continuation lines joined
	cont := false
	for _, line := range strings.Split(string(b), "\n") {
		trim := strings.TrimSpace(line)
		if trim == "" || strings.HasPrefix(trim, "#") {
			continue
		}
		if cont {
			logical[len(logical)-1] += " " + strings.TrimSuffix(trim, "\\")
		} else {
			logical = append(logical, strings.TrimSuffix(trim, "\\"))
		}
		cont = strings.HasSuffix(trim, "\\")
	}
	for _, line := range logical {
		f := strings.Fields(line)
		switch strings.ToUpper(f[0]) {
		case "FROM":
			froms = append(froms, f[1])
		case "ARG", "RUN", "WORKDIR", "COPY", "ENTRYPOINT", "CMD", "USER", "ENV", "LABEL", "EXPOSE", "VOLUME", "HEALTHCHECK", "SHELL", "STOPSIGNAL":
		default:
			t.Errorf("Dockerfile: %q is no instruction", line)
		}
		if m := regexp.MustCompile(`org\.opencontainers\.image\.version="([^"]+)"`).FindStringSubmatch(line); m != nil {
			version = m[1]
		}
	}
	pinned := regexp.MustCompile(`^[a-z0-9./-]+:[0-9]+\.[0-9]+(\.[0-9]+)?(-[a-z]+)?( AS [a-z]+)?$|@sha256:`)
	if len(froms) < 2 {
		t.Errorf("Dockerfile: %d stages, want a build and a runtime stage", len(froms))
	}
	for _, f := range froms {
		if !pinned.MatchString(f) {
			t.Errorf("Dockerfile: FROM %s is not pinned to a version", f)
		}
	}
	if !strings.Contains(string(b), "coinor-libclp-dev") || !strings.Contains(string(b), "coinor-libclp1") || !strings.Contains(string(b), "slim") {
		t.Error("Dockerfile: want CLP's headers to build and its libraries, on a slim Debian (with /bin/sh), to run")
	}
	if version == "" {
		t.Fatal("Dockerfile: no org.opencontainers.image.version label")
	}
	return version
}

// bytesOf parses a Kubernetes quantity of memory (Mi, Gi, or bytes).
func bytesOf(t *testing.T, q string) int64 {
	t.Helper()
	for suffix, mult := range map[string]int64{"Ki": 1 << 10, "Mi": 1 << 20, "Gi": 1 << 30, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30} {
		if n, ok := strings.CutSuffix(q, suffix); ok {
			if v, err := strconv.ParseInt(n, 10, 64); err == nil && !strings.ContainsAny(n, "KMG") {
				return v * mult
			}
		}
	}
	v, err := strconv.ParseInt(q, 10, 64)
	if err != nil {
		t.Fatalf("memory quantity %q", q)
	}
	return v
}

// kubeExpand expands $(VAR) in an argument as the kubelet does, from env.
func kubeExpand(arg string, env map[string]string) string {
	return regexp.MustCompile(`\$\(([A-Z_][A-Z0-9_]*)\)`).ReplaceAllStringFunc(arg, func(m string) string {
		if v, ok := env[m[2:len(m)-1]]; ok {
			return v
		}
		return m
	})
}

// The deploy/ manifests, built as kubectl apply -k builds them (and the
// trace upload pod and the yarn-controller Deployment beside them), are
// what a cluster needs: the volume claim every pod mounts, images pinned to
// the Dockerfile's version, the shard count set once (completions; the
// replacement gives parallelism and SHARDS the same), requests and limits
// with Go's limit under the container's, and real schedplan commands.
func TestDeployManifests(t *testing.T) {
	version := dockerVersion(t)
	objs, before := kustomize(t)
	var pvc k8sPVC
	if err := decodeStrict(objs["PersistentVolumeClaim/schedplan-data"], &pvc); err != nil || !slices.Equal(pvc.Spec.AccessModes, []string{"ReadWriteMany"}) || pvc.Spec.Resources.Requests["storage"] == "" {
		t.Errorf("the volume claim schedplan-data: %v, %+v", err, pvc.Spec)
	}
	vals := map[string]bool{}
	for _, v := range before {
		vals[v] = true
	}
	if len(vals) != 1 {
		t.Errorf("the shard count's places disagree before the replacement: %v", before)
	}
	var trace k8sPod
	if err := decodeStrict(deployFile(t, "trace-upload.yaml"), &trace); err != nil || trace.Kind != "Pod" {
		t.Fatalf("trace-upload.yaml: %v", err)
	}
	pods := map[string]podSpec{"trace-upload": trace.Spec}
	var ctl k8sDeployment
	if err := decodeStrict(deployFile(t, "yarn-controller.yaml"), &ctl); err != nil || ctl.APIVersion != "apps/v1" || ctl.Kind != "Deployment" {
		t.Fatalf("yarn-controller.yaml: %v", err)
	}
	if ctl.Spec.Replicas == nil || *ctl.Spec.Replicas != 1 || ctl.Spec.Strategy.Type != "Recreate" || ctl.Spec.Template.Metadata.Labels["stage"] != ctl.Spec.Selector.MatchLabels["stage"] {
		t.Errorf("yarn-controller.yaml: want one replica, replaced not rolled (two controllers would move applications twice), selecting its pods")
	}
	for _, name := range []string{"schedplan-sweep", "schedplan-sweep-merge"} {
		var job k8sJob
		if err := decodeStrict(objs["Job/"+name], &job); err != nil || job.APIVersion != "batch/v1" {
			t.Fatalf("Job %s: %v", name, err)
		}
		pods[name] = job.Spec.Template.Spec
		if name != "schedplan-sweep" {
			if job.Spec.ActiveDeadlineSeconds == nil || job.Spec.BackoffLimit == nil {
				t.Errorf("Job %s: no deadline or backoff limit", name)
			}
			continue
		}
		c := job.Spec.Template.Spec.Containers[0]
		n := *job.Spec.Completions
		env := map[string]string{}
		for _, e := range c.Env {
			env[e.Name] = e.Value
		}
		if job.Spec.CompletionMode != "Indexed" || job.Spec.Parallelism == nil || *job.Spec.Parallelism != n || env["SHARDS"] != strconv.Itoa(n) || job.Spec.BackoffLimitPerIndex == nil {
			t.Errorf("Job %s: %s, completions %d, parallelism %v, SHARDS %q", name, job.Spec.CompletionMode, n, job.Spec.Parallelism, env["SHARDS"])
		}
		if slices.ContainsFunc(c.Args, func(a string) bool { return strings.Contains(a, "/"+strconv.Itoa(n)) }) {
			t.Errorf("Job %s: the shard count is written in the args %v, not taken from SHARDS", name, c.Args)
		}
	}
	for name, pod := range pods {
		if len(pod.Containers) != 1 || len(pod.Volumes) != 1 || pod.Volumes[0].PersistentVolumeClaim.ClaimName != "schedplan-data" || pod.SecurityContext.FSGroup == 0 {
			t.Errorf("%s: want one container and the volume schedplan-data, writable by its user", name)
			continue
		}
		if c := pod.Containers[0]; len(c.VolumeMounts) != 1 || c.VolumeMounts[0].MountPath != "/data" {
			t.Errorf("%s: the volume is not at /data", name)
		}
	}
	pods["yarn-controller"] = ctl.Spec.Template.Spec
	for name, pod := range pods {
		c := pod.Containers[0]
		if c.Image != "registry.example.internal/schedplan:"+version {
			t.Errorf("%s: image %s, want the Dockerfile's version %s", name, c.Image, version)
		}
		req, lim := bytesOf(t, c.Resources.Requests["memory"]), bytesOf(t, c.Resources.Limits["memory"])
		if req > lim {
			t.Errorf("%s: memory request %d over its limit %d", name, req, lim)
		}
		for _, e := range c.Env {
			if e.Name == "GOMEMLIMIT" && bytesOf(t, e.Value) > lim-256<<20 {
				t.Errorf("%s: GOMEMLIMIT %s leaves less than 256 MiB of the %s limit", name, e.Value, c.Resources.Limits["memory"])
			}
		}
		if name == "trace-upload" {
			continue
		}
		if c.Command[0] != "schedplan" {
			t.Errorf("%s: command %v, want schedplan itself", name, c.Command)
		}
		env := map[string]string{"JOB_COMPLETION_INDEX": "3"}
		for _, e := range c.Env {
			env[e.Name] = e.Value
		}
		var args []string
		for _, a := range c.Args {
			args = append(args, kubeExpand(a, env))
		}
		checkSchedplanArgs(t, name, "schedplan "+strings.Join(slices.DeleteFunc(args, func(a string) bool { return strings.Contains(a, "*") }), " "))
	}
}

// The Kubernetes sweep flow on a fresh volume, with a shard killed: each
// container's command, taken from the built manifests, runs in a new
// folder standing for the volume (/data), with the built binary and the
// kubelet's $(VAR) expansion. The merge starts first and waits for the
// shards itself; shard 1 is killed (SIGKILL) as soon as its part appears
// and retried; the merged table is byte for byte an unsharded sweep's; a
// re-applied shard and merge succeed without changing a byte.
func TestDeploySweepFlow(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildBinary(t)
	objs, _ := kustomize(t)
	volume := filepath.Join(t.TempDir(), "volume")
	if err := os.Mkdir(volume, 0o755); err != nil { // a fresh, empty volume
		t.Fatal(err)
	}
	// The trace, put on the volume as deploy/trace-upload.yaml says (a small
	// one, so that the manifest's sweep, 700 units, runs in seconds).
	if out, err := exec.Command(bin, "convert", "--quiet", "--trace", "embedded:fb2009-50", "--out", filepath.Join(volume, "trace.parquet")).CombinedOutput(); err != nil {
		t.Fatalf("the trace: %v\n%s", err, out)
	}
	command := func(job string, index int) (*exec.Cmd, int) {
		var j k8sJob
		if err := decodeStrict(objs["Job/"+job], &j); err != nil {
			t.Fatal(err)
		}
		c := j.Spec.Template.Spec.Containers[0]
		env := map[string]string{"JOB_COMPLETION_INDEX": strconv.Itoa(index)}
		for _, e := range c.Env {
			env[e.Name] = e.Value
		}
		var args []string
		for _, a := range c.Args {
			a = kubeExpand(a, env)
			if a == "/data" || strings.HasPrefix(a, "/data/") {
				a = volume + strings.TrimPrefix(a, "/data")
			}
			args = append(args, a)
		}
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), "GOMEMLIMIT="+env["GOMEMLIMIT"])
		n := 1
		if j.Spec.Completions != nil {
			n = *j.Spec.Completions
		}
		return cmd, n
	}
	merge, _ := command("schedplan-sweep-merge", 0)
	var mergeOut bytes.Buffer
	merge.Stdout, merge.Stderr = &mergeOut, &mergeOut
	if err := merge.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- merge.Wait() }()

	_, shards := command("schedplan-sweep", 0)
	const killed = 1
	for i := range shards {
		cmd, _ := command("schedplan-sweep", i)
		if out, err := cmd.CombinedOutput(); i != killed && err != nil {
			t.Fatalf("shard %d: %v\n%s", i, err, out)
		}
		if i != killed {
			continue
		}
		// The pod is killed twice: while it computes (SIGKILL 50 ms in), and
		// after writing its part, before removing its temporary link (what
		// data.WriteFileAtomic leaves when killed between the two: both the
		// part and .part-N.parquet.tmp-*). Each time the retry, as
		// backoffLimitPerIndex makes it, must succeed.
		part := filepath.Join(volume, "sweep", "parts", fmt.Sprintf("part-%d.parquet", i))
		if err := os.Remove(part); err != nil {
			t.Fatal(err)
		}
		cmd, _ = command("schedplan-sweep", i)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(50 * time.Millisecond)
		_ = cmd.Process.Signal(syscall.SIGKILL)
		t.Logf("shard %d killed while computing: %v", i, cmd.Wait())
		again, _ := command("schedplan-sweep", i)
		if out, err := again.CombinedOutput(); err != nil {
			t.Fatalf("shard %d retried after its kill: %v\n%s", i, err, out)
		}
		b, err := os.ReadFile(part)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(filepath.Dir(part), "."+filepath.Base(part)+".tmp-4242"), b, 0o600); err != nil {
			t.Fatal(err)
		}
		retry, _ := command("schedplan-sweep", i)
		if out, err := retry.CombinedOutput(); err != nil {
			t.Fatalf("shard %d retried after its kill: %v\n%s", i, err, out)
		}
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("the merge: %v\n%s", err, mergeOut.String())
		}
	case <-time.After(2 * time.Minute):
		_ = merge.Process.Kill()
		t.Fatalf("the merge did not end\n%s", mergeOut.String())
	}
	merged := filepath.Join(volume, "sweep", "sweep.parquet")
	got, err := os.ReadFile(merged)
	if err != nil {
		t.Fatal(err)
	}
	// The Jobs applied again: a shard and the merge find their outputs
	// with the same bytes.
	for _, job := range []string{"schedplan-sweep", "schedplan-sweep-merge"} {
		cmd, _ := command(job, 0)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s applied again: %v\n%s", job, err, out)
		}
	}
	// One unsharded sweep with the shards' flags.
	cmd, _ := command("schedplan-sweep", 0)
	args := slices.Clone(cmd.Args[1:])
	for k := 0; k < len(args); k++ {
		switch args[k] {
		case "--shard":
			args = slices.Delete(args, k, k+2)
			k--
		case "--out":
			args[k+1] = filepath.Join(t.TempDir(), "whole.parquet")
		}
	}
	if out, err := exec.Command(bin, args...).CombinedOutput(); err != nil {
		t.Fatalf("the unsharded sweep: %v\n%s", err, out)
	}
	whole, err := os.ReadFile(args[slices.Index(args, "--out")+1])
	if err != nil || !bytes.Equal(got, whole) {
		t.Errorf("the merged sweep differs from an unsharded one (%v)", err)
	}
}
