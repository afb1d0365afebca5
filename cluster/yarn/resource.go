package yarn

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/schedplan/schedplan/internal/lazyre"
)

// Resource is a Fair Scheduler resource setting (minResources,
// maxResources, maxChildResources, maxContainerAllocation,
// queueMaxResourcesDefault) as
// FairSchedulerConfiguration.parseResourceConfigValue reads it: absolute
// amounts ("1024 mb, 2 vcores" or "memory-mb=1024, vcores=2") or
// percentages of the cluster ("50%", "40% memory, 60% cpu",
// "memory-mb=40%, vcores=60%").
type Resource struct {
	// Percent says the amounts are fractions (0–1) of the cluster's
	// resources, in MemoryPercent and VCoresPercent.
	Percent                      bool
	MemoryPercent, VCoresPercent float64
	// MemoryMB and VCores are the absolute amounts. A new-style value that
	// omits a resource gives it the "missing" amount (0 for minResources,
	// math.MaxInt64 otherwise).
	MemoryMB, VCores int64
	// Other holds other resource types of a new-style value.
	Other map[string]int64
	Raw   string
}

// String renders an absolute resource in the old style Hadoop reads
// ("1024 mb, 2 vcores") and a percentage as "X% memory, Y% cpu".
func (r Resource) String() string {
	if r.Percent {
		return fmt.Sprintf("%s%% memory, %s%% cpu", fmtFloat(r.MemoryPercent*100), fmtFloat(r.VCoresPercent*100))
	}
	return fmt.Sprintf("%d mb, %d vcores", r.MemoryMB, r.VCores)
}

func fmtFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

var (
	percentRe        = `^(-?(\d+)(\.\d*)?)\s*%\s*`
	valueRe          = `^(-?\d+)(\.\d*)?\s*`
	spaceSeparatedRe = lazyre.New(`-?\d+(?:\.\d*)?\s*[a-z]+\s*`)
)

// ParseResource parses a resource value as
// FairSchedulerConfiguration.parseResourceConfigValue(value, missing) does;
// resourceTypes are the resource types the cluster knows besides memory-mb
// and vcores (new-style values naming others are refused, as Hadoop refuses
// them).
func ParseResource(value string, missing int64, resourceTypes ...string) (Resource, error) {
	r := Resource{Raw: value}
	if strings.TrimSpace(value) == "" {
		return r, hadoopErrorf("Error reading resource config--the resource string is empty")
	}
	switch {
	case strings.Contains(value, "="):
		return parseNewStyle(r, value, missing, resourceTypes)
	case strings.Contains(value, "%"):
		values := strings.Split(strings.ToLower(value), ",")
		r.Percent = true
		if len(values) == 1 {
			p, err := findPercentage(values[0], "", false)
			r.MemoryPercent, r.VCoresPercent = p, p
			return r, err
		}
		var err error
		if r.MemoryPercent, err = findPercentageIn(values, "memory"); err != nil {
			return r, err
		}
		r.VCoresPercent, err = findPercentageIn(values, "cpu")
		return r, err
	}
	lower := strings.ToLower(value)
	parts := strings.Split(lower, ",")
	if len(parts) != 2 {
		parts = spaceSeparatedRe().FindAllString(lower, -1)
		if len(parts) != 2 {
			return r, hadoopErrorf("Cannot parse resource values from input: %s", value)
		}
	}
	mem, err := findResource(parts, "mb")
	if err != nil {
		return r, err
	}
	if mem < 0 {
		return r, hadoopErrorf("Invalid value of memory: %d, value should not be negative!", mem)
	}
	vc, err := findResource(parts, "vcores")
	if err != nil {
		return r, err
	}
	if vc < 0 {
		return r, hadoopErrorf("Invalid value of vcores: %d, value should not be negative!", vc)
	}
	r.MemoryMB, r.VCores = mem, vc
	return r, nil
}

func parseNewStyle(r Resource, value string, missing int64, types []string) (Resource, error) {
	asPercent := strings.Contains(value, "%")
	r.Percent = asPercent
	if !asPercent {
		r.MemoryMB, r.VCores = missing, missing
	} else {
		r.MemoryPercent, r.VCoresPercent = 0, 0
	}
	bad := func(msg string) (Resource, error) {
		return r, hadoopErrorf("Error reading resource config--invalid resource definition: %s. %s", value, msg)
	}
	for _, res := range strings.Split(value, ",") {
		parts := strings.Split(res, "=")
		if len(parts) != 2 {
			return bad("Every resource must be of the form: name=value.")
		}
		name, val := strings.TrimSpace(parts[0]), strings.TrimSpace(parts[1])
		known := name == "memory-mb" || name == "vcores" || contains(types, name)
		if !known {
			return bad(fmt.Sprintf("The resource name, %q was not recognized.", name))
		}
		if asPercent {
			p, err := findPercentage(val, name, false)
			if err != nil {
				return bad(fmt.Sprintf("The resource values must all be percentages. %q is either not a non-negative number or does not include the '%%' symbol.", val))
			}
			switch name {
			case "memory-mb":
				r.MemoryPercent = p
			case "vcores":
				r.VCoresPercent = p
			}
			continue
		}
		v, ok := parseJavaLong(val)
		if !ok {
			return bad(fmt.Sprintf("The resource values must all be integers. %q is not an integer.", val))
		}
		if v < 0 {
			return r, hadoopErrorf("Invalid value of %s: %d, value should not be negative!", name, v)
		}
		switch name {
		case "memory-mb":
			r.MemoryMB = v
		case "vcores":
			r.VCores = v
		default:
			if r.Other == nil {
				r.Other = map[string]int64{}
			}
			r.Other[name] = v
		}
	}
	return r, nil
}

// findPercentageIn is findPercentage(String[], resource): the first value
// that contains the resource's name.
func findPercentageIn(values []string, resource string) (float64, error) {
	for _, v := range values {
		if strings.Contains(v, resource) {
			return findPercentage(strings.TrimSpace(v), resource, true)
		}
	}
	return 0, hadoopErrorf("Missing resource: %s", resource)
}

func findPercentage(value, resource string, withName bool) (float64, error) {
	pat := percentRe
	if withName {
		pat += regexp.QuoteMeta(resource)
	}
	m := regexp.MustCompile(pat + `$`).FindStringSubmatch(value)
	if m == nil {
		if resource == "" {
			return 0, hadoopErrorf("Invalid percentage: %s", value)
		}
		return 0, hadoopErrorf("Invalid percentage of %s: %s", resource, value)
	}
	p, ok := parseJavaDouble(m[1])
	if !ok || math.IsInf(p, 0) {
		return 0, hadoopErrorf("Invalid percentage: %s", value)
	}
	p /= 100
	if p < 0 {
		return 0, hadoopErrorf("Invalid percentage: %s, percentage should not be negative!", value)
	}
	return p, nil
}

// findResource is FairSchedulerConfiguration.findResource: the first value
// containing the unit, "<integer>[.fraction] <unit>", as a 32-bit int.
func findResource(values []string, unit string) (int64, error) {
	name := unit
	if unit == "mb" {
		name = "memory"
	}
	for _, v := range values {
		if !strings.Contains(v, unit) {
			continue
		}
		v = strings.TrimSpace(v)
		m := regexp.MustCompile(valueRe + regexp.QuoteMeta(unit)).FindStringSubmatch(v)
		if m == nil {
			return 0, hadoopErrorf("Invalid value of %s: %s", name, v)
		}
		n, ok := parseJavaInt(m[1])
		if !ok {
			return 0, hadoopErrorf("Invalid value of %s: %s (not a 32-bit integer)", name, v)
		}
		return n, nil
	}
	return 0, hadoopErrorf("Missing resource: %s", unit)
}
