// Package preemptordelay is a preemptor-side delay after YuniKorn's
// preemption.delay queue property (YUNIKORN-1464): a pending job (a
// contender) may cause evictions only once it has waited at least D since
// it was queued, so a burst of arrivals does not evict running work before
// the normal allocation had a chance to place it. Unlike YuniKorn's, the
// wait is the contender's own, independent of guaranteed quotas.
//
// Reasons (stable metric labels): denied "preemptor_delay"
// ([ReasonDelayed]) and "queued_unknown" ([ReasonQueuedUnknown]); allowed
// "no_preemptor_delay" and "preemptor_waited". Code branches on Allowed;
// the allowed reasons are labels only, for metrics and logs.
package preemptordelay
