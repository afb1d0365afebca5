package yarn

import (
	"fmt"
	"strings"
	"testing"
)

// UserQueueName is the Fair Scheduler's user queue, or an error for a name
// an allocation file cannot carry.
func TestUserQueueName(t *testing.T) {
	for _, tc := range []struct{ user, want string }{
		{"alice", "alice"},
		{"a.b", "a_dot_b"},
		{" bob ", "bob"},
		{"", ""},
		{" \t", ""},
		{"x\x01y", ""},
		{"bad\xffutf8", ""},
	} {
		got, err := UserQueueName(tc.user)
		if tc.want == "" {
			if err == nil || !strings.Contains(err.Error(), "no usable queue name") {
				t.Errorf("%q: %q, %v, want an error", tc.user, got, err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%q: %q, %v, want %q", tc.user, got, err, tc.want)
		}
	}
}

// An allocation file of more than MaxQueues queues is refused when parsed
// (issue 26: 200,000 queues had no bound).
func TestFairSchedulerMaxQueues(t *testing.T) {
	var b strings.Builder
	b.WriteString("<allocations>\n")
	for i := range MaxQueues + 1 {
		fmt.Fprintf(&b, "<queue name=\"q%d\"/>\n", i)
	}
	b.WriteString("</allocations>\n")
	if _, err := ParseFairScheduler([]byte(b.String())); err == nil || !strings.Contains(err.Error(), "at most 100000") {
		t.Errorf("%d queues: %v, want refused", MaxQueues+2, err)
	}
}
