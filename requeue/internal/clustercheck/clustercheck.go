// Package clustercheck lets the requeue tests verify the internal
// invariants of a requeue/cluster Model, which the model does not export:
// package cluster sets Check when it is initialised. It cannot name
// cluster's types (cluster imports it), so it takes the model as any.
package clustercheck

// Check verifies the internal invariants of m (a *cluster.Model: free
// totals, the segment tree, the job index, the memory of failed fits) and
// returns the first broken, or nil. O(nodes + tasks).
var Check func(m any) error
