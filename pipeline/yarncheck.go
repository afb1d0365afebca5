package pipeline

import (
	"encoding/xml"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

var yarnValidName = regexp.MustCompile(`^[0-9A-Za-z][0-9A-Za-z_-]*$`)

// CheckCapacitySchedulerXML parses a capacity-scheduler.xml and checks the
// structural rules YARN enforces at start-up: valid queue and label names;
// every queue listed under a parent has a capacity; the capacities of
// siblings sum to 100 on the default partition and, for every label their
// parent can access, on that label; a queue accesses only labels its parent
// can access. It knows nothing of how the file was generated.
func CheckCapacitySchedulerXML(data []byte) error {
	var conf yarnConfiguration
	if err := xml.Unmarshal(data, &conf); err != nil {
		return fmt.Errorf("capacity-scheduler.xml: %w", err)
	}
	props := map[string]string{}
	for _, p := range conf.Properties {
		if _, dup := props[p.Name]; dup {
			return fmt.Errorf("property %s set twice", p.Name)
		}
		props[p.Name] = p.Value
	}
	const pre = "yarn.scheduler.capacity."
	num := func(key string) (float64, bool, error) {
		v, ok := props[pre+key]
		if !ok {
			return 0, false, nil
		}
		f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
		if err != nil || f < 0 || f > 100 {
			return 0, true, fmt.Errorf("%s%s = %q is not a percentage", pre, key, v)
		}
		return f, true, nil
	}
	labelsOf := func(path string) []string {
		v, ok := props[pre+path+".accessible-node-labels"]
		if !ok {
			return nil
		}
		out := []string{} // set but possibly empty: no labels
		for _, l := range strings.Split(v, ",") {
			if l = strings.TrimSpace(l); l != "" {
				out = append(out, l)
			}
		}
		return out
	}
	var walk func(path string, parentLabels []string) error
	walk = func(path string, parentLabels []string) error {
		children, ok := props[pre+path+".queues"]
		if !ok {
			return nil
		}
		names := strings.Split(children, ",")
		sums := map[string]float64{}
		for _, raw := range names {
			name := strings.TrimSpace(raw)
			if !yarnValidName.MatchString(name) {
				return fmt.Errorf("queue %q under %s: invalid name", name, path)
			}
			child := path + "." + name
			c, ok, err := num(child + ".capacity")
			if err != nil {
				return err
			}
			if !ok {
				return fmt.Errorf("queue %s has no capacity", child)
			}
			sums[""] += c
			labels := labelsOf(child)
			if labels == nil {
				labels = parentLabels // inherited
			}
			for _, l := range labels {
				if !contains(parentLabels, l) {
					return fmt.Errorf("queue %s accesses label %s, which its parent %s cannot", child, l, path)
				}
				lc, ok, err := num(child + ".accessible-node-labels." + l + ".capacity")
				if err != nil {
					return err
				}
				if !ok {
					return fmt.Errorf("queue %s accesses label %s without a capacity on it", child, l)
				}
				sums[l] += lc
			}
			if err := walk(child, labels); err != nil {
				return err
			}
		}
		keys := make([]string, 0, len(sums))
		for k := range sums {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, l := range keys {
			if math.Abs(sums[l]-100) > 1e-6 {
				what := "the default partition"
				if l != "" {
					what = "label " + l
				}
				return fmt.Errorf("children of %s: capacities on %s sum to %v, not 100", path, what, sums[l])
			}
		}
		return nil
	}
	rootLabels := labelsOf("root")
	for _, l := range rootLabels {
		if !yarnValidName.MatchString(l) {
			return fmt.Errorf("node label %q: invalid name", l)
		}
	}
	if _, ok := props[pre+"root.queues"]; !ok {
		return fmt.Errorf("no %sroot.queues", pre)
	}
	return walk("root", rootLabels)
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// CheckFairSchedulerXML parses a Fair Scheduler allocation file and checks
// queue names, weights, minResources and the placement policy's rules.
func CheckFairSchedulerXML(data []byte) error {
	var a fairAllocations
	if err := xml.Unmarshal(data, &a); err != nil {
		return fmt.Errorf("fair-scheduler.xml: %w", err)
	}
	minRes := regexp.MustCompile(`^\d+ mb, \d+ vcores$`)
	var check func(q fairQueue, path string) error
	check = func(q fairQueue, path string) error {
		if !yarnValidName.MatchString(q.Name) {
			return fmt.Errorf("queue %q under %s: invalid name", q.Name, path)
		}
		if q.Weight != "" {
			if w, err := strconv.ParseFloat(q.Weight, 64); err != nil || w < 0 {
				return fmt.Errorf("queue %s.%s: weight %q", path, q.Name, q.Weight)
			}
		}
		if q.MinResources != "" && !minRes.MatchString(q.MinResources) {
			return fmt.Errorf("queue %s.%s: minResources %q", path, q.Name, q.MinResources)
		}
		switch q.SchedulingPolicy {
		case "", "fair", "fifo", "drf":
		default:
			return fmt.Errorf("queue %s.%s: schedulingPolicy %q", path, q.Name, q.SchedulingPolicy)
		}
		seen := map[string]bool{}
		for _, c := range q.Queues {
			if seen[c.Name] {
				return fmt.Errorf("queue %s.%s: child %s twice", path, q.Name, c.Name)
			}
			seen[c.Name] = true
			if err := check(c, path+"."+q.Name); err != nil {
				return err
			}
		}
		return nil
	}
	for _, q := range a.Queues {
		if err := check(q, ""); err != nil {
			return err
		}
	}
	if len(a.Placement.Rules) == 0 {
		return fmt.Errorf("fair-scheduler.xml: no queuePlacementPolicy rules")
	}
	last := a.Placement.Rules[len(a.Placement.Rules)-1].Name
	if last != "default" && last != "reject" {
		return fmt.Errorf("fair-scheduler.xml: the last placement rule is %q; it must be terminal (default or reject)", last)
	}
	return nil
}
