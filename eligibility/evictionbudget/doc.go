// Package evictionbudget limits how often one job is evicted, against
// thrash: a [Budget] allows at most Max evictions per Window, counted from a
// system-managed annotation ([Annotation]) that the embedder writes on every
// committed eviction ([Budget.Record]).
//
// The record is the instants of the job's most recent evictions, oldest
// first, comma-separated, each as eligibility.FormatNotBefore writes it,
// for example
//
//	2026-03-02T11:10:00Z,2026-03-02T11:40:00Z
//
// It is the job's own data, so it can never make a job unevictable: an
// invalid record counts as no eviction, an entry more than Window + 1s in
// the future makes it invalid, and [Budget.Record] writes a future entry as
// now. An entry counts until its own instant plus Window, a future one
// too, so a denial's Until is its end: checked again at Until, the same
// record is allowed (one wake-up, whatever the Window, also right after
// Record rounded the eviction up to the second).
//
// Reasons (stable metric labels): denied "eviction_budget_exhausted"
// ([ReasonExhausted]); allowed "no_eviction_budget",
// "within_eviction_budget" and, for a record that counts as none,
// "invalid_eviction_record". Code branches on Allowed; the allowed reasons
// are labels only, for metrics and logs.
package evictionbudget
