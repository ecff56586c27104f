// Package timebased is the within-queue preemption policy of Kueue's
// KEP-8522 (keps/8522-time-based-same-priority-preemption): which running
// jobs of its own queue a pending job may preempt, and in which order.
//
// A [Config] holds the policy: [Never] (the zero value), [LowerPriority],
// or [LowerOrNewerEqualPriority] with an optional MinAdmitDuration M.
// [Config.Classify] decides about one running [Candidate] for a pending
// job ([Request]) at now and returns a [Decision] with a [Class]: lower
// priority is always preemptible, higher never; an equal priority is
// preemptible when it has held its quota for strictly longer than M
// ([ClassExpired], the time-based rule; at exactly M it is not, and Until
// is Reserved + M + 1ns) or when it queued strictly after the preemptor
// ([ClassNewer]); else it is [ClassProtected], or
// [ClassUnknownReservation] when what would decide is missing. As Kueue's
// SatisfiesPreemptionPolicy (pkg/scheduler/preemption/common/
// preemption_policy.go), "newer" compares queue-order timestamps.
// O(1), no allocation.
//
// [Config.Candidates] returns the preemptible candidates in preemption
// order ([Compare], [Sort]): Kueue's CandidatesOrdering
// (pkg/scheduler/preemption/common/ordering.go) with the KEP's classes:
// candidates already being evicted first, then lower priority (lowest
// first, then the most recently reserved), expired (longest-running
// first), newer (most recently admitted first); ties by ID. A missing
// reservation counts as the decision's instant, as Kueue uses the current
// time.
//
// [Config.Validate] applies the KEP's webhook rules that the flat Config
// can express (M at least 1m; M only with LowerOrNewerEqualPriority).
// [KueueWithinClusterQueue] is Kueue's own shape as JSON;
// [KueueWithinClusterQueue.Config] applies all three rules, including
// that a withinClusterQueueConfig block is an error with any other policy
// even when empty.
//
// # Which newer
//
// KEP-8522's text words "newer" by the target's quota reservation time;
// Kueue's code compares queue-order timestamps. They differ for a job
// that queued before the preemptor but was admitted after it, such as
// every job restarting after an eviction. Give [Candidate.Queued] and
// "newer" means "queued later", as the code decides; leave it zero and the
// reservation stands in, as the text words it.
//
// Kueue's SchedulerTimestampPreemptionBuffer feature gate (alpha, off by
// default, since removed by Kueue PR #14115) counted a candidate as newer
// only when it queued more than 5 minutes after the preemptor;
// [Config.TimestampPreemptionBuffer] turns that rule on.
//
// Either way, a job preempted by an equal-priority job must be re-queued
// behind its preemptor, or it would count its preemptor as newer and take
// the slot straight back: requeue/backoff's QueueEntry.SamePriorityPreempted
// and QueueOrder.Timestamp give the timestamp to pass as
// [Request.Timestamp] (and as Candidate.Queued once the job runs again).
package timebased
