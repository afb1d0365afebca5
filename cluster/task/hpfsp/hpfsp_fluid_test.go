package hpfsp

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/schedplan/schedplan/cluster/sim"
)

// slackPFSP is the fluid parallel PFSP of sim.PFSP (seed 002 without the
// fair phase) with its slack bookkeeping done by SlackSystem: the virtual
// PS runs at the full capacity, the served job's w falls with its service,
// the completable job with the least w is served alone, late jobs go first
// and share the capacity (sim.PFSP's rule). Its events and their order are
// sim.PFSP's, so on the same jobs the two must give the same completions:
// this checks SlackSystem's slacks and completability against the fluid
// policy's own, computed by a scan in sim.PFSP.
type slackPFSP struct {
	jobs  []sim.Job
	c     float64
	now   float64
	x     *SlackSystem
	rem   []float64 // true remaining work; −1 once finished
	late  []int32   // late jobs, sharing the capacity
	key   []float64 // a late job's PS finish tag
	vLate float64

	served int
	nextT  float64
	kind   int // 0 virtual completion, 1 real completion, 2 late completion, 3 slack ahead used up, 4 estimate used up
}

func (*slackPFSP) Name() string { return "pfsp-slack-system" }

func (p *slackPFSP) Start(jobs []sim.Job, c float64) {
	n := len(jobs)
	p.jobs, p.c, p.now, p.vLate, p.served = jobs, c, 0, 0, -1
	p.rem, p.key, p.late = make([]float64, n), make([]float64, n), nil
	x, err := NewSlackSystem(SlackConfig{}, n)
	if err != nil {
		panic(err)
	}
	x.OnLate = func(j int) {
		p.late = append(p.late, int32(j))
		p.key[j] = p.vLate + p.rem[j]
	}
	p.x = x
	p.plan()
}

func (p *slackPFSP) must(err error) {
	if err != nil {
		panic(err)
	}
}

func (p *slackPFSP) Arrive(t float64, j int) {
	p.rem[j] = p.jobs[j].Size
	p.must(p.x.AddJob(j, p.jobs[j].Estimate, 1))
	if !p.x.IsLate(j) {
		p.must(p.x.SetRunnable(j, true))
	}
	p.plan()
}

// lateMin returns the late job with the least tag (ties: lower index).
func (p *slackPFSP) lateMin() int {
	best := -1
	for _, j := range p.late {
		if best < 0 || p.key[j] < p.key[best] || (p.key[j] == p.key[best] && int(j) < best) {
			best = int(j)
		}
	}
	return best
}

func (p *slackPFSP) plan() {
	p.served, p.nextT, p.kind = -1, math.Inf(1), -1
	if p.x.Len() > 0 {
		p.nextT, p.kind = p.now+p.x.NextVirtualWork()/p.c, 0
	}
	if n := len(p.late); n > 0 {
		if t := p.now + (p.key[p.lateMin()]-p.vLate)*float64(n)/p.c; t < p.nextT {
			p.nextT, p.kind = t, 2
		}
		return
	}
	best, ahead := p.x.BestCompletable()
	if best < 0 {
		return
	}
	p.served = best
	if t := p.now + p.rem[best]/p.c; t < p.nextT {
		p.nextT, p.kind = t, 1
	}
	w := p.x.Remaining(best)
	if w > 0 && w < p.rem[best] {
		if t := p.now + w/p.c; t < p.nextT {
			p.nextT, p.kind = t, 4
		}
	} else if w == 0 && !math.IsInf(ahead, 1) {
		if t := p.now + math.Max(ahead, 0)/p.c; t < p.nextT {
			p.nextT, p.kind = t, 3
		}
	}
}

func (p *slackPFSP) Next() float64 { return p.nextT }

func (p *slackPFSP) Advance(t float64, done func(int)) {
	if p.kind < 0 {
		p.now = t
		return
	}
	work := (t - p.now) * p.c
	if s := p.served; s >= 0 {
		p.rem[s] -= work
		served := work
		if p.kind == 4 && t >= p.nextT {
			// The estimate runs out: snap w to 0 (sim.PFSP snaps the
			// attained service to the estimate).
			served = math.Max(work, p.x.Remaining(s))
		}
		p.must(p.x.Serve(s, served))
	} else if n := len(p.late); n > 0 {
		p.vLate += work / float64(n)
	}
	if t >= p.nextT {
		switch p.kind {
		case 1:
			p.rem[p.served] = 0
		case 2:
			p.vLate = math.Max(p.vLate, p.key[p.lateMin()])
		case 4:
			s := p.served
			p.rem[s] = math.Min(p.rem[s], p.jobs[s].Size-p.jobs[s].Estimate)
		}
	}
	p.now = t
	if s := p.served; s >= 0 && p.rem[s] <= sim.Tol*p.jobs[s].Size {
		p.rem[s] = -1
		p.must(p.x.Finish(s))
		done(s)
	}
	for len(p.late) > 0 {
		j := p.lateMin()
		if p.key[j]-p.vLate > sim.Tol*p.jobs[j].Size {
			break
		}
		for i, k := range p.late {
			if int(k) == j {
				p.late = append(p.late[:i], p.late[i+1:]...)
				break
			}
		}
		p.rem[j] = -1
		p.must(p.x.Finish(j))
		done(j)
	}
	if len(p.late) == 0 {
		p.vLate = 0
	}
	if p.kind == 0 && t >= p.nextT {
		p.x.AdvanceVirtualToFront()
	} else {
		p.must(p.x.AdvanceVirtual(work))
	}
	p.plan()
}

// SlackSystem, driving a fluid PFSP, finishes every job when sim.PFSP
// does (to 1e-9), with exact and with log-normal estimates (seed 001's
// error model, σ up to 2), at two capacities.
func TestSlackSystemMatchesFluidPFSP(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 2013))
	for inst := 0; inst < 40; inst++ {
		sigma := []float64{0, 0.5, 1, 2}[inst%4]
		c := []float64{1, 3.7}[inst/4%2]
		n := 50 + rng.IntN(300)
		jobs := make([]sim.Job, n)
		at := 0.0
		for i := range jobs {
			s := math.Exp(rng.NormFloat64() * 2)
			if rng.IntN(20) == 0 {
				s = 0
			}
			if rng.IntN(10) != 0 {
				at += rng.ExpFloat64() * math.Exp(2) / (0.9 * c)
			}
			jobs[i] = sim.Job{Arrival: at, Size: s, Estimate: s * math.Exp(sigma*rng.NormFloat64())}
		}
		a, err := sim.Simulate(jobs, c, &sim.PFSP{})
		if err != nil {
			t.Fatal(err)
		}
		b, err := sim.Simulate(jobs, c, &slackPFSP{})
		if err != nil {
			t.Fatal(err)
		}
		for i := range jobs {
			x, y := a.Completion[i], b.Completion[i]
			if math.Abs(x-y) > 1e-9*math.Max(1, math.Max(math.Abs(x), math.Abs(y))) {
				t.Errorf("instance %d (σ %v, capacity %v): job %d completes at %v under sim.PFSP, %v with SlackSystem", inst, sigma, c, i, x, y)
				break
			}
		}
	}
}
