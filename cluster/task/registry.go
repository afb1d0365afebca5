package task

import (
	"fmt"
	"sort"
	"strings"
)

// policyDef is a registry entry: a constructor from parameters and a
// one-line description.
type policyDef struct {
	doc  string
	make func(params map[string]string) (Policy, error)
}

// registry holds the task-level policies. Package sim's registry holds the
// fluid ones; the grammar of a specification is the same (ParsePolicy).
var registry = map[string]policyDef{
	"fifo": {"YARN FifoScheduler: earliest-submitted job first", noParams("fifo", func() Policy { return &FIFO{} })},
}

func noParams(name string, f func() Policy) func(map[string]string) (Policy, error) {
	return func(p map[string]string) (Policy, error) {
		for k := range p {
			return nil, fmt.Errorf("policy %s takes no parameters (got %q)", name, k)
		}
		return f(), nil
	}
}

// PolicyNames lists the registered task-level policy names, sorted.
func PolicyNames() []string {
	names := make([]string, 0, len(registry))
	for n := range registry {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// PolicyDoc returns a registered policy's one-line description.
func PolicyDoc(name string) string { return registry[name].doc }

// ParseSpec splits a policy specification "name" or
// "name:key=value,key=value" into its lower-cased name and parameters
// (keys lower-cased, values trimmed). A parameter that is not key=value or
// is given twice is an error.
func ParseSpec(spec string) (name string, params map[string]string, err error) {
	name, rest, _ := strings.Cut(strings.TrimSpace(spec), ":")
	name = strings.ToLower(strings.TrimSpace(name))
	params = map[string]string{}
	if strings.TrimSpace(rest) == "" {
		return name, params, nil
	}
	for _, kv := range strings.Split(rest, ",") {
		k, v, ok := strings.Cut(kv, "=")
		k = strings.ToLower(strings.TrimSpace(k))
		if !ok || k == "" {
			return "", nil, fmt.Errorf("policy %s: parameter %q is not key=value", name, kv)
		}
		if _, dup := params[k]; dup {
			return "", nil, fmt.Errorf("policy %s: parameter %q given twice", name, k)
		}
		params[k] = strings.TrimSpace(v)
	}
	return name, params, nil
}

// NewPolicy builds a fresh task-level policy from a name and parameters
// (as ParseSpec returns them). Callers that handle some parameters
// themselves (e.g. file= for a YARN configuration) take them out first.
func NewPolicy(name string, params map[string]string) (Policy, error) {
	def, ok := registry[name]
	if !ok {
		return nil, fmt.Errorf("unknown task-level policy %q (known: %s)", name, strings.Join(PolicyNames(), ", "))
	}
	return def.make(params)
}

// ParsePolicy builds a fresh task-level policy from a specification, with
// the grammar of sim.ParsePolicy: "fifo", "fair:within=fifo",
// "las_mq:k=10,alpha0=100,p=10". Names are case-insensitive; an unknown
// name is an error that lists the known ones. Lists of specifications
// split with sim.SplitPolicies.
func ParsePolicy(spec string) (Policy, error) {
	name, params, err := ParseSpec(spec)
	if err != nil {
		return nil, err
	}
	return NewPolicy(name, params)
}
