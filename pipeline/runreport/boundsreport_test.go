package runreport

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/tasklevel"
)

// bounds --json states the window's offered load (null when undefined)
// and whether it is overloaded, as every other simulated view does.
func TestBoundsReportStatesLoad(t *testing.T) {
	for _, tc := range []struct {
		load float64
		want string
	}{{1.5, `"offered_load":1.5,"overloaded":true`}, {0.5, `"offered_load":0.5,"overloaded":false`}, {math.NaN(), `"offered_load":null,"overloaded":false`}} {
		w := &tasklevel.Window{Log: &data.Jobs{Source: "x"}, Name: "all", OfferedLoad: tc.load}
		b, err := json.Marshal(NewBoundsReport(w, &experiment.Bounds{}, nil))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), tc.want) {
			t.Errorf("load %v: %s, want %s", tc.load, b, tc.want)
		}
	}
}
