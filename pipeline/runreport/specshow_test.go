package runreport

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/schedplan/schedplan/pipeline/report"
	"github.com/schedplan/schedplan/pipeline/validation"
)

func TestShownSpec(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"las_mq:k=6,alpha0=0.023353970614622185,p=13.24047850025826,decay=0.5,order=ps", "las_mq:k=6,alpha0=0.02335,p=13.24,decay=0.5,order=ps"},
		{"las_mq:k=6,alpha0=1.261114413189598,p=13.24047850025826,decay=0.5,order=remaining,limit=0", "las_mq:k=6,alpha0=1.261,p=13.24,decay=0.5,order=remaining,limit=0"},
		{"las_mq:k=3,alpha0=1,p=10,weights=1/0.333333333333/0.1111111111", "las_mq:k=3,alpha0=1,p=10,weights=1/0.3333/0.1111"},
		{"las_mq:k=2,alpha0=123456789,p=2", "las_mq:k=2,alpha0=1.235e+08,p=2"},
		{"fair:file=/a/b-1.5/fair-scheduler.xml", "fair:file=/a/b-1.5/fair-scheduler.xml"},
		{"capacity:queues=a:60:100/b:40", "capacity:queues=a:60:100/b:40"},
		{"hpfsp:fair_limit=1,threshold=0.95", "hpfsp:fair_limit=1,threshold=0.95"},
		{"fifo", "fifo"},
		{"coshh, exec-time model", "coshh, exec-time model"},
	} {
		if got := report.ShownSpec(c.in); got != c.want {
			t.Errorf("shownSpec(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// longFloat matches a parameter value with more than 4 significant
// figures, as strconv's shortest form writes most float64s (issue 29).
var longFloat = regexp.MustCompile(`=0*\.?0*[1-9][0-9]*\.?[0-9]*`)

// hasLongFloat reports whether line has a parameter value of more than 4
// significant figures.
func hasLongFloat(line string) bool {
	for _, m := range longFloat.FindAllString(line, -1) {
		digits := strings.TrimLeft(strings.NewReplacer("=", "", ".", "").Replace(m), "0")
		if len(digits) > 4 && strings.Contains(m, ".") {
			return true
		}
	}
	return false
}

// The run's console shows policy specifications at 4 significant figures
// (the tuned LAS_MQ line, the task-level table's policy column), while
// summary.json keeps the exact specification.
func TestRunTextShortSpecs(t *testing.T) {
	exact := "las_mq:k=6,alpha0=0.023353970614622185,p=13.24047850025826,decay=0.5,order=ps"
	task := "las_mq:k=6,alpha0=1.261114413189598,p=13.24047850025826,decay=0.5,order=remaining,limit=0"
	res := &RunResult{TunedSpec: exact, TaskValidation: &validation.TaskValidation{Rows: []validation.ValidationRow{{Name: validation.TaskTunedName, Policy: task}}}}
	var b bytes.Buffer
	res.WriteText(&b, t.TempDir(), 0)
	for _, want := range []string{"alpha0=0.02335,p=13.24,", "alpha0=1.261,p=13.24,"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("console lacks %q", want)
		}
	}
	for _, line := range strings.Split(b.String(), "\n") {
		if hasLongFloat(line) {
			t.Errorf("console line with a raw float: %s", line)
		}
	}
}
