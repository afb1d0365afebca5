package inputs

import (
	"fmt"
	"strings"

	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/cluster/yarn"
	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/pipeline/bundle"
	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/tasklevel"
)

// This file checks, before the first stage, the user names the emitted
// files and the current scheduler file need: what the emit and validate
// stages would otherwise find only after classifying and tuning.

// CheckUserNames checks that every user of the log and of the cluster spec
// has a Fair Scheduler queue of its own in the fair-scheduler.xml schedplan
// emits (yarn.UserQueueName: not empty or whitespace once trimmed, no
// control character) and that no two of them share one (a.b and a_dot_b
// both become root.a_dot_b). Errors name the log and a job of the user,
// or the spec (clusterPath, --cluster) and its entry, and the names.
func CheckUserNames(jobs *data.Jobs, spec *cluster.Spec, clusterPath string) error {
	names, idx := jobs.Users()
	if n := len(names) + len(spec.Users); n >= yarn.MaxQueues {
		return fmt.Errorf("%s: column \"user\": %d users (with the cluster spec's): the fair-scheduler.xml schedplan emits has a queue per user, and at most %d queues", data.Printable(jobs.Source), n, yarn.MaxQueues)
	}
	first := make([]int, len(names))
	for i := range first {
		first[i] = -1
	}
	for i, u := range idx {
		if first[u] < 0 {
			first[u] = i
		}
	}
	q := userQueues{}
	for k, n := range names {
		where := "a job with no user"
		if i := first[k]; i >= 0 && i < jobs.ID.Len() {
			where = "job " + data.Printable(jobs.ID.At(i))
		}
		if err := q.add(n, where); err != nil {
			return fmt.Errorf("%s: column \"user\": %w", data.Printable(jobs.Source), err)
		}
	}
	inLog := make(map[string]bool, len(names))
	for _, n := range names {
		inLog[n] = true
	}
	for i, u := range spec.Users {
		if inLog[u.Name] {
			continue
		}
		if err := q.add(u.Name, fmt.Sprintf("--cluster users[%d]", i)); err != nil {
			return experiment.ParamErr("cluster", clusterPath, "%v", err)
		}
	}
	return nil
}

// userNamesProblem is CheckUserNames' verdict on a log's user names alone
// ("" when they pass), for describe.
func userNamesProblem(names []string) string {
	q := userQueues{}
	for _, n := range names {
		if err := q.add(n, ""); err != nil {
			return err.Error() + "; run refuses this log"
		}
	}
	return ""
}

// userQueues holds the Fair Scheduler queue of each user added, and who
// gave it (a job, a spec entry).
type userQueues map[string][2]string

// add checks user name's queue (yarn.UserQueueName) and that no user added
// before has it; where says where the name comes from ("" for nowhere in
// particular).
func (q userQueues) add(name, where string) error {
	at := func(w string) string {
		if w == "" {
			return ""
		}
		return " (" + w + ")"
	}
	queue, err := yarn.UserQueueName(name)
	if err != nil {
		return fmt.Errorf("%w%s: fair-scheduler.xml cannot name its queue", err, at(where))
	}
	if o, dup := q[queue]; dup {
		return fmt.Errorf("users %q%s and %q%s both get the Fair Scheduler queue root.%s (YARN's user rule trims whitespace and turns '.' into \"_dot_\"); rename one of them", o[0], at(o[1]), name, at(where), queue)
	}
	q[queue] = [2]string{name, where}
	return nil
}

// CheckCurrentConfig checks the user's own scheduler file (--current-config
// path) for the jobs before anything is simulated: as a YARN file
// (CurrentConfigSpec), then as checkCurrentConfig does with containers of
// containerMB (0: 1024). It returns the file's bytes.
func CheckCurrentConfig(path string, jobs *data.Jobs, containerMB int) ([]byte, error) {
	b, spec, err := ReadCurrentConfig(path)
	if err != nil {
		return nil, err
	}
	return b, CheckCurrentConfigBytes(path, spec, b, jobs, containerMB)
}

// CheckCurrentConfigBytes checks the user's own scheduler file (--current-config
// path, already checked by CurrentConfigSpec, which gave spec; b is the
// file) as the validate stage will load it, before the first stage: a
// fair-scheduler.xml's queue tree as the task level converts it with
// containers of containerMB (0: 1024; a <weight>NaN</weight> is refused), and the
// placement of an application of every user of the log that names no
// queue, as YARN would place it. A user the file refuses (no default
// queue, no rule that matches) is an error of --current-config now, not of
// the policy the validate stage builds from it later.
func CheckCurrentConfigBytes(path, spec string, b []byte, jobs *data.Jobs, containerMB int) error {
	if containerMB <= 0 {
		containerMB = 1024
	}
	var place func(user, queue string) error
	if strings.HasPrefix(spec, "fair:") {
		fs, err := yarn.ParseFairScheduler(b)
		if err != nil {
			return experiment.ParamErr("current-config", path, "%v", err)
		}
		if err := tasklevel.FairQueue(fs, fs.Root, int64(containerMB)).Check(); err != nil {
			return experiment.ParamErr("current-config", path, "%v", err)
		}
		place = func(user, queue string) error {
			_, err := bundle.PlaceLogQueue(queue, func(name string) (string, error) { return fs.Place(user, nil, name) })
			return err
		}
	} else {
		cs, err := yarn.ParseCapacityScheduler(b)
		if err != nil {
			return experiment.ParamErr("current-config", path, "%v", err)
		}
		place = func(user, queue string) error {
			_, err := bundle.PlaceLogQueue(queue, func(name string) (*yarn.CSQueue, error) { return cs.Place(user, nil, name) })
			return err
		}
	}
	// Every (user, the queue the log says the application named) once, as
	// the task level places the log's applications (TaskLevel.Named).
	named := bundle.LogQueuesOf(jobs, 0, jobs.Len())
	seen := map[[2]string]bool{}
	for i := range jobs.Len() {
		key := [2]string{jobs.UserAt(i), ""}
		if named != nil {
			key[1] = named[i]
		}
		if seen[key] {
			continue
		}
		seen[key] = true
		if err := place(key[0], key[1]); err != nil {
			return experiment.ParamErr("current-config", path, "row %d of %s (user %q, queue %q): %v; the current scheduler's file must place every application of the log (give the file the cluster ran when it was written)",
				i+1, data.Printable(jobs.Source), key[0], key[1], err)
		}
	}
	return nil
}
