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
//
// # Execution-time model
//
// A job's execution time on a machine type depends on what the job does and
// what the machine has (seed 003 §2.1, Table 3: a slot's execRate, the
// storage's capacity and retrieval rate). For job i (Demand) and one machine
// of type t (MachineType):
//
//	time_it = compute_i / (slots_t × exec_rate_t) + data_i / retrieve_rate_t
//	        = +Inf when task_data_i > memory_t (the job cannot run there)
//
// compute_i is the job's size in reference-container seconds (explicit,
// task-seconds, or bytes-derived: estimate.Sizes), floored at the log's
// smallest positive size; data_i the bytes its tasks retrieve (input +
// shuffle; output is written, not retrieved); task_data_i the bytes one task
// holds (input / map_tasks or one 128 MB block, likewise for the shuffle per
// reduce task). The data term is left out on a type without retrieve_rate,
// the memory rule on a type without memory. mean_execRate(J_i, R_t) =
// 1 / time_it jobs/s, 0 where the job cannot run.
//
// A class's μ_it is 1 / the mean time of its jobs on type t (the rate at
// which one machine serving only the class completes its jobs), and 0 when
// the class's mean task data do not fit the type. α_i is the class's jobs
// over the log's span. Because times add a compute and a data term whose
// ratio differs between classes, and the memory rule removes types, μ is not
// rank one on a heterogeneous cluster (MuRank; a spec without memory and
// retrieval rates gives μ_it = slots_t·exec_rate_t/size_i, rank one, and a
// warning: the COSHH LP then sees only total capacity).
//
// When the log has a tasks table with node_type and durations, MeasureMu
// replaces μ_it by the measured rate — slots_t / (tasks per job × mean task
// duration on t) — wherever class i ran on type t, and Class.MuSource says
// which entries are measured and which come from the model. Its input is a
// []TaskRun, the seam to the tasks table (not wired into the pipeline yet).
//
// # Features
//
// COSHH classifies by default on seed 003 §3.1's features (PaperFeatures):
// the job's priority (its user's priority in the cluster spec, else the
// job's), its execution rate on every machine type (exec_rate@<type>) and
// its user's arrival rate (arrival_rate); rates are scaled by LogUnit.
// Classify and ClassifyRows default to the log's size features
// (SizeFeatures: size, bytes, task-seconds, …), which the LAS_MQ tuning and
// the size predictor use; Options.FeatureSet or Options.Features choose.
//
// Options.TimeErrors perturbs the execution-time estimates — and so the
// paper features and μ, hence the LP's suggested sets — as in seed 003 §6.3
// (L̂ = L·(1 + E), E ~ U[−I, I], seeded); the sizes, the jobs' true work,
// are never changed.
package classify
