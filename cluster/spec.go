package cluster

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"math"
	"os"

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

// LoadSpec reads a cluster spec from a YAML file; "" or "default" gives
// DefaultSpec.
func LoadSpec(path string) (*Spec, error) {
	if path == "" || path == "default" {
		return DefaultSpec(), nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ParseSpec(b, path)
}

// ParseSpec parses and checks a cluster spec; name is used in messages.
// Unknown fields are errors, so a misspelt key does not pass silently.
func ParseSpec(b []byte, name string) (*Spec, error) {
	dec := yaml.NewDecoder(bytes.NewReader(b))
	dec.KnownFields(true)
	var s Spec
	if err := dec.Decode(&s); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s: empty cluster spec", name)
		}
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if err := s.Check(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &s, nil
}

// Check validates a spec: a known version, at least one resource type, unique
// names, non-negative counts and positive slots and rates.
func (s *Spec) Check() error {
	if s.Version != SpecVersion {
		return fmt.Errorf("version: %d is not supported (want %d)", s.Version, SpecVersion)
	}
	if len(s.Resources) == 0 {
		return errors.New("resources: the cluster has no resource types")
	}
	seen := map[string]bool{}
	for i, r := range s.Resources {
		where := fmt.Sprintf("resources[%d]", i)
		if r.Name == "" {
			return fmt.Errorf("%s: name is empty", where)
		}
		if seen[r.Name] {
			return fmt.Errorf("%s: resource type %q appears twice", where, r.Name)
		}
		seen[r.Name] = true
		if r.Count < 0 {
			return fmt.Errorf("%s (%s): count %d is negative", where, r.Name, r.Count)
		}
		if r.Slots <= 0 {
			return fmt.Errorf("%s (%s): slots must be positive, got %d", where, r.Name, r.Slots)
		}
		if !(r.ExecRate > 0) || math.IsInf(r.ExecRate, 0) {
			return fmt.Errorf("%s (%s): exec_rate must be a positive number, got %v", where, r.Name, r.ExecRate)
		}
		if err := r.checkModel(where); err != nil {
			return err
		}
	}
	users := map[string]bool{}
	for i, u := range s.Users {
		where := fmt.Sprintf("users[%d]", i)
		if u.Name == "" {
			return fmt.Errorf("%s: name is empty", where)
		}
		if users[u.Name] {
			return fmt.Errorf("%s: user %q appears twice", where, u.Name)
		}
		users[u.Name] = true
		if u.MinShare < 0 || math.IsNaN(u.MinShare) {
			return fmt.Errorf("%s (%s): min_share must be ≥ 0, got %v", where, u.Name, u.MinShare)
		}
		if u.Weight < 0 || math.IsNaN(u.Weight) || u.Priority < 0 {
			return fmt.Errorf("%s (%s): weight and priority must be ≥ 0", where, u.Name)
		}
	}
	return nil
}
