package bundle

import (
	"fmt"
	"math"
	"reflect"
	"strings"

	"github.com/schedplan/schedplan/cluster/task/hpfsp"
	"github.com/schedplan/schedplan/estimate"
	"github.com/schedplan/schedplan/pipeline/tuner"
)

// Units of the LAS_MQ thresholds (attained service).
const (
	// UnitContainerSeconds: reference-container-seconds (a container of
	// exec_rate 1 busy for a second), the unit of explicit sizes and
	// task-seconds.
	UnitContainerSeconds = "container-seconds"
	// UnitClusterSeconds: seconds of the whole cluster (a server as fast as
	// all its containers together), the unit of sizes derived from bytes,
	// which are normalised to a load at capacity 1. One cluster-second is
	// the cluster's capacity (reference containers) in container-seconds.
	UnitClusterSeconds = "cluster-seconds"
)

// ThresholdUnit returns the unit of the LAS_MQ thresholds and the number of
// reference-container-seconds in one unit: the bundle's threshold_unit when
// set, else the unit of the job sizes the thresholds were tuned on
// (trace.size_source: sizes from bytes are in cluster-seconds, explicit
// sizes and task-seconds in container-seconds).
func (b *Bundle) ThresholdUnit() (string, float64, error) {
	if l := b.LASMQ; l != nil && l.ThresholdUnit != "" {
		switch {
		case l.ThresholdUnit != UnitContainerSeconds && l.ThresholdUnit != UnitClusterSeconds:
			return "", 0, fmt.Errorf("las_mq.threshold_unit: %q is not %s or %s", l.ThresholdUnit, UnitContainerSeconds, UnitClusterSeconds)
		case !(l.ContainerSecondsPerUnit > 0) || math.IsInf(l.ContainerSecondsPerUnit, 0):
			return "", 0, fmt.Errorf("las_mq.container_seconds_per_unit: %v is not a positive number", l.ContainerSecondsPerUnit)
		case l.ThresholdUnit == UnitContainerSeconds && l.ContainerSecondsPerUnit != 1:
			return "", 0, fmt.Errorf("las_mq.container_seconds_per_unit: %v, but a container-second is 1 container-second", l.ContainerSecondsPerUnit)
		}
		return l.ThresholdUnit, l.ContainerSecondsPerUnit, nil
	}
	switch estimate.Source(b.Trace.SizeSource) {
	case estimate.FromBytes:
		c := b.Cluster.Capacity
		if !(c > 0) || math.IsInf(c, 0) {
			return "", 0, fmt.Errorf("cluster.capacity: %v reference containers: cannot convert cluster-seconds to container-seconds", c)
		}
		return UnitClusterSeconds, c, nil
	case estimate.FromSize, estimate.FromTaskSeconds:
		return UnitContainerSeconds, 1, nil
	}
	return "", 0, fmt.Errorf("las_mq: the thresholds' unit is unknown (no threshold_unit, and trace.size_source %q is not %s, %s or %s)",
		b.Trace.SizeSource, estimate.FromBytes, estimate.FromSize, estimate.FromTaskSeconds)
}

// withThresholdUnit returns b, or a copy of b whose LAS_MQ configuration
// states the unit of its thresholds when b leaves it to be derived.
// The same for the conversion to held container-seconds (HeldPerUnit).
func (b *Bundle) withThresholdUnit() *Bundle {
	if b.LASMQ == nil || (b.LASMQ.ThresholdUnit != "" && b.LASMQ.HeldPerUnit != 0) {
		return b
	}
	l := *b.LASMQ
	if l.ThresholdUnit == "" {
		unit, per, err := b.ThresholdUnit()
		if err != nil {
			return b
		}
		l.ThresholdUnit, l.ContainerSecondsPerUnit = unit, per
	}
	c := *b
	c.LASMQ = &l
	if l.HeldPerUnit == 0 {
		if h, err := c.HeldPerUnit(); err == nil {
			l.HeldPerUnit = h
		}
	}
	return &c
}

// check rejects what a bundle cannot mean: numbers that are not finite
// (anywhere), negative rates, sizes, shares and weights, sums and products
// that overflow (the work of the classes, the LAS_MQ weights, the thresholds
// in container-seconds), and references to classes that do not exist.
// Errors name the field as it is spelt in the YAML.
func (b *Bundle) Check() error {
	if err := finiteFields(reflect.ValueOf(b).Elem(), ""); err != nil {
		return err
	}
	nonNeg := func(field string, v float64) error {
		if v < 0 {
			return fmt.Errorf("%s: %v is negative", field, v)
		}
		return nil
	}
	var errs []error
	errs = append(errs, nonNeg("cluster.capacity", b.Cluster.Capacity))
	for i, r := range b.Cluster.Resources {
		if r.Count < 0 || r.Slots < 0 || !(r.ExecRate > 0) {
			errs = append(errs, fmt.Errorf("cluster.resources[%d] (%s): count %d, slots %d and exec_rate %v: need counts ≥ 0 and a positive rate", i, r.Name, r.Count, r.Slots, r.ExecRate))
		}
	}
	for i, u := range b.Users {
		errs = append(errs, nonNeg(fmt.Sprintf("users[%d].min_share", i), u.MinShare), nonNeg(fmt.Sprintf("users[%d].weight", i), u.Weight),
			nonNeg(fmt.Sprintf("users[%d].work", i), u.Work), nonNeg(fmt.Sprintf("users[%d].class_share", i), u.ClassShare))
		if u.PeakApps < 0 {
			errs = append(errs, fmt.Errorf("users[%d].peak_apps: %d is negative", i, u.PeakApps))
		}
	}
	for i, q := range b.Queues {
		errs = append(errs, nonNeg(fmt.Sprintf("queues[%d].work", i), q.Work))
		if p := LogQueuePath(q.Name); (p != q.Name && p != "root."+q.Name) || q.Jobs < 0 {
			errs = append(errs, fmt.Errorf("queues[%d]: name %q and jobs %d: need a YARN queue path (root. and '.'-separated names of letters, digits, '-', '_') and jobs ≥ 0", i, q.Name, q.Jobs))
		}
	}
	if d := b.Deploy; d != nil {
		errs = append(errs, d.FairKnobs.check("deploy.fair_knobs"))
	}
	classes := map[string]bool{}
	work := 0.0
	for i, c := range b.Classes {
		classes[c.Name] = true
		f := fmt.Sprintf("classes[%d]", i)
		errs = append(errs, nonNeg(f+".alpha", c.Alpha), nonNeg(f+".mean_size", c.MeanSize), nonNeg(f+".share", c.Share))
		for t, m := range c.Mu {
			errs = append(errs, nonNeg(fmt.Sprintf("%s.mu[%d]", f, t), m))
		}
		w := c.Alpha * c.MeanSize
		work += w
		if math.IsInf(w, 0) || math.IsInf(work, 0) {
			errs = append(errs, fmt.Errorf("%s: alpha %v × mean_size %v: the offered work overflows", f, c.Alpha, c.MeanSize))
		}
	}
	for i, u := range b.Users {
		if u.Class != "" && !classes[u.Class] {
			errs = append(errs, fmt.Errorf("users[%d].class: %q is not a class of the bundle", i, u.Class))
		}
	}
	if cp := b.Capacity; cp != nil {
		errs = append(errs, nonNeg("capacity.lambda", cp.Lambda))
		for t, row := range cp.Allocation {
			for i, v := range row {
				errs = append(errs, nonNeg(fmt.Sprintf("capacity.allocation[%d][%d]", t, i), v))
			}
		}
	}
	if l := b.LASMQ; l != nil {
		errs = append(errs, b.checkThresholds(l)...)
	}
	if h := b.HPFSP; h != nil {
		errs = append(errs, h.check())
	}
	if c := b.COSHH; c != nil {
		errs = append(errs, c.Check())
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// check is the h_pfsp section's: the parameters hpfsp.HPFSP accepts, a
// known estimator, non-negative times.
func (h *HPFSPConfig) check() error {
	p := &hpfsp.HPFSP{FairLimit: h.FairLimit, Threshold: h.Threshold, ReportInterval: h.ReportIntervalS}
	if err := p.Validate(); err != nil {
		return fmt.Errorf("h_pfsp: %v", err)
	}
	if h.Estimator != "" && h.Estimator != HPFSPOnline && h.Estimator != HPFSPSizes {
		return fmt.Errorf("h_pfsp.estimator: %q: use %s or %s", h.Estimator, HPFSPOnline, HPFSPSizes)
	}
	if h.ReportIntervalS < 0 {
		return fmt.Errorf("h_pfsp.report_interval_s: %v is negative", h.ReportIntervalS)
	}
	for s, v := range h.DefaultTaskS {
		if v < 0 {
			return fmt.Errorf("h_pfsp.default_task_s[%d]: %v is negative", s, v)
		}
	}
	return nil
}

// finiteFields returns an error naming the first float (by its YAML path)
// that is NaN or infinite.
func finiteFields(v reflect.Value, path string) error {
	switch v.Kind() {
	case reflect.Float64, reflect.Float32:
		if f := v.Float(); math.IsNaN(f) || math.IsInf(f, 0) {
			return fmt.Errorf("%s: %v is not a finite number", path, f)
		}
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			return finiteFields(v.Elem(), path)
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			if err := finiteFields(v.Index(i), fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	case reflect.Struct:
		t := v.Type()
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
			if name == "" {
				name = strings.ToLower(f.Name)
			}
			if path != "" {
				name = path + "." + name
			}
			if err := finiteFields(v.Field(i), name); err != nil {
				return err
			}
		}
	}
	return nil
}

// Check is the coshh section's: k ≥ 1, a tolerance ≥ 0, distinct named
// machine types, and classifications whose classes, μ, allocation and
// suggested sets match the types (Plan), with non-negative radii, α, μ
// and allocation fractions in [0, 1].
func (c *COSHHConfig) Check() error {
	switch {
	case c.K < 1:
		return fmt.Errorf("coshh.k: %d classes: want at least 1", c.K)
	case c.Tolerance < 0:
		return fmt.Errorf("coshh.tolerance: %v is negative (the re-classification tolerance is ≥ 0)", c.Tolerance)
	case c.FittedOn < 0:
		return fmt.Errorf("coshh.fitted_on_jobs: %d is negative", c.FittedOn)
	case len(c.Types) == 0:
		return fmt.Errorf("coshh.types: no machine types")
	}
	seen := map[string]bool{}
	for i, t := range c.Types {
		if t == "" || seen[t] {
			return fmt.Errorf("coshh.types[%d]: %q is empty or given twice", i, t)
		}
		seen[t] = true
	}
	if _, err := c.Plan(); err != nil {
		return err
	}
	if err := c.Secondary.check("coshh.secondary", len(c.Types)); err != nil || c.Primary == nil {
		return err
	}
	return c.Primary.check("coshh.primary", len(c.Types))
}

// check is one classification's part of COSHHConfig.check.
func (s *COSHHClassification) check(at string, types int) error {
	if s.Lambda < 0 {
		return fmt.Errorf("%s.lambda: %v is negative", at, s.Lambda)
	}
	for i, cl := range s.Classes {
		if cl.Radius < 0 || cl.Alpha < 0 || cl.Count < 0 {
			return fmt.Errorf("%s.classes[%d] (%s): radius %v, alpha %v and count %d must not be negative", at, i, cl.Name, cl.Radius, cl.Alpha, cl.Count)
		}
		if len(cl.Centre) != len(s.Scaling) {
			return fmt.Errorf("%s.classes[%d] (%s): a centre of %d coordinates for %d scaled features", at, i, cl.Name, len(cl.Centre), len(s.Scaling))
		}
		for t, m := range cl.Mu {
			if m < 0 {
				return fmt.Errorf("%s.classes[%d].mu[%d]: %v is negative", at, i, t, m)
			}
		}
	}
	if len(s.Allocation) != 0 && len(s.Allocation) != types {
		return fmt.Errorf("%s.allocation: %d rows for %d machine types", at, len(s.Allocation), types)
	}
	for t, row := range s.Allocation {
		if len(row) != len(s.Classes) {
			return fmt.Errorf("%s.allocation[%d]: %d fractions for %d classes", at, t, len(row), len(s.Classes))
		}
		for i, f := range row {
			if !(f >= 0 && f <= 1) {
				return fmt.Errorf("%s.allocation[%d][%d]: %v is not a fraction in [0, 1]", at, t, i, f)
			}
		}
	}
	return nil
}

// checkThresholds is check's part for the LAS_MQ weights and thresholds:
// non-negative weights whose sum is finite, positive thresholds that stay
// finite in reference-container-seconds and in held container-seconds.
func (b *Bundle) checkThresholds(l *tuner.LASMQConfig) []error {
	var errs []error
	sum := 0.0
	for k, w := range l.Weights {
		if w < 0 {
			errs = append(errs, fmt.Errorf("las_mq.weights[%d]: %v is negative", k, w))
		}
		if sum += w; math.IsInf(sum, 0) {
			errs = append(errs, fmt.Errorf("las_mq.weights[%d]: %v: the weights' sum overflows", k, w))
		}
	}
	if len(l.Thresholds) == 0 {
		return errs
	}
	_, per, err := b.ThresholdUnit()
	errs = append(errs, err)
	// The conversion to held container-seconds needs the cluster's
	// containers, which a bundle for fluid simulation may leave out: only
	// an explicit bad one is an error here (the YARN files and the task
	// level refuse a missing one).
	held, herr := b.HeldPerUnit()
	if l.HeldPerUnit != 0 {
		errs = append(errs, herr)
	}
	for k, v := range l.Thresholds {
		if !(v > 0) || (err == nil && math.IsInf(v*per, 0)) || (herr == nil && math.IsInf(v*held, 0)) {
			errs = append(errs, fmt.Errorf("las_mq.thresholds[%d]: %v is not a positive number of container-seconds", k, v))
		}
	}
	return errs
}
