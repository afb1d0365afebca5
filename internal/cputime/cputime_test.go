package cputime

import (
	"os"
	"testing"
	"time"
)

func TestParseStat(t *testing.T) {
	for _, c := range []struct {
		line string
		want time.Duration
		ok   bool
	}{
		{"1234 (schedplan) R 1 1234 1234 0 -1 4194304 100 0 0 0 250 50 0 0 20 0 3 0", 3 * time.Second, true},
		{"1234 (a b) c)) S 1 1234 1234 0 -1 4194304 100 0 0 0 7 3 0 0 20 0 3 0", 100 * time.Millisecond, true},
		{"1234 schedplan R 1", 0, false},
		{"1234 (x) R 1 2 3", 0, false},
		{"1234 (x) R 1 1234 1234 0 -1 4194304 100 0 0 0 x 3 0 0", 0, false},
	} {
		got, err := parseStat(c.line)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("parseStat(%q) = %v, %v; want %v, ok %v", c.line, got, err, c.want, c.ok)
		}
	}
}

// Spinning for a while shows up in Self and in Of(own pid).
func TestSelfAndOfCountWork(t *testing.T) {
	s0 := Self()
	o0, err := Of(os.Getpid())
	if err != nil {
		t.Skip("no /proc:", err)
	}
	x := 0.0
	for start := time.Now(); time.Since(start) < 200*time.Millisecond; {
		for i := 0; i < 1000; i++ {
			x += float64(i)
		}
	}
	_ = x
	s1 := Self()
	o1, _ := Of(os.Getpid())
	if d := s1 - s0; d <= 0 {
		t.Errorf("Self grew by %v over 200 ms of spinning", d)
	}
	if o1 < o0 {
		t.Errorf("Of went back: %v then %v", o0, o1)
	}
}
