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

// This file renders a Bundle as YARN scheduler configuration:
// capacity-scheduler.xml (Capacity Scheduler with node labels) and
// fair-scheduler.xml (a Fair Scheduler allocation file).

// yarnProperty is one <property> of a Hadoop configuration file.
type yarnProperty struct {
	Name        string `xml:"name"`
	Value       string `xml:"value"`
	Description string `xml:"description,omitempty"`
}

// yarnConfiguration is a Hadoop configuration file.
type yarnConfiguration struct {
	XMLName    xml.Name       `xml:"configuration"`
	Properties []yarnProperty `xml:"property"`
}

var yarnNameRe = regexp.MustCompile(`[^0-9A-Za-z_-]`)

// YARNName turns s into a valid YARN queue or node-label name: letters,
// digits, '-' and '_', starting with a letter or digit ('.' separates queue
// path components in YARN and is never allowed in a name).
func YARNName(s string) string {
	n := yarnNameRe.ReplaceAllString(s, "_")
	if n == "" || n[0] == '_' || n[0] == '-' {
		n = "q" + n
	}
	return n
}

// percentages splits 100 in proportion to w, to two decimals, so that the
// parts sum to exactly 100.00 (largest-remainder rounding). All-zero (or
// empty) weights split evenly. The result is in hundredths of a percent.
func percentages(w []float64) []int {
	n := len(w)
	out := make([]int, n)
	if n == 0 {
		return out
	}
	total := 0.0
	for _, v := range w {
		if v > 0 && !math.IsInf(v, 0) {
			total += v
		}
	}
	type rem struct {
		i int
		r float64
	}
	rems := make([]rem, n)
	given := 0
	for i, v := range w {
		var exact float64
		if total > 0 {
			if v > 0 && !math.IsInf(v, 0) {
				exact = 10000 * v / total
			}
		} else {
			exact = 10000 / float64(n)
		}
		out[i] = int(math.Floor(exact))
		given += out[i]
		rems[i] = rem{i, exact - float64(out[i])}
	}
	sort.SliceStable(rems, func(a, b int) bool { return rems[a].r > rems[b].r })
	for k := 0; given < 10000; k = (k + 1) % n {
		out[rems[k].i]++
		given++
	}
	return out
}

func fmtPercent(hundredths int) string {
	return strconv.FormatFloat(float64(hundredths)/100, 'f', -1, 64)
}

// CapacitySchedulerXML renders the bundle as a capacity-scheduler.xml:
//   - every machine type is a node label; root may access all of them;
//   - every job class is a queue under root; its capacity on the default
//     partition is its share of the offered work (α × mean size), and its
//     capacity on label t is its share of the COSHH allocation of type t
//     (δ_it / Σ_i δ_it); a class gets access to the labels where that share is
//     positive. A type the LP leaves unused is split by work share too;
//   - with LAS_MQ, each class queue has one child queue per level (l0 is the
//     highest priority) whose capacities are the queue weights, on every
//     partition the class can use; the demotion thresholds are written beside
//     them as schedplan.las-mq.* properties, read by the controller that moves
//     applications between levels (YARN itself ignores them).
//
// Sibling capacities sum to exactly 100 on every partition, as YARN requires.
func CapacitySchedulerXML(b *Bundle) ([]byte, error) {
	var props []yarnProperty
	add := func(name, value, desc string) {
		props = append(props, yarnProperty{Name: name, Value: value, Description: desc})
	}
	const pre = "yarn.scheduler.capacity."

	labels := make([]string, len(b.Cluster.Resources))
	for t, r := range b.Cluster.Resources {
		labels[t] = YARNName(r.Name)
	}
	type queue struct {
		name     string
		capacity int         // default partition, hundredths of a percent
		label    map[int]int // type index → capacity on that label
	}
	var queues []queue
	if len(b.Classes) == 0 {
		q := queue{name: "default", capacity: 10000, label: map[int]int{}}
		for t := range labels {
			q.label[t] = 10000
		}
		queues = append(queues, q)
	} else {
		work := make([]float64, len(b.Classes))
		seen := map[string]bool{}
		for i, c := range b.Classes {
			work[i] = c.Alpha * c.MeanSize
			name := YARNName(c.Name)
			if seen[name] {
				return nil, fmt.Errorf("capacity-scheduler.xml: two classes map to queue name %q", name)
			}
			seen[name] = true
			queues = append(queues, queue{name: name, label: map[int]int{}})
		}
		for i, p := range percentages(work) {
			queues[i].capacity = p
		}
		for t := range labels {
			share := make([]float64, len(b.Classes))
			used := 0.0
			if cp := b.Capacity; cp != nil && t < len(cp.Allocation) {
				for i := range share {
					if i < len(cp.Allocation[t]) {
						share[i] = cp.Allocation[t][i]
						used += share[i]
					}
				}
			}
			if !(used > 0) {
				copy(share, work)
			}
			for i, p := range percentages(share) {
				if p > 0 {
					queues[i].label[t] = p
				}
			}
		}
	}

	names := make([]string, len(queues))
	for i, q := range queues {
		names[i] = q.name
	}
	add(pre+"root.queues", strings.Join(names, ","), "one queue per job class (schedplan classes)")
	if len(labels) > 0 {
		add(pre+"root.accessible-node-labels", strings.Join(labels, ","), "one node label per machine type")
		for _, l := range labels {
			add(pre+"root.accessible-node-labels."+l+".capacity", "100", "")
		}
	}
	var levels []int
	if l := b.LASMQ; l != nil && l.K > 1 {
		levels = percentages(l.Weights)
	}
	for _, q := range queues {
		path := "root." + q.name
		add(pre+path+".capacity", fmtPercent(q.capacity), "share of the offered work")
		add(pre+path+".maximum-capacity", "100", "")
		var acc []string
		var accIdx []int
		for t := range labels {
			if _, ok := q.label[t]; ok {
				acc = append(acc, labels[t])
				accIdx = append(accIdx, t)
			}
		}
		if len(acc) == 0 {
			add(pre+path+".accessible-node-labels", " ", "no machine type is allocated to this class")
		} else {
			add(pre+path+".accessible-node-labels", strings.Join(acc, ","), "machine types the COSHH LP suggests for this class")
		}
		for _, t := range accIdx {
			add(pre+path+".accessible-node-labels."+labels[t]+".capacity", fmtPercent(q.label[t]), "share of the COSHH allocation of this machine type")
			add(pre+path+".accessible-node-labels."+labels[t]+".maximum-capacity", "100", "")
		}
		if levels == nil {
			continue
		}
		lv := make([]string, len(levels))
		for k := range levels {
			lv[k] = "l" + strconv.Itoa(k)
		}
		add(pre+path+".queues", strings.Join(lv, ","), "LAS_MQ levels, l0 = highest priority")
		for k, p := range levels {
			lp := path + "." + lv[k]
			add(pre+lp+".capacity", fmtPercent(p), "LAS_MQ queue weight")
			add(pre+lp+".maximum-capacity", "100", "")
			if len(acc) > 0 {
				add(pre+lp+".accessible-node-labels", strings.Join(acc, ","), "")
				for _, t := range accIdx {
					add(pre+lp+".accessible-node-labels."+labels[t]+".capacity", fmtPercent(p), "")
				}
			}
			if k < len(b.LASMQ.Thresholds) {
				add("schedplan.las-mq."+lp+".demote-after", strconv.FormatFloat(b.LASMQ.Thresholds[k], 'g', -1, 64),
					"move an application to the next level once its attained service (container-seconds) reaches this")
			}
		}
	}
	return marshalXML(yarnConfiguration{Properties: props}, "capacity-scheduler.xml: generated by schedplan")
}

// fairQueue is a <queue> of a Fair Scheduler allocation file.
type fairQueue struct {
	Name             string      `xml:"name,attr"`
	Weight           string      `xml:"weight,omitempty"`
	MinResources     string      `xml:"minResources,omitempty"`
	SchedulingPolicy string      `xml:"schedulingPolicy,omitempty"`
	Queues           []fairQueue `xml:"queue"`
}

type fairRule struct {
	Name   string `xml:"name,attr"`
	Create string `xml:"create,attr,omitempty"`
	Queue  string `xml:"queue,attr,omitempty"`
}

type fairAllocations struct {
	XMLName                      xml.Name    `xml:"allocations"`
	Queues                       []fairQueue `xml:"queue"`
	DefaultQueueSchedulingPolicy string      `xml:"defaultQueueSchedulingPolicy"`
	Placement                    struct {
		Rules []fairRule `xml:"rule"`
	} `xml:"queuePlacementPolicy"`
}

// FairSchedulerOptions set how containers translate to YARN resources.
type FairSchedulerOptions struct {
	ContainerMB     int // memory of one container; default 1024
	ContainerVCores int // vcores of one container; default 1
}

// FairSchedulerXML renders the bundle's users as a Fair Scheduler allocation
// file: a queue per user under root with its weight and, when it has a min
// share, minResources (min share containers × container size); a default
// queue for everyone else; fair scheduling inside queues; placement by the
// queue the application names, else its user's queue (not created on the
// fly), else default.
func FairSchedulerXML(b *Bundle, opt FairSchedulerOptions) ([]byte, error) {
	if opt.ContainerMB <= 0 {
		opt.ContainerMB = 1024
	}
	if opt.ContainerVCores <= 0 {
		opt.ContainerVCores = 1
	}
	root := fairQueue{Name: "root", SchedulingPolicy: "fair"}
	seen := map[string]string{}
	hasDefault := false
	for _, u := range b.Users {
		name := YARNName(u.Name)
		if other, dup := seen[name]; dup {
			return nil, fmt.Errorf("fair-scheduler.xml: users %q and %q map to one queue name %q", other, u.Name, name)
		}
		seen[name] = u.Name
		hasDefault = hasDefault || name == "default"
		w := u.Weight
		if !(w > 0) {
			w = 1
		}
		q := fairQueue{Name: name, Weight: strconv.FormatFloat(w, 'g', -1, 64), SchedulingPolicy: "fair"}
		if u.MinShare > 0 {
			c := int(math.Ceil(u.MinShare))
			q.MinResources = fmt.Sprintf("%d mb, %d vcores", c*opt.ContainerMB, c*opt.ContainerVCores)
		}
		root.Queues = append(root.Queues, q)
	}
	if !hasDefault {
		root.Queues = append(root.Queues, fairQueue{Name: "default", Weight: "1", SchedulingPolicy: "fair"})
	}
	a := fairAllocations{Queues: []fairQueue{root}, DefaultQueueSchedulingPolicy: "fair"}
	a.Placement.Rules = []fairRule{
		{Name: "specified", Create: "false"},
		{Name: "user", Create: "false"},
		{Name: "default", Queue: "default"},
	}
	return marshalXML(a, "fair-scheduler.xml: generated by schedplan")
}

func marshalXML(v any, comment string) ([]byte, error) {
	out, err := xml.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, err
	}
	head := xml.Header + "<!-- " + comment + " -->\n"
	return append(append([]byte(head), out...), '\n'), nil
}

// RenderYARN renders both YARN files of a bundle (keyed by file name) and
// checks each against YARN's structural rules.
func RenderYARN(b *Bundle, opt FairSchedulerOptions) (map[string][]byte, error) {
	cs, err := CapacitySchedulerXML(b)
	if err != nil {
		return nil, err
	}
	if err := CheckCapacitySchedulerXML(cs); err != nil {
		return nil, fmt.Errorf("capacity-scheduler.xml breaks YARN's rules: %w", err)
	}
	fs, err := FairSchedulerXML(b, opt)
	if err != nil {
		return nil, err
	}
	if err := CheckFairSchedulerXML(fs); err != nil {
		return nil, fmt.Errorf("fair-scheduler.xml breaks YARN's rules: %w", err)
	}
	return map[string][]byte{"capacity-scheduler.xml": cs, "fair-scheduler.xml": fs}, nil
}
