// Package waits makes starvation visible: per priority class, the longest
// wait and the waits by job size (GPUs requested), with every figure that
// an unfinished job could raise marked as a lower bound.
//
// A class percentile can hide a few large jobs that waited for days: the
// 99th percentile of thousands of small jobs says nothing about the two
// 8-GPU jobs that waited 44 hours. [Table] collects every job's wait (or,
// for a job unfinished when the simulation stopped, its wait so far,
// right-censored: a running job may yet be evicted and wait again) under
// its class and size bucket, and [Table.Summary]
// reports per class the maximum, the nearest-rank p50/p95/p99, the
// Kaplan–Meier p95 (which counts censored waits as "at least"), and per
// size bucket the count, p95 and maximum. Both count the unfinished jobs
// and, of those, the ones still waiting at the end (the others were
// running).
//
// # Size buckets
//
// A job's size is the GPUs it requests in all: tasks × GPUs per task ×
// share of each GPU. The buckets are [Sizes]: no GPU, a share of one GPU
// (<1), 1, 2, 3–4, 5–8 and more than 8 GPUs.
//
// # Costs
//
// [Table.Add] is O(1) amortized; [Table.Summary] is O(n log n) for n
// waits.
package waits
