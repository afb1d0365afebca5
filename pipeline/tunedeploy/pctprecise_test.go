package tunedeploy

import "testing"

func TestPctPrecise(t *testing.T) {
	for _, c := range []struct {
		x    float64
		want string
	}{{0, "+0.00%"}, {-0.0432, "-4.32%"}, {3.633e-5, "+0.0036%"}, {-1e-7, "-1e-05%"}, {0.5, "+50.00%"}} {
		if got := pctPrecise(c.x); got != c.want {
			t.Errorf("pctPrecise(%g) = %q, want %q", c.x, got, c.want)
		}
	}
}
