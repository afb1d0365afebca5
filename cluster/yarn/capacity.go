package yarn

import (
	"fmt"
	"sort"
	"strings"

	"github.com/schedplan/schedplan/internal/lazyre"
)

// Capacity Scheduler property names (CapacitySchedulerConfiguration).
const (
	// CSPrefix starts every Capacity Scheduler property.
	CSPrefix = "yarn.scheduler.capacity."
	// QueueMappingsKey holds the user and group queue mappings.
	QueueMappingsKey = CSPrefix + "queue-mappings"
	// QueueMappingsOverrideKey lets mappings override the queue an
	// application names.
	QueueMappingsOverrideKey = CSPrefix + "queue-mappings-override.enable"
	legacyModeKey            = CSPrefix + "legacy-queue-mode.enabled"
	// NoLabel is the default partition: nodes without a node label.
	NoLabel = ""
	// AnyLabel ("*") gives access to every label.
	AnyLabel = "*"
	// FIFOOrdering and FairOrdering are the application ordering policies
	// a leaf's ordering-policy names without a class name
	// (FifoOrderingPolicy, FairOrderingPolicy).
	FIFOOrdering = "fifo"
	FairOrdering = "fair"
)

// CapacityKind is how a capacity is written.
type CapacityKind int

const (
	// Percent: a percentage of the parent's capacity ("12.5").
	Percent CapacityKind = iota
	// Weight: a weight among siblings ("3w").
	Weight
	// Absolute: an absolute resource ("[memory=1024,vcores=1]") or a
	// capacity vector; not modelled by this package beyond its kind.
	Absolute
)

func (k CapacityKind) String() string {
	switch k {
	case Weight:
		return "weight"
	case Absolute:
		return "absolute"
	}
	return "percent"
}

// Capacity is a queue's capacity or maximum capacity on one partition, as
// Hadoop reads it.
type Capacity struct {
	Kind CapacityKind
	// Percent is the percentage Hadoop uses (0–100): the configured value,
	// or Hadoop's default when the property is absent (capacity 0, maximum
	// capacity 100; root is always 100) or not a percentage (0 for a
	// capacity, 100 for a maximum capacity).
	Percent float64
	// Weight is the weight of a Weight capacity, −1 otherwise.
	Weight float64
	// Set reports whether the property is in the file; Raw is its value.
	Set bool
	Raw string
}

// Partition is a queue's capacity settings on one partition (the default
// partition NoLabel, or a node label).
type Partition struct {
	Capacity        Capacity
	MaximumCapacity Capacity
	// AbsoluteCapacity and AbsoluteMaximumCapacity are fractions (0–1) of
	// the partition: the capacities multiplied along the queue's path, a
	// weight counting as its share of its siblings' weights
	// (CSQueueUtils.updateAbsoluteCapacitiesByNodeLabels).
	AbsoluteCapacity        float64
	AbsoluteMaximumCapacity float64
}

// QueueState is a queue's state.
type QueueState string

// Queue states (QueueState).
const (
	Running  QueueState = "RUNNING"
	Stopped  QueueState = "STOPPED"
	Draining QueueState = "DRAINING"
)

// CSQueue is a Capacity Scheduler queue.
type CSQueue struct {
	Name     string // short name, e.g. "C1_l0"
	Path     string // full path, e.g. "root.C1.C1_l0"
	Parent   *CSQueue
	Children []*CSQueue
	// Labels are the partitions the queue has settings for: NoLabel and
	// every label L with a <path>.accessible-node-labels.L.* property (for
	// root: every label configured anywhere), sorted, NoLabel first
	// (ConfiguredNodeLabels). Partitions holds the settings of each.
	Labels     []string
	Partitions map[string]*Partition
	// AccessibleNodeLabels are the labels the queue may use, sorted
	// ({"*"} for root, which ignores its configured value); inherited from
	// the parent when AccessibleConfigured is false
	// (QueueNodeLabelsSettings.initializeAccessibleLabels).
	AccessibleNodeLabels []string
	AccessibleConfigured bool
	// DefaultNodeLabelExpression is the label a request without one gets;
	// configured, or the parent's when the queue's accessible labels
	// include all of the parent's
	// (QueueNodeLabelsSettings.initializeDefaultLabelExpression).
	DefaultNodeLabelExpression string
	// UserLimitFactor multiplies the queue's capacity to give one user's
	// limit (default 1; −1: no limit).
	UserLimitFactor float64
	// MinimumUserLimitPercent is minimum-user-limit-percent (default 100):
	// with n users active in a leaf, each is guaranteed at least
	// min(1/n, this)% of it (UsersManager.computeUserLimit).
	MinimumUserLimitPercent float64
	// OrderingPolicy is a leaf's application ordering-policy as written
	// ("fifo" when unset; "fair"; or a class name): see
	// CapacitySchedulerConfiguration.getAppOrderingPolicy.
	OrderingPolicy string
	// State is the configured state (RUNNING when unset); a queue under a
	// STOPPED parent is stopped too (see Effective state in Place).
	State                QueueState
	AllowZeroCapacitySum bool
}

// IsLeaf reports whether the queue has no children.
func (q *CSQueue) IsLeaf() bool { return len(q.Children) == 0 }

// CanAccess reports whether the queue may run containers on nodes of the
// partition (QueueNodeLabelsSettings.isAccessibleToPartition).
func (q *CSQueue) CanAccess(label string) bool {
	return label == NoLabel || contains(q.AccessibleNodeLabels, AnyLabel) || contains(q.AccessibleNodeLabels, label)
}

// Partition returns the queue's settings on a partition; a partition the
// queue has no settings for has capacity 0 (QueueCapacities).
func (q *CSQueue) Partition(label string) Partition {
	if p := q.Partitions[label]; p != nil {
		return *p
	}
	return Partition{Capacity: Capacity{Weight: -1}, MaximumCapacity: Capacity{Weight: -1}}
}

// MappingType says what a queue mapping matches.
type MappingType string

// Mapping types.
const (
	UserMapping  MappingType = "u"
	GroupMapping MappingType = "g"
)

// QueueMapping is one entry of yarn.scheduler.capacity.queue-mappings,
// "u:user:queue" or "g:group:queue" (the source may be %user, the queue
// %user or %primary_group).
type QueueMapping struct {
	Type   MappingType
	Source string
	Queue  string
}

func (m QueueMapping) String() string { return string(m.Type) + ":" + m.Source + ":" + m.Queue }

// CapacityScheduler is a parsed capacity-scheduler.xml.
type CapacityScheduler struct {
	Root *CSQueue
	// Queues lists every queue, root first, depth first in the order of the
	// queues properties (CapacitySchedulerQueueManager.parseQueue).
	Queues          []*CSQueue
	Mappings        []QueueMapping
	MappingOverride bool
	// LegacyQueueMode is yarn.scheduler.capacity.legacy-queue-mode.enabled
	// (default true); the sibling capacity rules apply only in legacy mode.
	LegacyQueueMode bool
	// Values are the file's effective properties.
	Values map[string]string

	byPath   map[string]*CSQueue
	problems Problems // found while reading values
}

// Queue returns the queue with the full path, or nil.
func (cs *CapacityScheduler) Queue(path string) *CSQueue { return cs.byPath[path] }

// MaxQueues bounds the queues a scheduler file (capacity-scheduler.xml or
// fair-scheduler.xml) may declare: every queue is state of the task-level
// simulation of the file (a fair-scheduler.xml of 200,000 queues took
// 18 s to simulate the embedded trace), and no cluster runs more.
const MaxQueues = 100_000

// ParseCapacityScheduler reads a capacity-scheduler.xml. It fails when the
// file is not a Hadoop configuration or declares no queues under root (Hadoop
// refuses both); values Hadoop cannot read are reported by Check.
func ParseCapacityScheduler(data []byte) (*CapacityScheduler, error) {
	conf, err := ParseConfiguration(data)
	if err != nil {
		return nil, err
	}
	return NewCapacityScheduler(conf)
}

// NewCapacityScheduler builds the queue tree of a configuration.
func NewCapacityScheduler(conf *Configuration) (*CapacityScheduler, error) {
	vals, probs := conf.Values()
	cs := &CapacityScheduler{Values: vals, byPath: map[string]*CSQueue{}, problems: probs}
	if _, ok := vals[CSPrefix+"root.queues"]; !ok {
		return nil, fmt.Errorf("no %sroot.queues: Hadoop refuses a configuration without queues under root (\"Queue configuration missing child queue names for root\", CapacitySchedulerQueueManager.validateParent)", CSPrefix)
	}
	r := &csReader{cs: cs, vals: vals, col: collector{list: probs}}
	r.labelsByQueue = r.configuredLabelsByQueue()
	cs.LegacyQueueMode = parseConfBool(vals[legacyModeKey], true)
	root, err := r.queue(nil, "root")
	if err != nil {
		return nil, err
	}
	if root.IsLeaf() {
		return nil, fmt.Errorf("%sroot.queues names no queue: Hadoop refuses a configuration without queues under root (\"Queue configuration missing child queue names for root\", CapacitySchedulerQueueManager.validateParent)", CSPrefix)
	}
	cs.Root = root
	r.absolute(root)
	r.mappings()
	cs.problems = r.col.list
	return cs, nil
}

type csReader struct {
	cs            *CapacityScheduler
	vals          map[string]string
	col           collector
	labelsByQueue map[string][]string
}

func (r *csReader) get(key string) (string, bool) {
	v, ok := r.vals[key]
	return v, ok
}

const accessibleLabels = "accessible-node-labels"

// configuredLabelsByQueue is
// CapacitySchedulerConfiguration.getConfiguredNodeLabelsByQueue: for every
// property <queue>.accessible-node-labels.<label>.<x>, label L is configured
// for the queue (besides NoLabel).
func (r *csReader) configuredLabelsByQueue() map[string][]string {
	sets := map[string]map[string]bool{}
	keys := make([]string, 0, len(r.vals))
	for k := range r.vals {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !strings.HasPrefix(k, CSPrefix) {
			continue
		}
		key := k[len(CSPrefix):]
		i := strings.Index(key, accessibleLabels+".")
		if i < 0 {
			continue
		}
		start := i + len(accessibleLabels) + 1
		end := strings.IndexByte(key[start:], '.')
		if end < 0 || i == 0 {
			r.col.add(Error, "cs-label-property", k, "CapacitySchedulerConfiguration.getConfiguredNodeLabelsByQueue",
				"a property under accessible-node-labels must be <queue>.accessible-node-labels.<label>.<setting>; Hadoop fails reading this key (StringIndexOutOfBoundsException)")
			continue
		}
		queue, label := key[:i-1], key[start:start+end]
		if sets[queue] == nil {
			sets[queue] = map[string]bool{NoLabel: true}
		}
		sets[queue][label] = true
	}
	out := map[string][]string{}
	for q, set := range sets {
		out[q] = sortedLabels(set)
	}
	return out
}

// sortedLabels returns the set's labels sorted, NoLabel first.
func sortedLabels(set map[string]bool) []string {
	out := make([]string, 0, len(set))
	for l := range set {
		out = append(out, l)
	}
	sort.Strings(out) // "" sorts first
	return out
}

// queue reads queue name under parent and its subtree
// (CapacitySchedulerQueueManager.parseQueue, AbstractCSQueue.setupQueueConfigs).
func (r *csReader) queue(parent *CSQueue, name string) (*CSQueue, error) {
	if len(r.cs.Queues) >= MaxQueues {
		return nil, fmt.Errorf("more than %d queues", MaxQueues)
	}
	q := &CSQueue{Name: name, Path: name, Parent: parent, Partitions: map[string]*Partition{}}
	if parent != nil {
		q.Path = parent.Path + "." + name
	}
	if old := r.cs.byPath[q.Path]; old != nil {
		r.col.add(Error, "cs-duplicate-queue", q.Path, "CSQueueStore.add",
			"queue %s is listed twice under %s: Hadoop keeps one queue object per path, and the parent counts the child's capacity twice", name, parent.Path)
	}
	r.cs.byPath[q.Path] = q
	r.cs.Queues = append(r.cs.Queues, q)
	pre := CSPrefix + q.Path + "."

	r.nodeLabels(q, pre)
	r.capacities(q, pre)
	q.UserLimitFactor = 1
	if v, ok := r.get(CSPrefix + "user-limit-factor"); ok {
		q.UserLimitFactor = r.float(CSPrefix+"user-limit-factor", v, "CapacitySchedulerConfiguration.getUserLimitFactor")
	}
	if v, ok := r.get(pre + "user-limit-factor"); ok {
		q.UserLimitFactor = r.float(pre+"user-limit-factor", v, "CapacitySchedulerConfiguration.getUserLimitFactor")
	}
	q.MinimumUserLimitPercent = 100
	if v, ok := r.get(pre + "minimum-user-limit-percent"); ok {
		q.MinimumUserLimitPercent = r.float(pre+"minimum-user-limit-percent", v, "CapacitySchedulerConfiguration.getUserLimit")
	}
	q.OrderingPolicy = FIFOOrdering
	if v, ok := r.get(pre + "ordering-policy"); ok {
		q.OrderingPolicy = strings.TrimSpace(v)
	}
	q.State = Running
	if v, ok := r.get(pre + "state"); ok {
		switch s := QueueState(strings.ToUpper(v)); s {
		case Running, Stopped, Draining:
			q.State = s
		default:
			r.col.add(Error, "cs-state", pre+"state", "CapacitySchedulerConfiguration.getConfiguredState",
				"state %q is not RUNNING, STOPPED or DRAINING (QueueState.valueOf throws)", v)
		}
	}
	q.AllowZeroCapacitySum = parseConfBool(r.vals[pre+"allow-zero-capacity-sum"], false)

	v, ok := r.get(pre + "queues")
	if !ok {
		return q, nil
	}
	// Configuration.getStrings drops empty items; getQueues trims.
	for _, c := range strings.Split(v, ",") {
		if c == "" {
			continue // StringTokenizer skips empty items
		}
		c = strings.TrimSpace(c)
		if c == "" || strings.Contains(c, ".") {
			r.col.add(Error, "cs-queue-name", pre+"queues", "QueuePath.hasEmptyPart",
				"queue name %q under %s: a queue path is split at '.', so a name must be non-empty and contain no '.'", c, q.Path)
			continue
		}
		child, err := r.queue(q, c)
		if err != nil {
			return nil, err
		}
		q.Children = append(q.Children, child)
	}
	return q, nil
}

// nodeLabels applies QueueNodeLabelsSettings and
// CapacitySchedulerConfiguration.getAccessibleNodeLabels.
func (r *csReader) nodeLabels(q *CSQueue, pre string) {
	v, set := r.get(pre + accessibleLabels)
	switch {
	case q.Parent == nil:
		q.AccessibleNodeLabels = []string{AnyLabel}
		q.AccessibleConfigured = true
		if set {
			r.col.add(Warning, "cs-root-labels", pre+accessibleLabels, "CapacitySchedulerConfiguration.getAccessibleNodeLabels",
				"Hadoop ignores root's accessible-node-labels (%q) with a warning: root can always access every label (\"*\")", v)
		}
	case set:
		labels := map[string]bool{}
		for _, l := range strings.Split(v, ",") {
			if l = strings.TrimSpace(l); l != "" {
				labels[l] = true
			}
		}
		if labels[AnyLabel] {
			labels = map[string]bool{AnyLabel: true}
		}
		q.AccessibleNodeLabels = sortedLabels(labels)
		q.AccessibleConfigured = true
	default:
		q.AccessibleNodeLabels = q.Parent.AccessibleNodeLabels
	}
	if e, ok := r.get(pre + "default-node-label-expression"); ok {
		q.DefaultNodeLabelExpression = strings.TrimSpace(e)
	} else if q.Parent != nil && containsAll(q.AccessibleNodeLabels, q.Parent.AccessibleNodeLabels) {
		q.DefaultNodeLabelExpression = q.Parent.DefaultNodeLabelExpression
	}
	if q.Parent == nil {
		all := map[string]bool{NoLabel: true}
		for _, ls := range r.labelsByQueue {
			for _, l := range ls {
				all[l] = true
			}
		}
		q.Labels = sortedLabels(all)
	} else if ls, ok := r.labelsByQueue[q.Path]; ok {
		q.Labels = ls
	} else {
		q.Labels = []string{NoLabel}
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func containsAll(set, sub []string) bool {
	for _, s := range sub {
		if !contains(set, s) {
			return false
		}
	}
	return true
}

// absoluteResource is CapacitySchedulerConfiguration.RESOURCE_PATTERN.
var absoluteResource = lazyre.New(`^\[[\w\.,\-_=\ /]+\]$`)

// capacityKind classifies a raw value as Hadoop does: an absolute resource
// or capacity vector, a weight (suffix "w"), else a percentage.
func capacityKind(raw string) CapacityKind {
	switch {
	case absoluteResource().MatchString(raw) || absoluteResource().MatchString(strings.ReplaceAll(raw, " ", "")):
		return Absolute
	case strings.HasSuffix(raw, "w"):
		return Weight
	}
	return Percent
}

// capacities is CSQueueUtils.loadCapacitiesByLabelsFromConf over the
// queue's configured labels.
func (r *csReader) capacities(q *CSQueue, pre string) {
	root := q.Parent == nil
	for _, l := range q.Labels {
		lp := pre
		if l != NoLabel {
			lp = pre + accessibleLabels + "." + l + "."
		}
		p := &Partition{
			Capacity:        r.capacity(lp+"capacity", root, l == NoLabel, false),
			MaximumCapacity: r.capacity(lp+"maximum-capacity", root && l != NoLabel, l == NoLabel, true),
		}
		q.Partitions[l] = p
	}
}

// capacity reads one capacity or maximum-capacity property
// (getNonLabeledQueueCapacity, getNonLabeledQueueMaximumCapacity,
// internalGetLabeledQueueCapacity, get*QueueWeight).
func (r *csReader) capacity(key string, forced100, noLabel, maximum bool) Capacity {
	raw, set := r.get(key)
	c := Capacity{Weight: -1, Set: set, Raw: raw}
	def := 0.0
	if maximum {
		def = 100
	}
	c.Percent = def
	if forced100 {
		c.Percent = 100
	}
	method := "CapacitySchedulerConfiguration.internalGetLabeledQueueCapacity"
	if noLabel {
		method = "CapacitySchedulerConfiguration.getNonLabeledQueueCapacity"
		if maximum {
			method = "CapacitySchedulerConfiguration.getNonLabeledQueueMaximumCapacity"
		}
	}
	if !set {
		return c
	}
	c.Kind = capacityKind(raw)
	switch c.Kind {
	case Absolute:
		return c
	case Weight:
		if maximum {
			break // a weight is not a maximum capacity: parsed as a number below
		}
		w, ok := parseJavaFloat(raw[:strings.Index(raw, "w")])
		if !ok {
			r.col.add(Error, "cs-number", key, "CapacitySchedulerConfiguration.extractFloatValueFromWeightConfig", "weight %q is not a number", raw)
			return c
		}
		if (w < -1e-6 && abs(w+1) > 1e-6) || w > 10000 || w != w {
			r.col.add(Error, "cs-weight-range", key, "CapacitySchedulerConfiguration.throwExceptionForUnexpectedWeight",
				"Illegal weight=%v: acceptable values are [0, 10000] (-1 is the same as not set)", w)
		}
		c.Weight = w
		return c
	}
	c.Kind = Percent
	text := raw
	if !noLabel {
		text = strings.TrimSpace(raw) // getFloat reads the trimmed value
	}
	v, ok := parseJavaFloat(text)
	if !ok {
		r.col.add(Error, "cs-number", key, method, "%q is not a number (Float.parseFloat throws NumberFormatException)", raw)
		return c
	}
	if forced100 {
		if v != 100 {
			r.col.add(Warning, "cs-root-capacity", key, method, "Hadoop ignores %q: root's capacity is always 100", raw)
		}
		return c
	}
	if maximum && noLabel && v == -1 {
		v = 100 // DEFAULT_MAXIMUM_CAPACITY_VALUE
	}
	if v != v || v < 0 || v > 100 {
		what := "capacity"
		hadoop := method
		if maximum {
			what = "maximum-capacity"
			if noLabel {
				hadoop = "CSQueueUtils.checkMaxCapacity (Hadoop 2.x refuses at load; 3.4.1 keeps it for tests)"
			}
		}
		r.col.add(Error, "cs-capacity-range", key, hadoop, "Illegal %s of %v: a valid %s is in [0, 100]", what, v, what)
	}
	c.Percent = v
	return c
}

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}

func (r *csReader) float(key, v, method string) float64 {
	f, ok := parseJavaFloat(strings.TrimSpace(v))
	if !ok {
		r.col.add(Error, "cs-number", key, method, "%q is not a number (Float.parseFloat throws NumberFormatException)", v)
		return 1
	}
	return f
}

// absolute sets the absolute capacities of q's subtree
// (CSQueueUtils.updateAbsoluteCapacitiesByNodeLabels, legacy mode: a weight
// counts as its normalised share of its siblings' weights).
func (r *csReader) absolute(q *CSQueue) {
	for _, l := range q.Labels {
		p := q.Partitions[l]
		parentAbs, parentMax := 1.0, 1.0
		share := p.Capacity.Percent / 100
		if q.Parent != nil {
			pp := q.Parent.Partition(l)
			parentAbs, parentMax = pp.AbsoluteCapacity, pp.AbsoluteMaximumCapacity
			if p.Capacity.Kind == Weight && p.Capacity.Weight >= 0 {
				sum := 0.0
				for _, s := range q.Parent.Children {
					if sp := s.Partitions[l]; sp != nil && sp.Capacity.Kind == Weight && sp.Capacity.Weight > 0 {
						sum += sp.Capacity.Weight
					}
				}
				if sum > 0 {
					share = max(share, p.Capacity.Weight/sum)
				}
			}
		}
		p.AbsoluteCapacity = share * parentAbs
		p.AbsoluteMaximumCapacity = p.MaximumCapacity.Percent / 100 * parentMax
	}
	for _, c := range q.Children {
		r.absolute(c)
	}
}

// mappings reads yarn.scheduler.capacity.queue-mappings
// (CapacitySchedulerConfiguration.getQueueMappings).
func (r *csReader) mappings() {
	r.cs.MappingOverride = parseConfBool(r.vals[QueueMappingsOverrideKey], false)
	v, ok := r.get(QueueMappingsKey)
	if !ok {
		return
	}
	seen := map[string]bool{}
	for _, item := range strings.Split(v, ",") {
		item = strings.TrimSpace(item)
		if item == "" || seen[item] {
			continue
		}
		seen[item] = true
		var parts []string
		for _, p := range strings.Split(item, ":") {
			if p = strings.TrimSpace(p); p != "" {
				parts = append(parts, p)
			}
		}
		if len(parts) != 3 || (parts[0] != "u" && parts[0] != "g") {
			r.col.add(Error, "cs-mapping", QueueMappingsKey, "CapacitySchedulerConfiguration.getQueueMappings",
				"Illegal queue mapping %q: want u:<user>:<queue> or g:<group>:<queue>", item)
			continue
		}
		r.cs.Mappings = append(r.cs.Mappings, QueueMapping{Type: MappingType(parts[0]), Source: parts[1], Queue: parts[2]})
	}
}
