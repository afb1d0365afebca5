package task

// LAS gives every free container to the job with the least attained
// service (containers × time held, seed 000 eq. 6), as of the job's last
// task start or end (refreshed at the job's own events). It needs no size
// estimate. O(log n) per decision and notification (jobOrder).
type LAS struct{ jobOrder }

func (*LAS) Name() string { return "las" }

func (p *LAS) Start(s *State) error {
	p.start(s, func(j int) key { return key{s.Service(j), 0} }, true)
	return nil
}
