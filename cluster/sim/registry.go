package sim

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Uses says what a policy reads besides each job's arrival and true size
// (the true size decides when a job completes; a policy that reads it for
// its decisions says so under Estimates, as every size-based policy sees
// only estimates). Callers ask it rather than keeping lists of names: a
// policy that uses no estimates gives the same result under every
// size-estimation error, so it need not be re-run with errors; one that
// uses no weights ignores users' weights and priorities.
type Uses struct {
	// Estimates: the policy reads Job.Estimate (SRPT, FSP, PFSP).
	Estimates bool `json:"estimates"`
	// Weights: the policy reads Job.Weight (GPS).
	Weights bool `json:"weights"`
	// Caps: the policy honours Job.Cap; the others reject capped jobs.
	Caps bool `json:"caps"`
	// Cluster: the policy needs the cluster spec's machine types and nodes
	// (task-level policies such as COSHH's routing); no fluid policy does.
	Cluster bool `json:"cluster"`
}

func (u Uses) String() string {
	var parts []string
	for _, f := range []struct {
		on   bool
		name string
	}{{u.Estimates, "size estimates"}, {u.Weights, "weights"}, {u.Caps, "rate caps"}, {u.Cluster, "cluster spec"}} {
		if f.on {
			parts = append(parts, f.name)
		}
	}
	if len(parts) == 0 {
		return "arrivals only"
	}
	return strings.Join(parts, ", ")
}

// PolicyInfo describes a registered policy.
type PolicyInfo struct {
	Name   string   `json:"name"`
	Doc    string   `json:"doc"`
	Params []string `json:"params,omitempty"` // parameter names, for "name:key=value,…"
	Uses   Uses     `json:"uses"`
}

// policyDef is a registry entry: what the policy is and a constructor
// from its name and parameters. The name is the entry's key in the
// registry, written nowhere else (LookupPolicy fills PolicyInfo.Name).
type policyDef struct {
	info PolicyInfo
	make func(name string, params map[string]string) (Policy, error)
}

var (
	estimates = Uses{Estimates: true}
	weights   = Uses{Weights: true, Caps: true}
	capsOnly  = Uses{Caps: true}
)

// registry holds the fluid policies. The task level's registry
// (cluster/task) refers to it for the policies both resolutions run: a
// task-level policy of a name registered here is its task-level form.
var registry = map[string]policyDef{
	"fifo":     simple("first in, first out", capsOnly, func() Policy { return &FIFO{} }),
	"ps":       simple("processor sharing: equal shares", capsOnly, func() Policy { return &PS{} }),
	"gps":      simple("generalised PS: shares proportional to job weights", weights, func() Policy { return &PS{Weighted: true} }),
	"srpt":     simple("shortest (estimated) remaining processing time", estimates, func() Policy { return &SRPT{} }),
	"srpt+ps":  simple("SRPT; late jobs share equally with the SRPT head", estimates, func() Policy { return &SRPT{LatePS: true} }),
	"fsp":      simple("FSP as in schedsim: same as fsp+fifo", estimates, func() Policy { return &FSP{} }),
	"fsp+fifo": simple("fair sojourn protocol; late jobs first, one at a time", estimates, func() Policy { return &FSP{} }),
	"fsp+ps":   simple("fair sojourn protocol; late jobs first, sharing equally", estimates, func() Policy { return &FSP{LatePS: true} }),
	"las":      simple("least attained service", Uses{}, func() Policy { return &LAS{} }),
	"las_mq": {PolicyInfo{Uses: capsOnly, Params: lasmqParams,
		Doc: "multi-level queue of Hu et al. (IEEE TCC 2019): k, alpha0, p, weights=w1/w2/..., decay, strict, order=fifo|ps|remaining|containers (in-level order; containers: Alg. 1 line 10); default k=10, alpha0=1, p=10, fifo (Hu et al.'s default: order=containers)"}, makeLASMQ},
	"pfsp": simple("parallel PFSP of Li et al. (TrustCom 2013) without the fair phase", estimates, func() Policy { return &PFSP{} }),
}

// lasmqQueueParams are LAS_MQ's parameters that shape its queues (number,
// thresholds, weights): ParseLASMQ reads them at both resolutions. The
// fluid LAS_MQ adds order (its in-level order), the task level its own.
var lasmqQueueParams = []string{"k", "alpha0", "p", "weights", "decay", "strict"}

var lasmqParams = append(slices.Clip(lasmqQueueParams), "order")

// LASMQQueueParams returns the names of LAS_MQ's parameters that shape its
// queues (k, alpha0, p, weights, decay, strict), which ParseLASMQ reads:
// the task-level LAS_MQ hands these to it and reads the others itself.
func LASMQQueueParams() []string { return slices.Clone(lasmqQueueParams) }

func simple(doc string, uses Uses, f func() Policy) policyDef {
	return policyDef{PolicyInfo{Doc: doc, Uses: uses}, NoParamsMaker(f)}
}

// NoParamsMaker returns the registry constructor of a policy that takes no
// parameters: f's policy, or an error naming the policy and one of the
// parameters given. Both registries (this one and cluster/task's) use it.
func NoParamsMaker[P any](f func() P) func(name string, params map[string]string) (P, error) {
	return func(name string, params map[string]string) (P, error) {
		for k := range params {
			var zero P
			return zero, fmt.Errorf("policy %s takes no parameters (got %q)", name, k)
		}
		return f(), nil
	}
}

// DefaultLASMQ returns LAS_MQ as Hu et al. set it in their trace-driven
// simulations (IEEE TCC 2019, §5.4.1: "the number of queues and steps are
// 10. The threshold of the first queue is 1"), with equal queue weights (the
// paper gives none) and each queue ordered as Alg. 1 line 10 orders it
// ("Sort jobs in Q_i according to the number of containers that would be
// used by their remaining tasks"): OrderContainers, which reads the jobs'
// container counts (known at submission, §4), not size estimates. Their
// testbed threshold of 100 belongs to the testbed's jobs; schedplan's sizes
// are in seconds, as the simulations' are.
//
// "las_mq" without parameters is the same queues in FIFO order: a
// specification that names no order means FIFO (Spec omits it), so that
// every configuration's Spec reads back as itself.
func DefaultLASMQ() *LASMQ { return &LASMQ{K: 10, Alpha0: 1, P: 10, Order: OrderContainers} }

func makeLASMQ(_ string, p map[string]string) (Policy, error) { return ParseLASMQ(p) }

// ParseLASMQ builds a LAS_MQ from its parameters (k, alpha0, p, weights,
// decay, strict, order; the rest DefaultLASMQ's, but FIFO order), as SplitSpec returns
// them: the one parser of these parameters, which the task-level LAS_MQ
// (cluster/task) uses for those it shares.
func ParseLASMQ(p map[string]string) (*LASMQ, error) {
	m := DefaultLASMQ()
	m.Order = "" // FIFO unless named (see DefaultLASMQ)
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
			return nil, fmt.Errorf("las_mq: unknown parameter %q (known: %s)", k, strings.Join(lasmqParams, ", "))
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

// Spec returns the policy specification that ParsePolicy turns back into
// this configuration (the one writer of the las_mq grammar). Weights of the
// form 1, d, d², … are written as decay=d (decay=0 means strict priority).
func (m *LASMQ) Spec() string {
	var b strings.Builder
	fmt.Fprintf(&b, "las_mq:k=%d,alpha0=%s,p=%s", m.K, fmtSpec(m.Alpha0), fmtSpec(m.P))
	d, isDecay := m.decay()
	switch {
	case isDecay:
		b.WriteString(",decay=" + fmtSpec(d))
	case m.Weights != nil:
		w := make([]string, len(m.Weights))
		for i, v := range m.Weights {
			w[i] = fmtSpec(v)
		}
		b.WriteString(",weights=" + strings.Join(w, "/"))
	}
	if m.Strict && !(isDecay && d == 0) {
		b.WriteString(",strict=true")
	}
	if m.Order != "" && m.Order != OrderFIFO {
		b.WriteString(",order=" + string(m.Order))
	}
	return b.String()
}

// decay returns d when the weights are exactly DecayWeights(K, d) for a d in
// [0, 1] and the strict flag is what decay=d implies (strict iff d = 0).
func (m *LASMQ) decay() (float64, bool) {
	if m.K < 2 || len(m.Weights) != m.K {
		return 0, false
	}
	d := m.Weights[1]
	if !(d >= 0 && d <= 1) || m.Strict != (d == 0) {
		return 0, false
	}
	return d, slices.Equal(DecayWeights(m.K, d), m.Weights)
}

func fmtSpec(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// SpecOf returns the specification of a policy: its Spec() when it has
// parameters, else its name. ParsePolicy(SpecOf(p)) builds a policy
// configured like p.
func SpecOf(p Policy) string {
	if s, ok := p.(interface{ Spec() string }); ok {
		return s.Spec()
	}
	return p.Name()
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
	return slices.Sorted(maps.Keys(registry))
}

// PolicyDoc returns a registered policy's one-line description.
func PolicyDoc(name string) string { return registry[name].info.Doc }

// LookupPolicy checks a policy specification (as ParsePolicy does) and
// returns what the registry says of the policy: its description, its
// parameters and what it uses (for LAS_MQ, what this configuration uses:
// its in-level order may read weights or estimates).
func LookupPolicy(spec string) (PolicyInfo, error) {
	name, _, err := parseSpec(spec)
	if err != nil {
		return PolicyInfo{}, err
	}
	p, err := ParsePolicy(spec)
	if err != nil {
		return PolicyInfo{}, err
	}
	info := registry[name].info
	info.Name = name
	if u, ok := p.(interface{ uses() Uses }); ok {
		info.Uses = u.uses() // what this configuration uses
	}
	return info, nil
}

// ParsePolicy builds a fresh policy from a specification "name" or
// "name:key=value,key=value", e.g. "las_mq:k=10,alpha0=1,p=10". Names are
// case-insensitive. An unknown name is an error that lists the known ones.
func ParsePolicy(spec string) (Policy, error) {
	name, params, err := parseSpec(spec)
	if err != nil {
		return nil, err
	}
	return registry[name].make(name, params)
}

// parseSpec splits a specification into a registered name and its
// parameters.
func parseSpec(spec string) (string, map[string]string, error) {
	name, params, err := SplitSpec(spec)
	if err != nil {
		return "", nil, err
	}
	if _, ok := registry[name]; !ok {
		return "", nil, fmt.Errorf("unknown policy %q (known: %s)", name, strings.Join(PolicyNames(), ", "))
	}
	return name, params, nil
}

// SplitSpec splits a policy specification "name" or
// "name:key=value,key=value" into its lower-cased name and parameters
// (keys lower-cased, values trimmed), whatever the name: the grammar of
// both registries, this fluid one and the task level's (cluster/task). A
// parameter that is not key=value or is given twice is an error.
func SplitSpec(spec string) (name string, params map[string]string, err error) {
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
