package yarn

import (
	"fmt"
	"math"
	"strings"
)

// FSQueue is a Fair Scheduler queue of an allocation file
// (AllocationFileQueueParser.loadQueue).
type FSQueue struct {
	Name     string // short name, trimmed
	Path     string // e.g. "root.alice_dot_smith"
	Parent   *FSQueue
	Children []*FSQueue
	// ParentType is set by type="parent": a queue without children that is
	// a parent queue (for queues created under it at run time).
	ParentType bool
	// Weight is the queue's weight (default 1).
	Weight float64
	// MinResources, MaxResources and MaxChildResources are nil when unset.
	MinResources, MaxResources, MaxChildResources *Resource
	// MaxRunningApps is −1 when unset (the file's queueMaxAppsDefault
	// applies).
	MaxRunningApps int64
	// MaxAMShare is −1 when unset (queueMaxAMShareDefault applies).
	MaxAMShare float64
	// SchedulingPolicy is "fair", "fifo" or "drf", or "" when unset (the
	// file's defaultQueueSchedulingPolicy applies).
	SchedulingPolicy string
	Reservation      bool
	// AllowPreemptionFrom is false when the file says so (default true).
	AllowPreemptionFrom bool
}

// IsLeaf reports whether the queue is a leaf (no children, not
// type="parent", not reservable).
func (q *FSQueue) IsLeaf() bool { return len(q.Children) == 0 && !q.ParentType && !q.Reservation }

// PlacementRule is a rule of the queue placement policy.
type PlacementRule struct {
	// Name is specified, user, primaryGroup, secondaryGroupExistingQueue,
	// nestedUserQueue, default or reject.
	Name string
	// Create lets the rule create the queue it picks (create attribute,
	// default true).
	Create bool
	// Queue is the default rule's queue (root.default when unset).
	Queue string
	// Parent is the rule nested in this one, which picks the parent queue.
	Parent *PlacementRule
}

// FairScheduler is a parsed Fair Scheduler allocation file.
type FairScheduler struct {
	Root *FSQueue
	// Queues lists every queue, root first, depth first in file order.
	Queues []*FSQueue
	// DefaultQueueSchedulingPolicy is "fair" unless the file says "drf"
	// (it may not say "fifo").
	DefaultQueueSchedulingPolicy string
	QueueMaxAppsDefault          int64 // default math.MaxInt32
	UserMaxAppsDefault           int64 // default math.MaxInt32
	QueueMaxAMShareDefault       float64
	QueueMaxResourcesDefault     *Resource
	UserMaxApps                  map[string]int64
	// Placement is the queue placement policy; when the file has none it is
	// Hadoop's default (QueuePlacementPolicy.fromConfiguration with its
	// defaults: specified, then user, both creating queues).
	Placement           []PlacementRule
	PlacementConfigured bool

	byPath   map[string]*FSQueue
	problems Problems
	terminal []bool // per placement rule
}

// NewFairScheduler returns an allocation file with queue tree root and
// Hadoop's defaults (AllocationConfiguration: no queue or user limit on
// running applications, Integer.MAX_VALUE; queueMaxAMShareDefault 0.5;
// defaultQueueSchedulingPolicy fair). Build files with it: in a
// FairScheduler literal queueMaxAppsDefault and userMaxAppsDefault are 0,
// which Marshal writes and Hadoop reads as no application running.
func NewFairScheduler(root *FSQueue) *FairScheduler {
	return &FairScheduler{
		Root: root, DefaultQueueSchedulingPolicy: "fair", QueueMaxAppsDefault: math.MaxInt32, UserMaxAppsDefault: math.MaxInt32,
		QueueMaxAMShareDefault: 0.5, UserMaxApps: map[string]int64{}, byPath: map[string]*FSQueue{},
	}
}

// Queue returns the configured queue with the full path, or nil.
func (fs *FairScheduler) Queue(path string) *FSQueue { return fs.byPath[path] }

// allocation-file tags (AllocationFileParser.VALID_TAG_NAMES).
var fsTextTags = map[string]bool{
	"queueMaxResourcesDefault": true, "userMaxAppsDefault": true, "defaultFairSharePreemptionTimeout": true,
	"fairSharePreemptionTimeout": true, "defaultMinSharePreemptionTimeout": true, "queueMaxAppsDefault": true,
	"defaultFairSharePreemptionThreshold": true, "queueMaxAMShareDefault": true, "reservation-planner": true,
	"reservation-agent": true, "reservation-policy": true,
}

// ParseFairScheduler reads a Fair Scheduler allocation file. It fails when
// the file is not XML or its top element is not <allocations> (Hadoop
// refuses both), or declares more than MaxQueues queues; everything else
// Hadoop refuses is reported by Check.
func ParseFairScheduler(data []byte) (*FairScheduler, error) {
	root, err := parseDOM(data)
	if err != nil {
		return nil, fmt.Errorf("not an allocation file: %w", err)
	}
	if root.tag != "allocations" {
		return nil, hadoopErrorf("Bad fair scheduler config file: top-level element not <allocations> (it is <%s>) [AllocationFileLoaderService.reloadAllocations]", root.tag)
	}
	p := &fsReader{fs: NewFairScheduler(nil)}
	p.top(root)
	fs := p.fs
	if len(fs.Queues) > MaxQueues {
		return nil, fmt.Errorf("%d queues: schedplan reads at most %d", len(fs.Queues), MaxQueues)
	}
	fs.problems = p.col.list
	return fs, nil
}

type fsReader struct {
	fs  *FairScheduler
	col collector
}

func (p *fsReader) errorf(rule, where, hadoop, format string, args ...any) {
	p.col.add(Error, rule, where, hadoop, format, args...)
}

// text is getTrimmedTextData.
func (p *fsReader) text(e *element, where, hadoop string) (string, bool) {
	t, ok := e.firstText()
	if !ok {
		p.errorf("fs-empty-element", where, hadoop, "<%s> (line %d) has no text: Hadoop fails reading it", e.tag, e.line)
		return "", false
	}
	return strings.TrimSpace(t), true
}

// top is AllocationFileParser.parse and AllocationFileLoaderService.reloadAllocations.
func (p *fsReader) top(root *element) {
	const hadoop = "AllocationFileParser.parse"
	var queues []*element
	var placement *element
	for _, e := range root.children() {
		switch {
		case e.tag == "queuePlacementPolicy":
			placement = e
		case e.tag == "defaultQueueSchedulingPolicy" || e.tag == "defaultQueueSchedulingMode":
			if t, ok := p.text(e, e.tag, "AllocationFileParser.extractSchedulingPolicy"); ok {
				pol, err := parsePolicy(t)
				switch {
				case err != nil:
					p.errorf("fs-policy", e.tag, "SchedulingPolicy.parse", "%v", err)
				case pol == "fifo":
					p.errorf("fs-policy", e.tag, "AllocationFileParser.extractSchedulingPolicy",
						"Bad fair scheduler config file: defaultQueueSchedulingPolicy or defaultQueueSchedulingMode can't be FIFO.")
				default:
					p.fs.DefaultQueueSchedulingPolicy = pol
				}
			}
		case e.tag == "queue" || e.tag == "pool":
			queues = append(queues, e)
		case e.tag == "user":
			p.user(e)
		case fsTextTags[e.tag]:
			if t, ok := p.text(e, e.tag, hadoop); ok {
				p.setting(e.tag, t)
			}
		default:
			p.col.add(Warning, "fs-unknown-element", e.tag, hadoop, "Bad element in allocations file: %s (ignored)", e.tag)
		}
	}
	p.queues(queues)
	p.placement(placement)
}

func (p *fsReader) setting(tag, t string) {
	const hadoop = "AllocationFileParser.get*"
	switch tag {
	case "queueMaxAppsDefault", "userMaxAppsDefault":
		v, ok := parseJavaInt(t)
		if !ok {
			p.errorf("fs-number", tag, hadoop, "%q is not an integer (Integer.parseInt throws)", t)
			return
		}
		if tag == "queueMaxAppsDefault" {
			p.fs.QueueMaxAppsDefault = v
		} else {
			p.fs.UserMaxAppsDefault = v
		}
	case "defaultFairSharePreemptionTimeout", "fairSharePreemptionTimeout", "defaultMinSharePreemptionTimeout":
		if _, ok := parseJavaLong(t); !ok {
			p.errorf("fs-number", tag, hadoop, "%q is not an integer (Long.parseLong throws)", t)
		}
	case "defaultFairSharePreemptionThreshold", "queueMaxAMShareDefault":
		v, ok := parseJavaFloat(t)
		if !ok {
			p.errorf("fs-number", tag, hadoop, "%q is not a number (Float.parseFloat throws)", t)
			return
		}
		if tag == "queueMaxAMShareDefault" {
			p.fs.QueueMaxAMShareDefault = math.Min(v, 1)
		}
	case "queueMaxResourcesDefault":
		r, err := ParseResource(t, math.MaxInt64)
		if err != nil {
			p.errorf("fs-resource", tag, "FairSchedulerConfiguration.parseResourceConfigValue", "%v", err)
			return
		}
		p.fs.QueueMaxResourcesDefault = &r
	}
}

func (p *fsReader) user(e *element) {
	name := e.attr("name")
	for _, f := range e.children() {
		if f.tag != "maxRunningApps" {
			continue
		}
		t, ok := p.text(f, "user "+name, "AllocationFileParser.extractUserData")
		if !ok {
			continue
		}
		v, ok := parseJavaInt(t)
		if !ok {
			p.errorf("fs-number", "user "+name+" maxRunningApps", "AllocationFileParser.extractUserData", "%q is not an integer (Integer.parseInt throws)", t)
			continue
		}
		p.fs.UserMaxApps[name] = v
	}
}

// queues is AllocationFileQueueParser.parse: a root queue, if given, must
// be alone; other top-level queues go under root.
func (p *fsReader) queues(elems []*element) {
	root := newFSQueue("root", "root", nil)
	p.fs.Root = root
	p.fs.byPath["root"] = root
	p.fs.Queues = append(p.fs.Queues, root)
	for _, e := range elems {
		if strings.EqualFold(e.attr("name"), "root") {
			if len(elems) > 1 {
				p.errorf("fs-root-alone", "root", "AllocationFileQueueParser.parse",
					"If configuring root queue, no other queues can be placed alongside it.")
			}
			p.fill(root, e)
			continue
		}
		p.load(root, e)
	}
}

func newFSQueue(name, path string, parent *FSQueue) *FSQueue {
	return &FSQueue{Name: name, Path: path, Parent: parent, Weight: 1, MaxRunningApps: -1, MaxAMShare: -1, AllowPreemptionFrom: true}
}

// NewFSQueue returns a queue with Hadoop's defaults (weight 1, no limits);
// a queue without a parent is root.
func NewFSQueue(name string) *FSQueue { return newFSQueue(name, name, nil) }

// Add makes c a child of q (setting its parent and path) and returns c.
func (q *FSQueue) Add(c *FSQueue) *FSQueue {
	c.Parent, c.Path = q, q.Path+"."+c.Name
	q.Children = append(q.Children, c)
	return c
}

// load is AllocationFileQueueParser.loadQueue for a queue under parent.
func (p *fsReader) load(parent *FSQueue, e *element) {
	name := TrimQueueName(e.attr("name"))
	where := parent.Path + ".<queue name=\"" + e.attr("name") + "\">"
	switch {
	case strings.Contains(name, "."):
		p.errorf("fs-queue-name", where, loadQueue, "Bad fair scheduler config file: queue name (%s) shouldn't contain period.", name)
		return
	case name == "":
		p.errorf("fs-queue-name", where, loadQueue, "Bad fair scheduler config file: queue name shouldn't be empty or consist only of whitespace.")
		return
	}
	path := parent.Path + "." + name
	q := p.fs.byPath[path]
	if q != nil {
		p.col.add(Warning, "fs-duplicate-queue", path, "QueueProperties.Builder",
			"queue %s is configured twice: the settings of both elements are merged, later ones winning", path)
	} else {
		q = newFSQueue(name, path, parent)
		parent.Children = append(parent.Children, q)
		p.fs.byPath[path] = q
		p.fs.Queues = append(p.fs.Queues, q)
	}
	p.fill(q, e)
}

// isQueueTag is AllocationFileQueueParser's test for a child queue element:
// "queue".endsWith(tag) (so "ueue", "eue", "ue" and "e" count, as in
// Hadoop) or "pool".
func isQueueTag(tag string) bool {
	return (tag != "" && strings.HasSuffix("queue", tag)) || tag == "pool"
}

// loadQueue is the Hadoop method whose rules load, fill and setValue follow.
const loadQueue = "AllocationFileQueueParser.loadQueue"

// fill reads a queue element's settings and children into q.
func (p *fsReader) fill(q *FSQueue, e *element) {
	maxAMShareSet := false
	hasChildren := false
	for _, f := range e.children() {
		where := q.Path + "." + f.tag
		if isQueueTag(f.tag) {
			p.load(q, f)
			hasChildren = true
			continue
		}
		var t string
		switch f.tag {
		case "minResources", "maxResources", "maxChildResources", "maxContainerAllocation", "maxRunningApps", "maxAMShare",
			"weight", "minSharePreemptionTimeout", "fairSharePreemptionTimeout", "fairSharePreemptionThreshold",
			"schedulingPolicy", "schedulingMode", "allowPreemptionFrom":
			var ok bool
			if t, ok = p.text(f, where, loadQueue); !ok {
				continue
			}
		case "aclSubmitApps", "aclAdministerApps", "aclAdministerReservations", "aclListReservations", "aclSubmitReservations":
			if _, ok := f.firstText(); !ok {
				p.errorf("fs-empty-element", where, loadQueue, "<%s> (line %d) has no text: Hadoop fails reading it", f.tag, f.line)
			}
			continue
		case "reservation":
			q.Reservation = true
			continue
		default:
			continue // Hadoop ignores other elements inside a queue
		}
		if p.setValue(q, f.tag, t, where) {
			maxAMShareSet = true
		}
	}
	if e.attr("type") == "parent" {
		q.ParentType = true
	}
	if hasChildren || q.ParentType {
		switch {
		case q.Reservation:
			p.errorf("fs-parent-setting", q.Path, loadQueue, "The configuration settings for %s are invalid. A queue element that contains child queue elements or that has the type='parent' attribute cannot also include a reservation element.", q.Path)
		case maxAMShareSet:
			p.errorf("fs-parent-setting", q.Path, loadQueue, "The configuration settings for %s are invalid. A queue element that contains child queue elements or that has the type='parent' attribute cannot also include a maxAMShare element.", q.Path)
		}
	}
}

// setValue sets q's setting tag from its text t (reporting values Hadoop
// rejects, at where). It returns whether it set maxAMShare.
func (p *fsReader) setValue(q *FSQueue, tag, t, where string) (maxAMShareSet bool) {
	switch tag {
	case "minResources", "maxResources", "maxChildResources", "maxContainerAllocation":
		p.setResource(q, tag, t, where)
	case "maxRunningApps":
		v, ok := parseJavaInt(t)
		if !ok {
			p.errorf("fs-number", where, loadQueue, "%q is not an integer (Integer.parseInt throws)", t)
			return false
		}
		q.MaxRunningApps = v
	case "maxAMShare":
		v, ok := parseJavaFloat(t)
		if !ok {
			p.errorf("fs-number", where, loadQueue, "%q is not a number (Float.parseFloat throws)", t)
			return false
		}
		q.MaxAMShare = math.Min(v, 1)
		return true
	case "weight":
		v, ok := parseJavaDouble(t)
		if !ok {
			p.errorf("fs-number", where, loadQueue, "%q is not a number (Double.parseDouble throws)", t)
			return false
		}
		q.Weight = float64(float32(v))
	case "minSharePreemptionTimeout", "fairSharePreemptionTimeout":
		if _, ok := parseJavaLong(t); !ok {
			p.errorf("fs-number", where, loadQueue, "%q is not an integer (Long.parseLong throws)", t)
		}
	case "fairSharePreemptionThreshold":
		if _, ok := parseJavaFloat(t); !ok {
			p.errorf("fs-number", where, loadQueue, "%q is not a number (Float.parseFloat throws)", t)
		}
	case "schedulingPolicy", "schedulingMode":
		pol, err := parsePolicy(t)
		if err != nil {
			p.errorf("fs-policy", where, "SchedulingPolicy.parse", "%v", err)
			return false
		}
		q.SchedulingPolicy = pol
	case "allowPreemptionFrom":
		q.AllowPreemptionFrom = parseJavaBool(t)
	}
	return false
}

// setResource sets q's resource setting tag (minResources, maxResources,
// maxChildResources or maxContainerAllocation) from its text t.
func (p *fsReader) setResource(q *FSQueue, tag, t, where string) {
	missing := int64(math.MaxInt64)
	if tag == "minResources" {
		missing = 0
	}
	r, err := ParseResource(t, missing)
	if err != nil {
		p.errorf("fs-resource", where, "FairSchedulerConfiguration.parseResourceConfigValue", "%v", err)
		return
	}
	switch tag {
	case "minResources":
		q.MinResources = &r
	case "maxResources":
		q.MaxResources = &r
	case "maxChildResources":
		q.MaxChildResources = &r
	}
}

// parsePolicy is SchedulingPolicy.parse for the built-in policies.
func parsePolicy(s string) (string, error) {
	switch strings.ToLower(s) {
	case "fair", "org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.policies.fairsharepolicy":
		return "fair", nil
	case "fifo", "org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.policies.fifopolicy":
		return "fifo", nil
	case "drf", "org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.policies.dominantresourcefairnesspolicy":
		return "drf", nil
	}
	return "", hadoopErrorf("%s SchedulingPolicy class not found!", s)
}
