package yarn

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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

// RMApp is the part of the ResourceManager's application object the
// controller reads (Cluster Applications API).
type RMApp struct {
	ID    string `json:"id"`
	User  string `json:"user"`
	Queue string `json:"queue"`
	State string `json:"state"`
	// MemorySeconds (MB × s of containers so far) and VcoreSeconds are
	// longs in the RM's JSON; float64 decodes any number, so one written
	// as 1.0e6 or beyond int64 does not fail the whole poll.
	MemorySeconds float64 `json:"memorySeconds"`
	VcoreSeconds  float64 `json:"vcoreSeconds"`
	// StartedTime, LaunchTime (Hadoop 3: when the ApplicationMaster was
	// launched; 0 when not reported) are ms since the epoch, ElapsedTime
	// ms since StartedTime (AMSeconds).
	StartedTime float64 `json:"startedTime"`
	LaunchTime  float64 `json:"launchTime"`
	ElapsedTime float64 `json:"elapsedTime"`
}

// AMSeconds is how long the application's ApplicationMaster has held its
// container, s: from LaunchTime when the RM reports it, else (Hadoop 2,
// which does not) from StartedTime — an upper bound that also counts the
// time the application waited for its AM. Never negative.
func (a RMApp) AMSeconds() float64 {
	ms := a.ElapsedTime
	if a.LaunchTime > 0 && a.StartedTime > 0 && a.LaunchTime >= a.StartedTime {
		ms -= a.LaunchTime - a.StartedTime
	}
	return max(ms, 0) / 1000
}

// Attained is the application's attained service in held
// container-seconds: its memorySeconds, less what its ApplicationMaster
// held when amMB > 0 (the task containers only, as schedplan's task-level
// simulation counts them), over containerMB. Never negative.
func (a RMApp) Attained(containerMB, amMB float64) float64 {
	ms := a.MemorySeconds
	if amMB > 0 {
		ms -= amMB * a.AMSeconds()
	}
	return max(ms, 0) / containerMB
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
	// Err is why the ResourceManager refused the move ("" when it moved).
	Err string `json:"error,omitempty"`
	// DryRun: the move was not made (ControllerOptions.DryRun).
	DryRun bool `json:"dry_run,omitempty"`
}

func (m Move) String() string {
	return fmt.Sprintf("%s (%s, %.4g held container-s) %s → %s", m.App, m.User, m.Attained, m.From, m.To)
}

// ErrContainerMB is the error NewController wraps when
// ControllerOptions.ContainerMB contradicts the file's ContainerMBKey.
var ErrContainerMB = errors.New("container memory")

// ErrAMMB is the error NewController wraps when ControllerOptions.AMMB is
// not a finite number ≥ 0.
var ErrAMMB = errors.New("am memory")

// ErrRMAddress is the error NewController wraps when ControllerOptions.RM
// is not a ResourceManager's web address.
var ErrRMAddress = errors.New("resource manager address")

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
	// memorySeconds does.
	AMMB float64
	// User, when set, is sent as user.name (Hadoop's pseudo
	// authentication); moves need an authenticated user with the right
	// to administer the application.
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
	rules map[string]Demotion // by the From leaf's path and short name
}

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
	if !(opt.AMMB >= 0) || math.IsInf(opt.AMMB, 0) {
		return nil, fmt.Errorf("%w: ApplicationMaster memory %v MB: need a number ≥ 0", ErrAMMB, opt.AMMB)
	}
	if opt.Client == nil {
		opt.Client = &http.Client{Timeout: 30 * time.Second}
	}
	c := &Controller{opt: opt, base: base, rules: map[string]Demotion{}}
	for _, d := range ds {
		c.rules[d.From.Path] = d
		c.rules[d.From.Name] = d // 2.x reports the leaf's short name
	}
	return c, nil
}

// Step polls the running and accepted applications once and demotes every
// one whose attained service has passed its level's threshold, to the
// deepest level it has passed (several at once when the poll interval was
// long). A refused move is reported in its Move, not as an error; the error
// is for a poll that failed.
func (c *Controller) Step(ctx context.Context) ([]Move, error) {
	apps, err := c.apps(ctx)
	if err != nil {
		return nil, err
	}
	var moves []Move
	for _, a := range apps {
		d, ok := c.rules[a.Queue]
		if !ok {
			continue
		}
		attained := a.Attained(c.opt.ContainerMB, c.opt.AMMB)
		if attained < d.After {
			continue
		}
		to := d.To
		for next, ok := c.rules[to.Path]; ok && attained >= next.After; next, ok = c.rules[to.Path] {
			to = next.To
		}
		m := Move{App: a.ID, User: a.User, From: d.From.Path, To: to.Path, Attained: attained, DryRun: c.opt.DryRun}
		if !c.opt.DryRun {
			if err := c.move(ctx, a.ID, to.Name); err != nil {
				if ctx.Err() != nil {
					return moves, ctx.Err()
				}
				m.Err = err.Error()
			}
		}
		moves = append(moves, m)
	}
	return moves, nil
}

// Run calls Step every interval until ctx ends, passing each step's moves
// (or error) to report.
func (c *Controller) Run(ctx context.Context, interval time.Duration, report func([]Move, error)) error {
	if interval <= 0 {
		return fmt.Errorf("poll interval %v: need a positive duration", interval)
	}
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		moves, err := c.Step(ctx)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		report(moves, err)
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-t.C:
		}
	}
}

// maxRMResponse bounds what the controller reads of one RM response.
const maxRMResponse = 256 << 20

func (c *Controller) url(path string, q url.Values) string {
	u := *c.base
	u.Path = strings.TrimSuffix(u.Path, "/") + path
	if c.opt.User != "" {
		q.Set("user.name", c.opt.User)
	}
	u.RawQuery = q.Encode()
	return u.String()
}

func (c *Controller) apps(ctx context.Context) ([]RMApp, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.url("/ws/v1/cluster/apps", url.Values{"states": {"RUNNING,ACCEPTED"}}), nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	body, err := c.do(req)
	if err != nil {
		return nil, fmt.Errorf("listing applications: %w", err)
	}
	var resp struct {
		Apps *struct {
			App []RMApp `json:"app"`
		} `json:"apps"`
	}
	if err := json.Unmarshal(body, &resp); err != nil {
		return nil, fmt.Errorf("listing applications: not the RM's JSON: %w", err)
	}
	if resp.Apps == nil { // the RM writes "apps": null when there are none
		return nil, nil
	}
	return resp.Apps.App, nil
}

func (c *Controller) move(ctx context.Context, app, queue string) error {
	b, _ := json.Marshal(map[string]string{"queue": queue})
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, c.url("/ws/v1/cluster/apps/"+url.PathEscape(app)+"/queue", url.Values{}), bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	_, err = c.do(req)
	return err
}

func (c *Controller) do(req *http.Request) ([]byte, error) {
	resp, err := c.opt.Client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxRMResponse))
	if err != nil {
		return nil, err
	}
	if resp.StatusCode/100 != 2 {
		msg := strings.TrimSpace(string(body))
		if len(msg) > 300 {
			msg = msg[:300] + "…"
		}
		return nil, fmt.Errorf("%s %s: %s: %s", req.Method, req.URL.Path, resp.Status, msg)
	}
	return body, nil
}
