package sim

import (
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// Every policy's specification parses back into the same configuration;
// for LAS_MQ over the forms its grammar has (seed 000 §3.6: k, α_0, p and
// queue weights; decay as geometric weights; strict priority).
func TestSpecRoundTrip(t *testing.T) {
	specs := append(PolicyNames(),
		"las_mq:k=4,alpha0=0.5,p=3",
		"las_mq:k=4,alpha0=0.5,p=3,decay=0.5",
		"las_mq:k=4,alpha0=0.5,p=3,decay=0",
		"las_mq:k=4,alpha0=0.5,p=3,decay=1",
		"las_mq:k=3,alpha0=2,p=4,weights=1/0/0",                 // not strict, though it behaves alike
		"las_mq:k=3,alpha0=2,p=4,weights=4/2/1",                 // not of the decay form (w0 ≠ 1)
		"las_mq:k=3,alpha0=2,p=4,weights=1/0.5/0.3,strict=true", // strict with weights
		"las_mq:k=3,alpha0=2,p=4,strict=true",
		"las_mq:k=1",
		"las_mq:k=2,alpha0=0.1,p=1.0000000000000002,decay=0.30000000000000004",
	)
	for _, s := range specs {
		p, err := ParsePolicy(s)
		if err != nil {
			t.Fatalf("%s: %v", s, err)
		}
		back := SpecOf(p)
		q, err := ParsePolicy(back)
		if err != nil {
			t.Fatalf("%s → %s: %v", s, back, err)
		}
		if !reflect.DeepEqual(p, q) {
			t.Errorf("%s → %s parses to %+v, want %+v", s, back, q, p)
		}
		if SpecOf(q) != back {
			t.Errorf("%s: spec %q is not a fixed point (%q)", s, back, SpecOf(q))
		}
	}
	if got := DefaultLASMQ().Spec(); got != "las_mq:k=10,alpha0=1,p=10,order=containers" {
		t.Errorf("default LAS_MQ spec %q", got)
	}
	if got := (&LASMQ{K: 3, Alpha0: 0.5, P: 4, Weights: DecayWeights(3, 0.5)}).Spec(); got != "las_mq:k=3,alpha0=0.5,p=4,decay=0.5" {
		t.Errorf("decay weights written as %q", got)
	}
}

// Hu et al., IEEE TCC 2019, §5.4.1: the trace simulations use 10 queues,
// step 10 and a first threshold of 1; Alg. 1 line 10 orders a queue by
// remaining containers. Its Spec reads back as itself; "las_mq" alone is
// the same queues in FIFO order.
func TestDefaultLASMQIsTheTraceSimulationSetting(t *testing.T) {
	m := DefaultLASMQ()
	if m.K != 10 || m.Alpha0 != 1 || m.P != 10 || m.Weights != nil || m.Strict || m.Order != OrderContainers {
		t.Errorf("default %+v", m)
	}
	p, err := ParsePolicy(m.Spec())
	if err != nil || !reflect.DeepEqual(p, m) {
		t.Errorf("%q parses to %+v (%v)", m.Spec(), p, err)
	}
	fifo := *m
	fifo.Order = ""
	p, err = ParsePolicy("las_mq")
	if err != nil || !reflect.DeepEqual(p, &fifo) {
		t.Errorf(`"las_mq" parses to %+v (%v), want %+v`, p, err, &fifo)
	}
}

// What the registry declares each policy uses is checked against what the
// policy does on random jobs: a policy that declares no estimates gives
// identical completions under σ = 0 and σ = 1 (log-normal errors, seed 001
// §3.2), one that declares them differs on some instance; the same for
// weights; a policy declares caps exactly when it accepts capped jobs; no
// fluid policy needs a cluster spec.
func TestDeclaredUsesMatchBehaviour(t *testing.T) {
	completions := func(jobs []Job, spec string) ([]float64, error) {
		p, err := ParsePolicy(spec)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Simulate(jobs, 2, p)
		if err != nil {
			return nil, err
		}
		return r.Completion, nil
	}
	for _, name := range PolicyNames() {
		info, err := LookupPolicy(name)
		if err != nil {
			t.Fatal(err)
		}
		if info.Name != name || info.Doc == "" {
			t.Errorf("%s: info %+v", name, info)
		}
		if info.Uses.Cluster {
			t.Errorf("%s: a fluid policy declares a cluster spec", name)
		}
		estDiffers, wDiffers := false, false
		for seed := uint64(1); seed <= 6; seed++ {
			rng := rand.New(rand.NewPCG(seed, 11))
			base := make([]Job, 120)
			at := 0.0
			for i := range base {
				at += rng.ExpFloat64() * 1.5
				s := math.Exp(rng.NormFloat64())
				base[i] = Job{Arrival: at, Size: s, Estimate: s, Weight: 1}
			}
			noisy, weighted := slices.Clone(base), slices.Clone(base)
			for i := range noisy {
				noisy[i].Estimate *= math.Exp(rng.NormFloat64()) // σ = 1
				weighted[i].Weight = float64(1 + rng.IntN(5))
			}
			a, err := completions(base, name)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := completions(noisy, name)
			c, _ := completions(weighted, name)
			if !info.Uses.Estimates && !slices.Equal(a, b) {
				t.Errorf("%s declares no size estimates but its completions change under σ = 1 (seed %d)", name, seed)
			}
			if !info.Uses.Weights && !slices.Equal(a, c) {
				t.Errorf("%s declares no weights but its completions change with weights (seed %d)", name, seed)
			}
			estDiffers = estDiffers || !slices.Equal(a, b)
			wDiffers = wDiffers || !slices.Equal(a, c)
			capped := slices.Clone(base)
			capped[0].Cap = 0.5
			_, err = completions(capped, name)
			if info.Uses.Caps != (err == nil) {
				t.Errorf("%s declares caps %v but a capped job gives error %v", name, info.Uses.Caps, err)
			}
		}
		if info.Uses.Estimates && !estDiffers {
			t.Errorf("%s declares size estimates but never reacts to them", name)
		}
		if info.Uses.Weights && !wDiffers {
			t.Errorf("%s declares weights but never reacts to them", name)
		}
	}
}

func TestLookupPolicy(t *testing.T) {
	if _, err := LookupPolicy("las_mq:k=0"); err == nil {
		t.Error("an invalid configuration was looked up")
	}
	if _, err := LookupPolicy("nope"); err == nil || !strings.Contains(err.Error(), "known: fifo") {
		t.Errorf("unknown policy: %v", err)
	}
	info, err := LookupPolicy("FSP+PS")
	if err != nil || !info.Uses.Estimates || info.Name != "fsp+ps" {
		t.Errorf("fsp+ps: %+v %v", info, err)
	}
	if s := (Uses{}).String(); s != "arrivals only" {
		t.Errorf("Uses{} = %q", s)
	}
}
