// Package classify groups jobs into classes: k-means with k-means++ seeding,
// parallel restarts and a choice of k (fixed, one per user, or by silhouette),
// feature extraction and scaling, and the COSHH classes (seed 003) with their
// arrival rates α and per-machine-type execution rates μ.
package classify
