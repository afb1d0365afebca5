// Package estimate turns a jobs table into job sizes (work in seconds of the
// simulated capacity) and models how well a scheduler can know them: the
// size-derivation rules (explicit size, task-seconds, or bytes with the SWIM
// rule and load normalisation), seeded size-estimation error models, and
// online and class-based size predictors.
// Seed 002's online estimator of task times and remaining times from task
// progress (EWMA, eq. 1–5, 18) is [ProgressEstimator].
package estimate
