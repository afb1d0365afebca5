// Package cluster describes a cluster: its machine types (count, containers,
// execution rate, memory and data retrieval rate with units — Bytes,
// ByteRate — and an optional multi-resource capacity vector), its users (min
// share, weight, priority) and the YAML cluster spec that declares them, with
// the default spec that ships in the binary (seed 003's Table 3 cluster). It
// imports nothing of schedplan's.
//
// The simulation core that runs jobs on a cluster lives below it: the fluid
// resolution in cluster/sim (which also holds the policy registry and the
// metrics shared by every resolution).
package cluster
