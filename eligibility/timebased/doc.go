// Package timebased is the within-queue preemption policy of Kueue's
// KEP-8522 (keps/8522-time-based-same-priority-preemption): which running
// jobs of its own queue a pending job may preempt, by priority and, among
// equal priorities, by who queued later ("newer") or who has held its quota
// longer than a minimum ("expired", the time-based rule); and in which
// order the preemptible ones go, Kueue's CandidatesOrdering. It also reads
// and writes Kueue's own shape of the setting as JSON
// ([KueueWithinClusterQueue]).
//
// # Classes
//
// [Config] is the within-queue preemption policy of Kueue's
// KEP-8522 (keps/8522-time-based-same-priority-preemption):
// [Never] (the zero value), [LowerPriority], or
// [LowerOrNewerEqualPriority] with an optional MinAdmitDuration M.
// [Config.Validate] applies the KEP's rules to this flat form and
// reports every problem: M below 1m (0 and negatives included) is rejected,
// M with any other policy is rejected, and a nil M is valid and disables the
// time-based rule. [KueueWithinClusterQueue] is Kueue's own shape
// (withinClusterQueue and the optional withinClusterQueueConfig block);
// [KueueWithinClusterQueue.Config] applies the KEP's webhook validation in
// full, including rule 3, which the flat form cannot express: the block is
// an error with Never or LowerPriority even when it sets nothing.
// [Config.Kueue] converts back.
//
// [Config.Classify] decides about one running [Candidate] for a
// pending job ([Request]: its priority and its queue-order
// timestamp) at now, and returns a [Decision] with a
// [Class]:
//
//   - lower priority: always preemptible ([ClassLowerPriority]); higher
//     priority: never ([ClassHigherPriority]);
//   - equal priority, expired: now − Reserved > M, strictly
//     ([ClassExpired], the time-based class; it wins over newer). A job that
//     has held its quota for exactly M is not preemptible: until then the
//     decision's Until is Reserved + M + 1ns, the first instant at which it
//     is;
//   - equal priority, newer: it queued strictly after the preemptor's
//     timestamp — by [Candidate.Queued] when given, else by its reservation
//     (see "Which newer" below) ([ClassNewer]); otherwise [ClassProtected].
//     As in Kueue's SatisfiesPreemptionPolicy
//     (pkg/scheduler/preemption/common/preemption_policy.go) this compares
//     queue-order timestamps only, so a candidate with Queued but no
//     reservation time is still judged;
//   - bad data stays a decision: an equal-priority candidate whose
//     timestamp is unknown (no Queued, no Reserved), or whose reservation is
//     unknown under M when it is not newer, is [ClassUnknownReservation]
//     (not preemptible); a zero preemptor timestamp makes no candidate
//     newer.
//
// [Config.Candidates] returns the preemptible candidates in
// preemption order ([Compare], [Sort]), Kueue's
// CandidatesOrdering (pkg/scheduler/preemption/common/ordering.go) within a
// queue with the KEP's classes: candidates already being evicted
// ([Candidate.Evicted]) first; then lower priority (lowest first, then the
// most recently reserved, which loses the least work), expired
// (longest-running first), newer (most recently admitted first); ties by
// ID. A missing reservation counts as the instant of the decision
// ([Decision.At], the now Candidates was given), exactly as Kueue
// uses the current time for it: a candidate reserved at exactly now ties
// with it and the ID decides. [Class.KueueReason] gives the reason Kueue
// reports for a pick: "InClusterQueueTimeBased" for an expired one,
// "InClusterQueue" otherwise. Classify is O(1) and
// Compare O(len(ID)), both allocation-free; Candidates computes
// each sort key once.
//
// # Which newer
//
// KEP-8522 words the existing rule as "the target's quota reservation time
// is more recent than the preemptor's creation time", and says the condition
// is kept for backward compatibility with Kueue's LowerOrNewerEqualPriority.
// But Kueue's code compares the two jobs' queue-order timestamps
// (pkg/scheduler/preemption/common/preemption_policy.go), and the two
// readings differ for a job that queued before the preemptor but was admitted
// after it — in particular every job restarting after an earlier eviction:
// by its reservation it is newer than everyone who queued before the restart,
// by its queue-order timestamp it is not. tenure follows the code when it can:
// give [Candidate.Queued] and "newer" means "queued later"; leave it zero and
// the reservation stands in, as KEP-8522's text words it.
// On a trace, the reservation reading turns most evictions of restarting
// jobs into "newer" picks.
//
// Kueue's SchedulerTimestampPreemptionBuffer feature gate (alpha, off by
// default, since removed from Kueue by PR #14115) narrowed "newer"
// further: a candidate counted as newer only when its queue-order
// timestamp was more than 5 minutes after the preemptor's. Current Kueue
// compares the two timestamps directly, which is tenure's default;
// [Config.TimestampPreemptionBuffer] turns the old rule on
// (strictly more than 5m, with the reservation standing in when Queued is
// zero). It leaves the time-based rule alone, and [Config.Kueue]
// does not carry it: in Kueue it was a gate of the whole scheduler, not a
// ClusterQueue field.
//
// Either way, a job preempted by an equal-priority job (picked as newer or as
// expired) must be re-queued behind its preemptor: with its creation time it
// would count its preemptor as newer and take the slot straight back, cycle
// after cycle. [github.com/tenurepolicy/tenure/requeue/backoff.QueueEntry] has a
// SamePriorityPreempted field for that, and QueueOrder.Timestamp applies it;
// pass the result as [Request.Timestamp] (and as Candidate.Queued
// once the job runs again). The slot then rotates as the KEP describes
// (requeue's TestTimeBasedRotation walks the two-job case).
package timebased
