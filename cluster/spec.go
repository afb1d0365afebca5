package cluster

import (
	_ "embed"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/schedplan/schedplan/internal/configfile"
	"github.com/schedplan/schedplan/internal/yamlstrict"
	"gopkg.in/yaml.v3"
)

// SpecVersion is the version of the cluster-spec format this package reads.
const SpecVersion = 1

// Spec describes a cluster: its machine (resource) types and its users.
type Spec struct {
	Version   int            `yaml:"version"`
	Name      string         `yaml:"name,omitempty"`
	Resources []ResourceType `yaml:"resources"`
	Users     []User         `yaml:"users,omitempty"`
	// Heartbeat is the NodeManagers' heartbeat interval in seconds (YARN's
	// yarn.resourcemanager.nodemanagers.heartbeat-interval-ms / 1000): at
	// task level containers are then assigned at each node's heartbeats
	// and running tasks report their progress at that interval (H-PFSP's
	// estimator). 0 (absent): assignment at every event, progress reports
	// every 3 s.
	Heartbeat float64 `yaml:"heartbeat_s,omitempty"`
}

// ResourceType is a set of identical machines.
type ResourceType struct {
	Name  string `yaml:"name"`
	Count int    `yaml:"count"` // machines of this type
	Slots int    `yaml:"slots"` // containers per machine
	// ExecRate is a container's speed relative to a reference container.
	ExecRate float64 `yaml:"exec_rate"`
	// Memory is a machine's memory (seed 003 Table 3's Mem capacity), with
	// units ("400KB", "4TB"): a job class whose tasks' data do not fit
	// cannot run on the type. RetrieveRate is a machine's data retrieval
	// rate in bytes/s, with units ("9Gbps", "3.2GB/s"). Both feed the
	// execution-time model of package classify; 0 (absent) leaves the
	// memory rule or the data term out. See MemoryBytes, RetrieveBytesPerS.
	Memory       Bytes    `yaml:"memory,omitempty"`
	RetrieveRate ByteRate `yaml:"retrieve_rate,omitempty"`
	// MemoryGB and RetrieveRateGbps are the older spellings of Memory (in
	// 10⁹ bytes) and RetrieveRate (in 10⁹ bits/s); give one or the other.
	MemoryGB         float64 `yaml:"memory_gb,omitempty"`
	RetrieveRateGbps float64 `yaml:"retrieve_rate_gbps,omitempty"`
	// Resources is the optional capacity vector of one machine (cores,
	// memory, disk and network bandwidth) for multi-resource policies.
	Resources *MachineResources `yaml:"resources,omitempty"`
}

// Capacity is the type's total speed: count × slots × exec_rate.
func (r ResourceType) Capacity() float64 { return float64(r.Count*r.Slots) * r.ExecRate }

// User is a cluster user with a minimum share (in containers) and a weight.
type User struct {
	Name     string  `yaml:"name"`
	MinShare float64 `yaml:"min_share,omitempty"`
	Priority int     `yaml:"priority,omitempty"`
	Weight   float64 `yaml:"weight,omitempty"` // default: priority, or 1
}

// EffectiveWeight returns the user's weight: Weight if set, else Priority if
// set, else 1.
func (u User) EffectiveWeight() float64 {
	switch {
	case u.Weight > 0:
		return u.Weight
	case u.Priority > 0:
		return float64(u.Priority)
	}
	return 1
}

// Capacity is the cluster's total speed in reference containers.
func (s *Spec) Capacity() float64 {
	c := 0.0
	for _, r := range s.Resources {
		c += r.Capacity()
	}
	return c
}

// Containers counts the cluster's containers: Σ count × slots.
func (s *Spec) Containers() int {
	if s == nil {
		return 0
	}
	n := 0
	for _, r := range s.Resources {
		n += r.Count * r.Slots
	}
	return n
}

// User returns the named user, or a user with min share 0 and weight 1 when
// the spec does not list it.
func (s *Spec) User(name string) User {
	for _, u := range s.Users {
		if u.Name == name {
			return u
		}
	}
	return User{Name: name}
}

//go:embed default-cluster.yaml
var defaultSpec []byte

// DefaultSpecYAML returns the text of the default cluster spec.
func DefaultSpecYAML() []byte { return append([]byte(nil), defaultSpec...) }

// DefaultSpec returns the default cluster: the six heterogeneous resources of
// seed 003, Table 3, and the users of its Facebook experiments.
func DefaultSpec() *Spec {
	s, err := ParseSpec(defaultSpec, "default-cluster.yaml")
	if err != nil {
		panic("cluster: embedded default spec is invalid: " + err.Error())
	}
	return s
}

// LoadSpec reads a cluster spec from a YAML file; "", "default" or
// "coshh-table3" give DefaultSpec (seed 003 Table 3), "auto" a one-machine
// AutoSpec that the log's reader sizes (pipeline).
func LoadSpec(path string) (*Spec, error) {
	switch path {
	case "", DefaultName, Table3Name:
		return DefaultSpec(), nil
	case AutoName:
		return AutoSpec(0, 0, 0, "the log"), nil
	}
	b, err := configfile.Read(path)
	if err != nil {
		return nil, err
	}
	return ParseSpec(b, path)
}

// Limits of a cluster spec. They keep every derived quantity representable
// (container counts as int64 vcores and memory, the LP's coefficients) and
// the capacity LP small enough to solve in seconds: its size grows with the
// number of resource types times the number of job classes (3,000 types
// took CLP over a minute).
const (
	MaxResourceTypes = 256
	MaxContainers    = 1 << 30 // count × slots of the whole cluster
	MaxWeight        = 1e6     // user weight or priority
	MinExecRate      = 1e-9
	MaxExecRate      = 1e9
	MaxMemoryGB      = 1e9 // per machine
	MaxRetrieveGbps  = 1e9
	MaxHeartbeat     = 3600 // seconds
	// MinHeartbeat is the shortest heartbeat_s, 1 ms (YARN gives it in
	// ms): every heartbeat and progress report is an event of the task
	// level, so 1e-9 s made a run of an hour's trace 10¹² events.
	MinHeartbeat = 0.001
)

// MaxSlots (containers of one machine) and MaxMachines (of the cluster)
// are the task-level core's limits (task.MaxContainers, task.MaxNodes; a
// test checks they agree), so that a spec it cannot simulate is refused
// when read, not at the first task-level stage.
const (
	MaxSlots    = 1 << 20
	MaxMachines = 1 << 24
)

// ParseSpec parses and checks a cluster spec; name is used in messages,
// which also give the YAML line of the offending value. Unknown fields are
// errors, so a misspelt key does not pass silently; so are a second YAML
// document and a whole-number field written with a fraction (count: 1.5).
func ParseSpec(b []byte, name string) (*Spec, error) {
	var s Spec
	root, err := yamlstrict.Decode(b, name, "cluster spec", &s)
	if err != nil {
		return nil, err
	}
	nodes := map[string]*yaml.Node{}
	if len(root.Content) > 0 {
		indexNodes(root.Content[0], "", nodes)
	}
	at := func(path string) string {
		if n := nodes[path]; n != nil {
			return fmt.Sprintf("line %d: %s", n.Line, path)
		}
		return path
	}
	for path, n := range nodes {
		if err := wholeNumber(path, n); err != nil {
			return nil, fmt.Errorf("%s: %s: %w", name, at(path), err)
		}
	}
	if err := s.check(at); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &s, nil
}

// indexNodes records every node of a spec under its path: "version",
// "resources[2]", "resources[2].count", "users[0].weight".
func indexNodes(n *yaml.Node, path string, out map[string]*yaml.Node) {
	if path != "" {
		out[path] = n
	}
	switch n.Kind {
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i].Value
			if path != "" {
				k = path + "." + k
			}
			indexNodes(n.Content[i+1], k, out)
		}
	case yaml.SequenceNode:
		for i, c := range n.Content {
			indexNodes(c, fmt.Sprintf("%s[%d]", path, i), out)
		}
	}
}

// wholeNumber rejects a fraction in a field that holds a whole number
// (YAML decodes count: 1.5 into an int as 1).
func wholeNumber(path string, n *yaml.Node) error {
	field := path[strings.LastIndexByte(path, '.')+1:]
	switch field {
	case "version", "count", "slots", "priority":
	default:
		return nil
	}
	if n.Kind != yaml.ScalarNode || n.Tag != "!!float" {
		return nil
	}
	v, err := strconv.ParseFloat(strings.ReplaceAll(n.Value, "_", ""), 64)
	if err != nil || v != math.Trunc(v) || math.IsInf(v, 0) {
		return fmt.Errorf("%s must be a whole number, got %s", field, n.Value)
	}
	return nil
}

// Check validates a spec: a known version, at least one resource type (and
// at most MaxResourceTypes), unique names, counts, slots and rates within
// the limits above, and finite non-negative user shares and weights.
func (s *Spec) Check() error { return s.check(func(path string) string { return path }) }

// checkTop checks the spec's top-level fields: the version, the number of
// resource types, the heartbeat.
func (s *Spec) checkTop(at func(path string) string) error {
	switch {
	case s.Version != SpecVersion:
		return fmt.Errorf("%s: %d is not supported (want %d)", at("version"), s.Version, SpecVersion)
	case len(s.Resources) == 0:
		return fmt.Errorf("%s: the cluster has no resource types", at("resources"))
	case len(s.Resources) > MaxResourceTypes:
		return fmt.Errorf("%s: %d resource types; schedplan supports at most %d (the capacity LP grows with types × classes): group machines of similar speed into one type", at("resources"), len(s.Resources), MaxResourceTypes)
	case !(s.Heartbeat == 0 || s.Heartbeat >= MinHeartbeat && s.Heartbeat <= MaxHeartbeat):
		return fmt.Errorf("%s: must be 0 (assignment at every event) or a number of seconds in [%g, %d], got %v", at("heartbeat_s"), MinHeartbeat, MaxHeartbeat, s.Heartbeat)
	}
	return nil
}

// check is Check with at naming a field (with its YAML line when known).
func (s *Spec) check(at func(path string) string) error {
	if err := s.checkTop(at); err != nil {
		return err
	}
	seen := map[string]bool{}
	total, machines := 0, 0
	for i, r := range s.Resources {
		where := fmt.Sprintf("resources[%d]", i)
		field := func(f string) string { return fmt.Sprintf("%s (%s)", at(where+"."+f), r.Name) }
		if r.Name == "" {
			return fmt.Errorf("%s: name is empty", at(where))
		}
		if seen[r.Name] {
			return fmt.Errorf("%s: resource type %q appears twice", at(where+".name"), r.Name)
		}
		seen[r.Name] = true
		switch {
		case r.Count < 0:
			return fmt.Errorf("%s: count %d is negative", field("count"), r.Count)
		case r.Slots <= 0:
			return fmt.Errorf("%s: slots must be positive, got %d", field("slots"), r.Slots)
		case r.Slots > MaxSlots:
			return fmt.Errorf("%s: slots %d: a machine has at most %d containers (the task-level simulator's limit)", field("slots"), r.Slots, MaxSlots)
		case r.Count > MaxContainers || r.Slots > MaxContainers || r.Count*r.Slots > MaxContainers-total:
			return fmt.Errorf("%s: count %d × slots %d takes the cluster past %d containers", field("count"), r.Count, r.Slots, MaxContainers)
		case r.Count > MaxMachines-machines:
			return fmt.Errorf("%s: count %d takes the cluster past %d machines (the task-level simulator's limit)", field("count"), r.Count, MaxMachines)
		case !(r.ExecRate >= MinExecRate && r.ExecRate <= MaxExecRate):
			return fmt.Errorf("%s: exec_rate must be a number in [%g, %g], got %v", field("exec_rate"), MinExecRate, MaxExecRate, r.ExecRate)
		case !(r.MemoryGB >= 0 && r.MemoryGB <= MaxMemoryGB):
			return fmt.Errorf("%s: memory_gb must be a number in [0, %g], got %v", field("memory_gb"), MaxMemoryGB, r.MemoryGB)
		case !(r.RetrieveRateGbps >= 0 && r.RetrieveRateGbps <= MaxRetrieveGbps):
			return fmt.Errorf("%s: retrieve_rate_gbps must be a number in [0, %g], got %v", field("retrieve_rate_gbps"), MaxRetrieveGbps, r.RetrieveRateGbps)
		}
		total += r.Count * r.Slots
		machines += r.Count
		if err := r.checkModel(at(where)); err != nil {
			return err
		}
	}
	if total == 0 {
		return fmt.Errorf("%s: the cluster has no machines (every type has count 0)", at("resources"))
	}
	users := map[string]bool{}
	for i, u := range s.Users {
		where := fmt.Sprintf("users[%d]", i)
		field := func(f string) string { return fmt.Sprintf("%s (%s)", at(where+"."+f), u.Name) }
		if u.Name == "" {
			return fmt.Errorf("%s: name is empty", at(where))
		}
		if users[u.Name] {
			return fmt.Errorf("%s: user %q appears twice", at(where+".name"), u.Name)
		}
		users[u.Name] = true
		switch {
		case !(u.MinShare >= 0 && u.MinShare <= float64(total)):
			return fmt.Errorf("%s: min_share (containers) must be a number in [0, %d] (the cluster's containers), got %v", field("min_share"), total, u.MinShare)
		case !(u.Weight >= 0 && u.Weight <= MaxWeight):
			return fmt.Errorf("%s: weight must be a number in [0, %g], got %v", field("weight"), float64(MaxWeight), u.Weight)
		case u.Priority < 0 || u.Priority > MaxWeight:
			return fmt.Errorf("%s: priority must be a whole number in [0, %g], got %d", field("priority"), float64(MaxWeight), u.Priority)
		}
	}
	return nil
}
