package task

// SRPT gives every free container to the job with the shortest estimated
// remaining work: Estimate − Attained (container-seconds at exec_rate 1),
// as of the job's last task start or end (a job's key is refreshed at its
// own events, as a YARN scheduler sees progress; between them a running
// job's remaining work is overstated by at most its running tasks' work).
// With exact estimates (Estimate = Work) it is seed 000's IDEAL baseline.
// O(log n) per decision and notification (jobOrder).
type SRPT struct{ jobOrder }

func (*SRPT) Name() string { return "srpt" }

func (p *SRPT) Start(s *State) error {
	p.start(s, func(j int) key { return key{s.Estimate(j) - s.Attained(j), 0} }, true)
	return nil
}
