// Package cluster models a cluster (resource types, containers, execution
// rates, users with min shares and weights) and holds the one simulation core
// of schedplan: the event engine, the scheduling policies and the metrics.
// Every simulation in schedplan — simulate, tuning, bounds, validation — runs
// here.
package cluster
