// Package bundletest holds a configuration bundle the tests of several
// pipeline packages share: three machine types (one slow, one with a dot
// in its name, one idle), two users, three classes, a capacity plan and a
// three-level LAS_MQ.
package bundletest

import (
	"github.com/schedplan/schedplan/pipeline/bundle"
	"github.com/schedplan/schedplan/pipeline/tuner"
)

// Sample returns a new sample bundle.
func Sample() *bundle.Bundle {
	return &bundle.Bundle{
		Version: bundle.BundleVersion,
		Trace:   bundle.TraceInfo{SizeSource: "bytes"},
		Cluster: bundle.ClusterInfo{Capacity: 48.06, Resources: []bundle.ResourceInfo{
			{Name: "R1", Count: 1, Slots: 2, ExecRate: 0.01},
			{Name: "gpu.fast", Count: 2, Slots: 16, ExecRate: 1},
			{Name: "idle", Count: 1, Slots: 4, ExecRate: 1},
		}},
		Users: []bundle.UserConfig{{Name: "alice", Jobs: 3, MinShare: 5, Weight: 1, Class: "c0"}, {Name: "bob.smith", Jobs: 2, Weight: 2}},
		Classes: []bundle.ClassConfig{
			{Name: "c0", Label: "small", Alpha: 1, MeanSize: 1},
			{Name: "c1", Label: "large", Alpha: 0.1, MeanSize: 30},
			{Name: "c2", Label: "medium", Alpha: 0.3, MeanSize: 3},
		},
		Capacity: &bundle.CapacityPlan{
			Lambda: 1.02,
			// type × class, in machines
			Allocation: [][]float64{{0, 0.5, 0}, {1, 0.3, 0.2}, {0, 0, 0}},
		},
		LASMQ: &tuner.LASMQConfig{K: 3, Alpha0: 10, P: 10, Thresholds: []float64{10, 100}, Weights: []float64{3, 2, 1}},
	}
}
