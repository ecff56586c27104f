// Package timebased is Kueue's within-ClusterQueue preemption with
// KEP-8522's time-based rule (keps/8522-time-based-same-priority-preemption):
// which running jobs of its own queue a pending job may preempt, and in
// which order.
//
// [Config.Classify] follows Kueue's SatisfiesPreemptionPolicy
// (pkg/scheduler/preemption/common/preemption_policy.go): lower priority
// is preemptible, higher never; an equal priority, under
// LowerOrNewerEqualPriority, when it has held its quota for strictly
// longer than MinAdmitDuration (expired; not at exactly M, and always at
// clock.Last, where Reserved + M saturates and nothing is protected) or
// queued strictly after the preemptor (newer). O(1), no allocation. [Sort] orders
// the preemptible decisions as Kueue's CandidatesOrdering
// (pkg/scheduler/preemption/common/ordering.go); O(n log n).
//
// A Config reads Kueue's preemption block ([Config.UnmarshalJSON]),
// validated by KEP-8522's webhook rules; tenure does not write it.
//
// Reasons (stable metric labels), each a class of candidates: allowed
// "lower_priority", "expired" and "newer"; denied "not_allowed",
// "higher_priority", "protected" (Until: when it expires) and
// "unknown_reservation". Code branches on Allowed; [Compare] and [Sort]
// order by the label, so the labels have no constants.
//
// # Which newer
//
// KEP-8522's text words "newer" by quota reservation; Kueue's code compares
// queue-order timestamps. They differ for a job that queued before the
// preemptor but was admitted after it, such as one restarting after an
// eviction. Set [Candidate.Queued] to decide as the code does; leave it
// zero and Reserved stands in, as the text words it. A job preempted by an
// equal-priority one must be re-queued behind its preemptor, or it takes
// the slot straight back: requeue/backoff's QueueOrder.Timestamp gives the
// timestamp to use.
//
// Kueue's SchedulerTimestampPreemptionBuffer feature gate (alpha, off by
// default, removed by Kueue PR #14115) counted a candidate as newer only
// when it queued more than 5m after the preemptor;
// [Config.TimestampPreemptionBuffer] turns that rule on.
package timebased
