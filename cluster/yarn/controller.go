package yarn

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// YARN has no multi-level feedback queue: an application stays in the queue
// it was submitted to. schedplan's capacity-scheduler.xml expresses LAS_MQ as
// sibling leaves (one per level) and writes each level's demotion threshold
// as a DemoteAfterKey property, which YARN ignores. The Controller is the
// piece that makes those properties act: it polls the ResourceManager's REST
// API for running applications and moves each one whose attained service
// has reached its level's threshold to the next level (the RM's Cluster
// Application Queue API, PUT /ws/v1/cluster/apps/{appid}/queue).

// DemoteAfterKey is the property that holds an LAS_MQ level leaf's demotion
// threshold, in held container-seconds of attained service: containers ×
// seconds held, what the ResourceManager reports as memorySeconds / the
// container's MB (whatever the machine's speed).
func DemoteAfterKey(path string) string {
	return "schedplan.las-mq." + path + ".demote-after-held-container-seconds"
}

// ContainerMBKey is the property in which schedplan records the memory of
// one container, MB, that an emitted file's held container-seconds assume
// (emit's --container-mb); FileContainerMB reads it.
const ContainerMBKey = "schedplan.container-mb"

// FileContainerMB returns the file's ContainerMBKey (ok false when the
// file has none: a file from before schedplan recorded it).
func (cs *CapacityScheduler) FileContainerMB() (mb float64, ok bool, err error) {
	v, ok := cs.Values[ContainerMBKey]
	if !ok {
		return 0, false, nil
	}
	mb, err = strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || !(mb > 0) || math.IsInf(mb, 0) {
		return 0, true, fmt.Errorf("%s = %q: need a positive number of MB", ContainerMBKey, v)
	}
	return mb, true, nil
}

// oldDemoteAfterKey is the property schedplan wrote before the thresholds
// were converted to held time: its value is reference-container-seconds of
// work, which the controller cannot convert (it does not know the machines'
// speeds), so a file that has it is refused.
func oldDemoteAfterKey(path string) string {
	return "schedplan.las-mq." + path + ".demote-after-container-seconds"
}

// Demotion is one level's rule: an application in From whose attained
// service reaches After held container-seconds moves to To, the next
// sibling leaf.
type Demotion struct {
	From, To *CSQueue
	After    float64
}

// Demotions returns the file's demotion rules, in queue order. A threshold
// that is not a positive finite number, or one on a queue that is not a leaf
// followed by a sibling leaf, is an error: the controller would otherwise
// silently leave applications in place.
func (cs *CapacityScheduler) Demotions() ([]Demotion, error) {
	var out []Demotion
	for _, q := range cs.Queues {
		if _, old := cs.Values[oldDemoteAfterKey(q.Path)]; old {
			return nil, fmt.Errorf("%s: an older schedplan's threshold in reference-container-seconds of work, not the held container-seconds (memorySeconds / container MB) the controller counts; emit the file again (schedplan emit, or run) to get %s", oldDemoteAfterKey(q.Path), DemoteAfterKey(q.Path))
		}
		v, ok := cs.Values[DemoteAfterKey(q.Path)]
		if !ok {
			continue
		}
		after, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || !(after > 0) || math.IsInf(after, 0) {
			return nil, fmt.Errorf("%s = %q: need a positive number of held container-seconds", DemoteAfterKey(q.Path), v)
		}
		if !q.IsLeaf() || q.Parent == nil {
			return nil, fmt.Errorf("%s: %s is not a leaf queue", DemoteAfterKey(q.Path), q.Path)
		}
		sib := q.Parent.Children
		i := slices.Index(sib, q)
		if i+1 >= len(sib) || !sib[i+1].IsLeaf() {
			return nil, fmt.Errorf("%s: %s has no next sibling leaf to demote to", DemoteAfterKey(q.Path), q.Path)
		}
		out = append(out, Demotion{From: q, To: sib[i+1], After: after})
	}
	return out, nil
}

// Move is one demotion the controller made (or, dry, would make).
type Move struct {
	App  string `json:"app"`
	User string `json:"user"`
	From string `json:"from"`
	To   string `json:"to"`
	// Attained is the application's service when it moved, in held
	// container-seconds (memorySeconds / ContainerMB).
	Attained float64 `json:"attained_held_container_seconds"`
	// Err is why the ResourceManager refused the move ("" when it moved),
	// Status its HTTP status (0 when the request got no answer).
	Err    string `json:"error,omitempty"`
	Status int    `json:"status,omitempty"`
	// DryRun: the move was not made (ControllerOptions.DryRun).
	DryRun bool `json:"dry_run,omitempty"`
}

func (m Move) String() string {
	return fmt.Sprintf("%s (%s, %.4g held container-s) %s → %s", m.App, m.User, m.Attained, m.From, m.To)
}

// Skip is a record of the ResourceManager's application list that a poll
// left alone, and why: a malformed record costs that record, not the poll.
type Skip struct {
	App    string `json:"app"`
	Queue  string `json:"queue,omitempty"`
	Reason string `json:"reason"`
}

// Poll is what one Step did.
type Poll struct {
	// Moves are the moves made (or refused, Move.Err; or, dry, planned).
	Moves []Move
	// Skipped are the records left alone: not RUNNING, listed again, a
	// malformed id or usage, a short queue name two leaves share.
	Skipped []Skip
	// Deferred counts the applications due to move whose earlier move was
	// refused and whose retry is backed off (ControllerOptions: a refused
	// move waits 1, 3, 7, … polls, at most MaxRetryPolls).
	Deferred int
}

// Refused returns how many of the poll's moves the ResourceManager refused.
func (p Poll) Refused() int {
	n := 0
	for _, m := range p.Moves {
		if m.Err != "" {
			n++
		}
	}
	return n
}

// Errors NewController and Run wrap, so that a command line can name the
// flag concerned.
var (
	// ErrContainerMB: ControllerOptions.ContainerMB contradicts the file's
	// ContainerMBKey.
	ErrContainerMB = errors.New("container memory")
	// ErrAMMB: ControllerOptions.AMMB is not a number from 0 to MaxAMMB.
	ErrAMMB = errors.New("am memory")
	// ErrRMAddress: ControllerOptions.RM is not a ResourceManager's web
	// address.
	ErrRMAddress = errors.New("resource manager address")
	// ErrInterval: Run's poll interval is below MinInterval.
	ErrInterval = errors.New("poll interval")
)

// MinInterval is the shortest poll interval Run accepts: every poll lists
// the cluster's running applications, which costs the ResourceManager as
// much as a user opening its web UI.
const MinInterval = time.Second

// MaxAMMB bounds ControllerOptions.AMMB: 16 TiB, the largest container
// schedplan accepts (pipeline.MaxContainerMB). Beyond it the AM's share
// would cancel every application's service, and nothing would demote.
const MaxAMMB = 1 << 24

// CheckInterval is the one check of a poll interval (Run's, and a command
// line's before it reads anything): at least MinInterval. The error wraps
// ErrInterval.
func CheckInterval(d time.Duration) error {
	if d < MinInterval {
		return fmt.Errorf("%w %v: need at least %v (every poll lists the cluster's running applications)", ErrInterval, d, MinInterval)
	}
	return nil
}

// CheckAMMB is the one check of an ApplicationMaster's memory in MB
// (ControllerOptions.AMMB, and a command line's): 0 to MaxAMMB. The error
// wraps ErrAMMB.
func CheckAMMB(mb float64) error {
	if !(mb >= 0 && mb <= MaxAMMB) {
		return fmt.Errorf("%w: ApplicationMaster memory %v MB: need 0 to %d MB", ErrAMMB, mb, MaxAMMB)
	}
	return nil
}

// MaxRetryPolls bounds the polls a refused move waits before its retry
// (the wait doubles with each refusal of the same application: 1, 3, 7, …).
const MaxRetryPolls = 63

// MaxBackoff bounds Run's wait after polls that failed or whose every move
// was refused (the wait doubles from the interval with each such poll).
const MaxBackoff = 10 * time.Minute

// ControllerOptions configure a Controller.
type ControllerOptions struct {
	// RM is the ResourceManager's web address, e.g. http://rm:8088.
	RM string
	// ContainerMB is the memory of one container: attained service is
	// memorySeconds / ContainerMB, in held container-seconds (YARN's
	// default resource calculator counts memory only; a container held a
	// second counts 1 whatever its machine's speed). 0: the file's
	// ContainerMBKey, else 1024, as `schedplan emit`; a value that
	// contradicts the file's is refused (ErrContainerMB).
	ContainerMB float64
	// AMMB, when > 0, is the ApplicationMaster's container memory, MB:
	// attained service then leaves out what the AM held (RMApp.Attained),
	// so that it counts the task containers only, as the thresholds were
	// tuned and simulated (no AMs). 0 counts every container, as YARN's
	// memorySeconds does. At most MaxAMMB.
	AMMB float64
	// User, when set, is sent as user.name (Hadoop's pseudo
	// authentication); moves need an authenticated user with the right
	// to administer the application. An RM that answers 401 wants one
	// (ErrUnauthenticated).
	User string
	// DryRun reports the moves without making them.
	DryRun bool
	Client *http.Client
}

// Controller applies a capacity-scheduler.xml's LAS_MQ demotions on a
// running cluster.
type Controller struct {
	opt   ControllerOptions
	base  *url.URL
	rules map[string]Demotion // by the From leaf's full path
	// names maps every queue's short name to the paths that have it: a
	// Hadoop 2.x RM reports an application's queue by its short name,
	// which names a rule only when one queue of the file has it.
	names map[string][]string
	// retry holds, for each application whose move was refused, how many
	// refusals in a row and how many polls to wait before the next try.
	retry map[string]*retry
}

type retry struct{ refusals, wait int }

// NewController returns a controller for the demotion rules of cs. It fails
// when cs has none.
func NewController(cs *CapacityScheduler, opt ControllerOptions) (*Controller, error) {
	ds, err := cs.Demotions()
	if err != nil {
		return nil, err
	}
	if len(ds) == 0 {
		return nil, errors.New("the capacity-scheduler.xml has no schedplan.las-mq.*.demote-after-held-container-seconds property: nothing to control")
	}
	base, err := url.Parse(opt.RM)
	if err != nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" {
		return nil, fmt.Errorf("%w %q: need http://host:port or https://host:port", ErrRMAddress, opt.RM)
	}
	// The file's container size wins over the default; a different one
	// asked for would scale every threshold silently, so it is refused.
	fileMB, inFile, err := cs.FileContainerMB()
	switch {
	case err != nil:
		return nil, err
	case inFile && opt.ContainerMB != 0 && opt.ContainerMB != fileMB:
		return nil, fmt.Errorf("%w: %v MB asked, but the file's thresholds are in held container-seconds of %v MB containers (%s); emit the file again with --container-mb %v to change it", ErrContainerMB, opt.ContainerMB, fileMB, ContainerMBKey, opt.ContainerMB)
	case inFile:
		opt.ContainerMB = fileMB
	case opt.ContainerMB == 0:
		opt.ContainerMB = 1024
	}
	if !(opt.ContainerMB > 0) || math.IsInf(opt.ContainerMB, 0) {
		return nil, fmt.Errorf("container memory %v MB: need a positive number", opt.ContainerMB)
	}
	if err := CheckAMMB(opt.AMMB); err != nil {
		return nil, err
	}
	if opt.Client == nil {
		opt.Client = &http.Client{Timeout: 30 * time.Second}
	}
	c := &Controller{opt: opt, base: base, rules: map[string]Demotion{}, names: map[string][]string{}, retry: map[string]*retry{}}
	for _, d := range ds {
		c.rules[d.From.Path] = d
	}
	for _, q := range cs.Queues {
		c.names[q.Name] = append(c.names[q.Name], q.Path)
	}
	return c, nil
}

// rule returns the demotion rule of the queue an application is in, as
// the RM reports it: a full path (Hadoop 3) or a short name (2.x). A short
// name that several queues of the file share names none (why says so).
func (c *Controller) rule(queue string) (d Demotion, ok bool, why string) {
	if d, ok := c.rules[queue]; ok {
		return d, true, ""
	}
	paths := c.names[queue]
	switch {
	case strings.Contains(queue, "."), len(paths) == 0:
		return Demotion{}, false, ""
	case len(paths) > 1:
		for _, p := range paths {
			if _, ok := c.rules[p]; ok {
				return Demotion{}, false, fmt.Sprintf("queue %q is the short name of %s: which one is ambiguous (Hadoop 3 reports full paths; Hadoop 2 needs distinct leaf names)", queue, strings.Join(paths, ", "))
			}
		}
		return Demotion{}, false, ""
	}
	d, ok = c.rules[paths[0]]
	return d, ok, ""
}

// Step polls the running applications once and demotes every one whose
// attained service has passed its level's threshold, to the deepest level
// it has passed (several at once when the poll interval was long). A
// refused move is reported in its Move, not as an error, and retried after
// a backoff (Poll.Deferred); the error is for a poll that failed, or
// wraps ErrUnauthenticated when the RM refused the caller as
// unauthenticated (no move will ever succeed as it is).
func (c *Controller) Step(ctx context.Context) (Poll, error) {
	apps, skipped, err := c.apps(ctx)
	if err != nil {
		return Poll{}, err
	}
	p := Poll{Skipped: skipped}
	due := map[string]bool{}
	for _, a := range apps {
		d, ok, why := c.rule(a.Queue)
		if why != "" {
			p.Skipped = append(p.Skipped, Skip{App: a.ID, Queue: a.Queue, Reason: why})
		}
		attained := a.Attained(c.opt.ContainerMB, c.opt.AMMB)
		if !ok || attained < d.After {
			continue
		}
		due[a.ID] = true
		if r := c.retry[a.ID]; r != nil && r.wait > 0 {
			r.wait--
			p.Deferred++
			continue
		}
		to := d.To
		for next, ok := c.rules[to.Path]; ok && attained >= next.After; next, ok = c.rules[to.Path] {
			to = next.To
		}
		m := Move{App: a.ID, User: a.User, From: d.From.Path, To: to.Path, Attained: attained, DryRun: c.opt.DryRun}
		if !c.opt.DryRun {
			// The target in the form the RM reported the application's
			// queue: Hadoop 3's CapacityScheduler.moveApplication finds a
			// queue by full path or unambiguous short name
			// (CSQueueStore.get); 2.x by short name only.
			target := to.Name
			if strings.Contains(a.Queue, ".") {
				target = to.Path
			}
			if err := c.move(ctx, a.ID, target); err != nil {
				if ctx.Err() != nil {
					return p, ctx.Err()
				}
				m.Err = err.Error()
				var re *RMError
				if errors.As(err, &re) {
					m.Status = re.Status
				}
				c.refused(a.ID)
				p.Moves = append(p.Moves, m)
				if errors.Is(err, ErrUnauthenticated) {
					return p, err
				}
				continue
			}
		}
		delete(c.retry, a.ID)
		p.Moves = append(p.Moves, m)
	}
	for id := range c.retry {
		if !due[id] { // moved by someone else, or ended
			delete(c.retry, id)
		}
	}
	return p, nil
}

// refused backs off the next try of app's move: after the k-th refusal in
// a row it waits 2^k − 1 polls, at most MaxRetryPolls.
func (c *Controller) refused(app string) {
	r := c.retry[app]
	if r == nil {
		r = &retry{}
		c.retry[app] = r
	}
	r.refusals++
	r.wait = min(1<<min(r.refusals, 16)-1, MaxRetryPolls)
}

// Run calls Step every interval (at least MinInterval) until ctx ends,
// passing each poll (or error) to report. After a poll that failed, or
// whose every move was refused, the wait doubles, up to MaxBackoff. Run
// returns the error of a poll the RM refused as unauthenticated
// (ErrUnauthenticated): no later poll would do better.
func (c *Controller) Run(ctx context.Context, interval time.Duration, report func(Poll, error)) error {
	if err := CheckInterval(interval); err != nil {
		return err
	}
	bad := 0 // polls in a row that failed or had every move refused
	for {
		p, err := c.Step(ctx)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		report(p, err)
		if errors.Is(err, ErrUnauthenticated) {
			return err
		}
		if err != nil || (len(p.Moves) > 0 && p.Refused() == len(p.Moves)) {
			bad++
		} else {
			bad = 0
		}
		t := time.NewTimer(Backoff(interval, bad))
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
	}
}

// Backoff is Run's wait after bad polls in a row that failed or had every
// move refused: interval × 2^bad, at most MaxBackoff (and never less than
// interval).
func Backoff(interval time.Duration, bad int) time.Duration {
	d := interval
	for range bad {
		if d >= MaxBackoff/2 {
			return max(MaxBackoff, interval)
		}
		d *= 2
	}
	return d
}
