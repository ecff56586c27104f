// Package preemptordelay is a preemptor-side delay after YuniKorn's
// preemption.delay queue property (YUNIKORN-1464): a pending job (a
// contender) may cause evictions only once it has waited at least D since
// it was queued, so a burst of arrivals does not evict running work before
// the normal allocation had a chance to place it.
//
// [Delay.Check] allows at exactly now − queued = D, blocks while the wait
// is shorter (Until = queued + D) and never counts an unknown queued time
// as waited. O(1), no allocation. The zero [Delay] delays nothing.
package preemptordelay
