package data

import (
	"embed"
	"fmt"
	"sort"
	"strings"
)

//go:embed traces/*.tsv traces/SWIM-LICENSE
var traceFS embed.FS

// Embedded traces, by name. "embedded" alone means DefaultTrace.
var embeddedTraces = map[string]string{
	"fb2009":    "traces/FB-2009_samples_24_times_1hr_0.tsv",
	"fb2009-50": "traces/FB-2009_samples_24_times_1hr_0_first50jobs.tsv",
}

// DefaultTrace is the embedded trace used when none is named: the SWIM
// Facebook 2009 sample, 5,894 jobs over 24 hours.
const DefaultTrace = "fb2009"

// EmbeddedNames lists the names accepted by Open after "embedded:".
func EmbeddedNames() []string {
	var names []string
	for n := range embeddedTraces {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// SWIMLicense returns the license of the embedded SWIM traces.
func SWIMLicense() string {
	b, _ := traceFS.ReadFile("traces/SWIM-LICENSE")
	return string(b)
}

// Open reads a job log named by spec: "embedded" (the default trace),
// "embedded:NAME" (see EmbeddedNames), or a file path.
func Open(spec string, opt ReadOptions) (*Jobs, error) {
	if spec == "embedded" || strings.HasPrefix(spec, "embedded:") {
		name := strings.TrimPrefix(strings.TrimPrefix(spec, "embedded"), ":")
		if name == "" {
			name = DefaultTrace
		}
		p, ok := embeddedTraces[name]
		if !ok {
			return nil, fmt.Errorf("no embedded trace %q; have %s", name, strings.Join(EmbeddedNames(), ", "))
		}
		b, err := traceFS.ReadFile(p)
		if err != nil {
			return nil, err
		}
		opt.Format = FormatTSV
		return ReadBytes(b, "embedded:"+name, opt)
	}
	return ReadFile(spec, opt)
}
