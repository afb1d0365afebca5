package sim

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// policyDef is a registry entry: a constructor from parameters and a
// one-line description.
type policyDef struct {
	doc  string
	make func(params map[string]string) (Policy, error)
}

var registry = map[string]policyDef{
	"fifo":     {"first in, first out", noParams("fifo", func() Policy { return &FIFO{} })},
	"ps":       {"processor sharing: equal shares", noParams("ps", func() Policy { return &PS{} })},
	"gps":      {"generalised PS: shares proportional to job weights", noParams("gps", func() Policy { return &PS{Weighted: true} })},
	"srpt":     {"shortest (estimated) remaining processing time", noParams("srpt", func() Policy { return &SRPT{} })},
	"srpt+ps":  {"SRPT; late jobs share equally with the SRPT head", noParams("srpt+ps", func() Policy { return &SRPT{LatePS: true} })},
	"fsp":      {"FSP as in schedsim: same as fsp+fifo", noParams("fsp", func() Policy { return &FSP{} })},
	"fsp+fifo": {"fair sojourn protocol; late jobs first, one at a time", noParams("fsp+fifo", func() Policy { return &FSP{} })},
	"fsp+ps":   {"fair sojourn protocol; late jobs first, sharing equally", noParams("fsp+ps", func() Policy { return &FSP{LatePS: true} })},
	"las":      {"least attained service", noParams("las", func() Policy { return &LAS{} })},
	"las_mq":   {"multi-level queue (seed 000): k, alpha0, p, weights=w1/w2/..., decay, strict, order=fifo|ps|remaining (in-level order)", makeLASMQ},
	"pfsp":     {"parallel PFSP (seed 002) without the fair phase", noParams("pfsp", func() Policy { return &PFSP{} })},
}

func noParams(name string, f func() Policy) func(map[string]string) (Policy, error) {
	return func(p map[string]string) (Policy, error) {
		for k := range p {
			return nil, fmt.Errorf("policy %s takes no parameters (got %q)", name, k)
		}
		return f(), nil
	}
}

// DefaultLASMQ returns seed 000's configuration: k = 10, α_0 = 100, p = 10,
// equal queue weights.
func DefaultLASMQ() *LASMQ { return &LASMQ{K: 10, Alpha0: 100, P: 10} }

func makeLASMQ(p map[string]string) (Policy, error) {
	m := DefaultLASMQ()
	decay, hasDecay := 0.0, false
	for k, v := range p {
		var err error
		switch k {
		case "k":
			m.K, err = strconv.Atoi(v)
		case "alpha0":
			m.Alpha0, err = strconv.ParseFloat(v, 64)
		case "p":
			m.P, err = strconv.ParseFloat(v, 64)
		case "decay":
			decay, err = strconv.ParseFloat(v, 64)
			hasDecay = true
			if err == nil && !(decay >= 0 && decay <= 1) {
				err = fmt.Errorf("decay must be in [0, 1]")
			}
		case "strict":
			m.Strict, err = strconv.ParseBool(v)
		case "order":
			m.Order, err = ParseLevelOrder(v)
		case "weights":
			for _, s := range strings.Split(v, "/") {
				var w float64
				if w, err = strconv.ParseFloat(s, 64); err != nil {
					break
				}
				m.Weights = append(m.Weights, w)
			}
		default:
			return nil, fmt.Errorf("las_mq: unknown parameter %q (known: k, alpha0, p, weights, decay, strict, order)", k)
		}
		if err != nil {
			return nil, fmt.Errorf("las_mq: parameter %s=%q: %v", k, v, err)
		}
	}
	if hasDecay {
		if m.Weights != nil {
			return nil, fmt.Errorf("las_mq: give weights or decay, not both")
		}
		m.Weights = DecayWeights(m.K, decay)
		if decay == 0 {
			m.Strict = true
		}
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	return m, nil
}

// DecayWeights returns k queue weights 1, d, d², … (highest priority first).
func DecayWeights(k int, d float64) []float64 {
	w := make([]float64, max(k, 0))
	v := 1.0
	for i := range w {
		w[i] = v
		v *= d
	}
	return w
}

// PolicyNames lists the registered policy names, sorted.
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

// ParsePolicy builds a fresh policy from a specification "name" or
// "name:key=value,key=value", e.g. "las_mq:k=10,alpha0=100,p=10". Names are
// case-insensitive. An unknown name is an error that lists the known ones.
func ParsePolicy(spec string) (Policy, error) {
	name, rest, _ := strings.Cut(strings.TrimSpace(spec), ":")
	name = strings.ToLower(strings.TrimSpace(name))
	def, ok := registry[name]
	if !ok {
		return nil, fmt.Errorf("unknown policy %q (known: %s)", name, strings.Join(PolicyNames(), ", "))
	}
	params := map[string]string{}
	if strings.TrimSpace(rest) != "" {
		for _, kv := range strings.Split(rest, ",") {
			k, v, ok := strings.Cut(kv, "=")
			k = strings.ToLower(strings.TrimSpace(k))
			if !ok || k == "" {
				return nil, fmt.Errorf("policy %s: parameter %q is not key=value", name, kv)
			}
			if _, dup := params[k]; dup {
				return nil, fmt.Errorf("policy %s: parameter %q given twice", name, k)
			}
			params[k] = strings.TrimSpace(v)
		}
	}
	return def.make(params)
}

// SplitPolicies splits a comma-separated list of policy specifications,
// keeping a policy's own key=value parameters with it:
// "fsp+ps,las_mq:k=4,p=10,ps" → ["fsp+ps", "las_mq:k=4,p=10", "ps"].
func SplitPolicies(list string) []string {
	var out []string
	for _, part := range strings.Split(list, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		if len(out) > 0 && strings.Contains(part, "=") && !strings.Contains(part, ":") && strings.Contains(out[len(out)-1], ":") {
			out[len(out)-1] += "," + part
			continue
		}
		out = append(out, part)
	}
	return out
}
