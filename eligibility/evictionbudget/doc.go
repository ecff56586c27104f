// Package evictionbudget limits how often one job is evicted: a [Budget]
// allows at most Max evictions per Window, read from a system-managed
// annotation ([Annotation]) that the embedder writes on every committed
// eviction ([Budget.Record]), as it writes the not-before gate.
//
// An eviction at t counts while now < t + Window; a job with Max counting
// is denied until the Max-th most recent leaves the window (Until). The
// record is the job's own data, so it can never make a job unevictable: an
// invalid record counts as no eviction, and an entry in the future counts
// as now. [Budget.Check] costs O(length of the record) and allocates
// nothing. The zero [Budget] limits nothing.
//
// The record is the instants of the most recent evictions, oldest first,
// comma-separated, each in the not-before format (RFC3339, UTC, whole
// seconds rounded up), for example
//
//	2026-03-02T11:10:00Z,2026-03-02T11:40:00Z
package evictionbudget
