// Package eligibility decides about one job or one scenario at one instant:
// whether a victim may be evicted now (min-runtime), whether an eviction
// scenario keeps protected elastic jobs above their minimum, whether a running
// job has overrun its expected runtime and should be nominated for requeue, and
// whether an equal-priority job may preempt another (time-based preemption).
//
// # Min-runtime victim filter
//
// (section owned by the min-runtime filter)
//
// # Elastic scenario validator
//
// (section owned by the validator)
//
// # Expected-runtime nominator
//
// (section owned by the nominator)
//
// # Time-based same-priority preemption
//
// [PreemptionConfig] is the within-queue preemption policy of Kueue's
// KEP-8522 (seed 004): [PreemptionNever] (the zero value),
// [PreemptionLowerPriority], or [PreemptionLowerOrNewerEqualPriority] with an
// optional MinAdmitDuration M. [PreemptionConfig.Validate] applies the
// seed's rules and reports every problem: M below 1m (0 and negatives
// included) is rejected, M with any other policy is rejected, and a nil M is
// valid and disables the time-based rule.
//
// [PreemptionConfig.Classify] decides about one running [Candidate] for a
// pending job ([PreemptionRequest]: its priority and its queue-order
// timestamp) at now, and returns a [PreemptionDecision] with a
// [CandidateClass]:
//
//   - lower priority: always preemptible ([ClassLowerPriority]); higher
//     priority: never ([ClassHigherPriority]);
//   - equal priority, expired: now − Reserved > M, strictly
//     ([ClassExpired], the time-based class; it wins over newer). A job that
//     has held its quota for exactly M is not preemptible: until then the
//     decision's Until is Reserved + M + 1ns, the first instant at which it
//     is;
//   - equal priority, newer: Reserved strictly after the preemptor's
//     timestamp ([ClassNewer]); otherwise [ClassProtected];
//   - bad data stays a decision: an equal-priority candidate without a
//     reservation time is [ClassUnknownReservation] (not preemptible), and a
//     zero preemptor timestamp makes no candidate newer.
//
// [PreemptionConfig.Candidates] returns the preemptible candidates in
// preemption order ([CandidateCompare], [CandidateSort]): lower priority
// first (lowest first), then expired (longest-running first), then newer
// (most recently admitted first), ties by ID. [CandidateClass.TimeBased]
// marks the picks an embedder reports with Kueue's reason
// InClusterQueueTimeBased. Classify is O(1) and CandidateCompare
// O(len(ID)), both allocation-free; Candidates computes each sort key once.
//
// A consequence of the "newer" rule, kept as specified: a pending job that
// entered the queue before a running job's reservation may preempt it at
// once. If the embedder re-queues a job it preempted with its creation time,
// that job is older than its preemptor's reservation and takes the slot
// straight back, cycle after cycle. For the fair rotation the seed
// describes, re-queue preempted jobs behind the waiting ones (with the
// eviction instant as their queue-order timestamp).
package eligibility
