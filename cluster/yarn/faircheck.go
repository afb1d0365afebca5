package yarn

import (
	"encoding/xml"
	"errors"
	"math"
	"sort"
	"strconv"
	"strings"
)

// FSCheckOptions describe how an allocation file is used; the zero value
// checks the file alone.
type FSCheckOptions struct {
	// NoTerminalRuleCheck is yarn.scheduler.fair.no-terminal-rule.check:
	// unreachable placement rules are then a warning, not an error.
	NoTerminalRuleCheck bool
	// Users are users who submit applications without naming a queue: each
	// must be placed (not rejected), and a user with a queue of their own
	// in the file must land in it.
	Users []string
}

// RuleMaxAppsZero is the rule of the warning on an explicit maxRunningApps
// 0 (a queue's, Where its path; a user's, Where "user NAME").
const RuleMaxAppsZero = "fs-max-apps-zero"

// Check applies Hadoop's rules to the allocation file (see the package
// documentation and Problem).
func (fs *FairScheduler) Check(opt FSCheckOptions) Problems {
	c := &collector{}
	for _, p := range fs.problems {
		if p.Rule == "fs-placement-unreachable" && opt.NoTerminalRuleCheck {
			p.Severity = Warning
		}
		c.list = append(c.list, p)
	}
	for _, q := range fs.Queues {
		pol := q.SchedulingPolicy
		if pol == "" && q != fs.Root {
			pol = fs.DefaultQueueSchedulingPolicy
		}
		if pol == "fifo" && !q.IsLeaf() {
			c.add(Error, "fs-fifo-parent", q.Path, "QueueManager.createNewQueues",
				"Can't create queue '%s', since fifo is only for leaf queues.", q.Path)
		}
		if q.MinResources != nil && q.MaxResources != nil && !q.MinResources.Percent && !q.MaxResources.Percent &&
			(q.MinResources.MemoryMB > q.MaxResources.MemoryMB || q.MinResources.VCores > q.MaxResources.VCores) {
			c.add(Warning, "fs-min-above-max", q.Path, "AllocationFileQueueParser.checkMinAndMaxResource",
				"Queue %s has max resources %s less than min resources %s", q.Path, q.MaxResources, q.MinResources)
		}
		if q.MaxRunningApps == 0 {
			what := "in this queue"
			if !q.IsLeaf() {
				what = "in this queue or any queue under it"
			}
			c.add(Warning, RuleMaxAppsZero, q.Path, "MaxRunningAppsEnforcer.canAppBeRunnable",
				"maxRunningApps 0: no application %s ever runs (they stay pending)", what)
		}
	}
	for _, u := range sortedKeys(fs.UserMaxApps) {
		if fs.UserMaxApps[u] == 0 {
			c.add(Warning, RuleMaxAppsZero, "user "+u, "MaxRunningAppsEnforcer.canAppBeRunnable",
				"maxRunningApps 0: no application of user %q ever runs (they stay pending)", u)
		}
	}
	for _, u := range opt.Users {
		fs.checkUser(c, u)
	}
	return c.list
}

// checkUser places an application of user u that names no queue.
func (fs *FairScheduler) checkUser(c *collector, u string) {
	got, err := fs.Place(u, nil, "")
	if err != nil {
		c.add(Error, "fs-user-placement", "user "+u, "QueuePlacementPolicy", "applications of user %q that name no queue are refused: %v", u, err)
		return
	}
	own := "root." + CleanName(u)
	if got == own {
		return
	}
	// A queue that looks meant for the user but is not the one the user
	// rule looks for (e.g. alice_smith for alice.smith).
	name := TrimQueueName(u)
	for _, cand := range []string{strings.ReplaceAll(name, ".", "_"), strings.ReplaceAll(name, ".", "-"), strings.ReplaceAll(name, ".", ""), name} {
		if q := fs.byPath["root."+cand]; q != nil && q.Path != got {
			c.add(Warning, "fs-user-queue", "user "+u, "UserPlacementRule.getPlacementForApp, FairQueuePlacementUtils.cleanName",
				"applications of user %q go to %s, not to %s: the user rule looks for %s (a '.' in a user name becomes \"_dot_\")", u, got, q.Path, own)
			return
		}
	}
}

// Allocation-file writer types.
type xmlFSQueue struct {
	Name                string       `xml:"name,attr"`
	Type                string       `xml:"type,attr,omitempty"`
	Weight              string       `xml:"weight,omitempty"`
	MinResources        string       `xml:"minResources,omitempty"`
	MaxResources        string       `xml:"maxResources,omitempty"`
	MaxChildResources   string       `xml:"maxChildResources,omitempty"`
	MaxRunningApps      string       `xml:"maxRunningApps,omitempty"`
	MaxAMShare          string       `xml:"maxAMShare,omitempty"`
	SchedulingPolicy    string       `xml:"schedulingPolicy,omitempty"`
	AllowPreemptionFrom string       `xml:"allowPreemptionFrom,omitempty"`
	Reservation         *struct{}    `xml:"reservation"`
	Queues              []xmlFSQueue `xml:"queue"`
}

type xmlRule struct {
	Name   string   `xml:"name,attr"`
	Create string   `xml:"create,attr,omitempty"`
	Queue  string   `xml:"queue,attr,omitempty"`
	Parent *xmlRule `xml:"rule"`
}

type xmlUser struct {
	Name           string `xml:"name,attr"`
	MaxRunningApps int64  `xml:"maxRunningApps"`
}

// Marshal renders the allocation file (with a comment before
// <allocations> when comment is not empty). Settings at their defaults are
// left out; the placement policy is written when PlacementConfigured.
func (fs *FairScheduler) Marshal(comment string) ([]byte, error) {
	if fs.Root == nil {
		return nil, errors.New("allocation file without a root queue")
	}
	out := struct {
		XMLName                      xml.Name   `xml:"allocations"`
		Users                        []xmlUser  `xml:"user"`
		QueueMaxAppsDefault          string     `xml:"queueMaxAppsDefault,omitempty"`
		UserMaxAppsDefault           string     `xml:"userMaxAppsDefault,omitempty"`
		QueueMaxAMShareDefault       string     `xml:"queueMaxAMShareDefault,omitempty"`
		QueueMaxResourcesDefault     string     `xml:"queueMaxResourcesDefault,omitempty"`
		Root                         xmlFSQueue `xml:"queue"`
		DefaultQueueSchedulingPolicy string     `xml:"defaultQueueSchedulingPolicy,omitempty"`
		Placement                    *struct {
			Rules []xmlRule `xml:"rule"`
		} `xml:"queuePlacementPolicy"`
	}{Root: fs.Root.xml()}
	for _, u := range sortedKeys(fs.UserMaxApps) {
		out.Users = append(out.Users, xmlUser{Name: u, MaxRunningApps: fs.UserMaxApps[u]})
	}
	// 0 is written: Hadoop reads it as no application running
	// (MaxRunningAppsEnforcer.canAppBeRunnable), not as no limit.
	if fs.QueueMaxAppsDefault != math.MaxInt32 {
		out.QueueMaxAppsDefault = strconv.FormatInt(fs.QueueMaxAppsDefault, 10)
	}
	if fs.UserMaxAppsDefault != math.MaxInt32 {
		out.UserMaxAppsDefault = strconv.FormatInt(fs.UserMaxAppsDefault, 10)
	}
	if fs.QueueMaxAMShareDefault != 0.5 && fs.QueueMaxAMShareDefault != 0 {
		out.QueueMaxAMShareDefault = fmtFloat32(fs.QueueMaxAMShareDefault)
	}
	if r := fs.QueueMaxResourcesDefault; r != nil {
		out.QueueMaxResourcesDefault = r.String()
	}
	if p := fs.DefaultQueueSchedulingPolicy; p != "" {
		out.DefaultQueueSchedulingPolicy = p
	}
	if fs.PlacementConfigured {
		out.Placement = &struct {
			Rules []xmlRule `xml:"rule"`
		}{}
		for i := range fs.Placement {
			out.Placement.Rules = append(out.Placement.Rules, fs.Placement[i].xml())
		}
	}
	return marshalXML(out, comment)
}

func (r *PlacementRule) xml() xmlRule {
	x := xmlRule{Name: r.Name}
	if !r.Create {
		x.Create = "false"
	}
	if r.Name == "default" && r.Queue != "root.default" {
		x.Queue = r.Queue
	}
	if r.Parent != nil {
		p := r.Parent.xml()
		x.Parent = &p
	}
	return x
}

func (q *FSQueue) xml() xmlFSQueue {
	x := xmlFSQueue{Name: q.Name, SchedulingPolicy: q.SchedulingPolicy}
	if q.ParentType && len(q.Children) == 0 {
		x.Type = "parent"
	}
	if q.Parent != nil {
		x.Weight = fmtFloat32(q.Weight)
	}
	for _, r := range []struct {
		src *Resource
		dst *string
	}{{q.MinResources, &x.MinResources}, {q.MaxResources, &x.MaxResources}, {q.MaxChildResources, &x.MaxChildResources}} {
		if r.src != nil {
			*r.dst = r.src.String()
		}
	}
	if q.MaxRunningApps >= 0 {
		x.MaxRunningApps = strconv.FormatInt(q.MaxRunningApps, 10)
	}
	if q.MaxAMShare >= 0 {
		x.MaxAMShare = fmtFloat32(q.MaxAMShare)
	}
	if !q.AllowPreemptionFrom {
		x.AllowPreemptionFrom = "false"
	}
	if q.Reservation {
		x.Reservation = &struct{}{}
	}
	for _, c := range q.Children {
		x.Queues = append(x.Queues, c.xml())
	}
	return x
}

func fmtFloat32(v float64) string { return strconv.FormatFloat(v, 'g', -1, 32) }

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
