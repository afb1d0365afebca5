package sim

import "testing"

// FuzzParsePolicy: any specification either parses into a policy that
// simulates a small instance, or is an error; never a panic.
func FuzzParsePolicy(f *testing.F) {
	for _, s := range []string{"fifo", "las_mq:k=10,alpha0=100,p=10", "las_mq:k=2,alpha0=1,strict=true", "las_mq:weights=4/2/1,k=3", "las_mq:decay=0.5", "fsp+ps", "PFSP", "las_mq:k=1e9", "las_mq:k=-1", "x:y", "las_mq:,", ":"} {
		f.Add(s)
	}
	jobs := []Job{{Arrival: 0, Size: 4, Estimate: 3}, {Arrival: 1, Size: 4, Estimate: 5}, {Arrival: 2, Size: 1, Estimate: 1}}
	f.Fuzz(func(t *testing.T, spec string) {
		p, err := ParsePolicy(spec)
		if err != nil {
			return
		}
		if _, err := Simulate(jobs, 1, p); err != nil {
			t.Fatalf("%q parsed but failed: %v", spec, err)
		}
	})
}
