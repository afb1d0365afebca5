// Package classify groups jobs into classes: k-means with k-means++ seeding,
// parallel restarts and a choice of k (fixed, one per user, or by silhouette),
// feature extraction and scaling, and the COSHH classes (seed 003) with their
// arrival rates α and per-machine-type execution rates μ.
//
// KMeans is the engine: k-means++ (or uniform) seeding, Lloyd's algorithm
// with Hamerly's bounds, restarts run in parallel and the least inertia kept,
// and results that are identical for a seed whatever the number of cores.
// Features and FitScaling turn a jobs table into the matrix it clusters
// (log1p then z-score for heavy-tailed features by default). COSHH produces
// the primary (users with min_share > 0) and secondary (all jobs)
// classifications; each Result lists its classes in the layout of seed 003
// Table 4 with α and μ, can assign new jobs to the nearest class (Predict),
// and becomes the classes.parquet table (Table).
package classify
