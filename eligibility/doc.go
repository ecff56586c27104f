// Package eligibility decides about one job or one scenario at one instant:
// whether a victim may be evicted now (min-runtime), whether an eviction
// scenario keeps protected elastic jobs above their minimum, whether a running
// job has overrun its expected runtime and should be nominated for requeue, and
// whether an equal-priority job may preempt another (time-based preemption).
//
// Everything here is data in, decisions out: no goroutines, timers, I/O or
// logging unless a *slog.Logger is supplied, and now is always a parameter.
// A [Job] is a plain value the embedder fills from its own object once per
// cycle (the Job example converts a PodGroup-like struct in a few lines).
//
// # One vocabulary
//
// This package also holds tenure's shared vocabulary, used by every package
// above it (the requeue engine included):
//
//   - [Decision] is the one decision shape: Allowed, a [Reason] and Until,
//     the earliest instant at which the answer may change by the passage of
//     time alone (zero when it never does), so a scheduler can wake up
//     instead of polling. Richer answers embed it: [MinRuntimeDecision],
//     [ScenarioDecision], [PreemptionDecision], the nominator's [NominatorSkip] and
//     [NominatorOutcome], and the requeue engine's Outcome.
//   - [Reason] is the one reason type: a stable snake_case label, usable as
//     a metric label value. Each package declares its reasons as Reason
//     constants.
//   - [Observer] receives [Event]s (a source, a job, a Decision) from every
//     component; [Counter] is the one ready implementation, counting by
//     source and reason.
//   - [Earliest] gives the earliest non-zero Until of a set of decisions:
//     when to look again.
//
// Sources: KAI-Scheduler's expectedruntime plugin (PR #941,
// docs/plugins/expectedruntime.md), its minruntime plugin
// (docs/plugins/minruntime.md, pkg/scheduler/plugins/minruntime) and the
// min-runtime design it implements (PR #126), and Kueue's KEP-8522
// (keps/8522-time-based-same-priority-preemption).
//
// # Time-based same-priority preemption
//
// [PreemptionConfig] is the within-queue preemption policy of Kueue's
// KEP-8522 (keps/8522-time-based-same-priority-preemption):
// [PreemptionNever] (the zero value), [PreemptionLowerPriority], or
// [PreemptionLowerOrNewerEqualPriority] with an optional MinAdmitDuration M.
// [PreemptionConfig.Validate] applies the KEP's rules to this flat form and
// reports every problem: M below 1m (0 and negatives included) is rejected,
// M with any other policy is rejected, and a nil M is valid and disables the
// time-based rule. [KueueWithinClusterQueue] is Kueue's own shape
// (withinClusterQueue and the optional withinClusterQueueConfig block);
// [KueueWithinClusterQueue.PreemptionConfig] applies the KEP's webhook validation in
// full, including rule 3, which the flat form cannot express: the block is
// an error with Never or LowerPriority even when it sets nothing.
// [PreemptionConfig.Kueue] converts back.
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
// [PreemptionConfig.Candidates] returns the preemptible candidates in
// preemption order ([CandidateCompare], [CandidateSort]), Kueue's
// CandidatesOrdering (pkg/scheduler/preemption/common/ordering.go) within a
// queue with the KEP's classes: candidates already being evicted
// ([Candidate.Evicted]) first; then lower priority (lowest first, then the
// most recently reserved, which loses the least work), expired
// (longest-running first), newer (most recently admitted first); ties by
// ID. A missing reservation counts as the instant of the decision
// ([PreemptionDecision.At], the now Candidates was given), exactly as Kueue
// uses the current time for it: a candidate reserved at exactly now ties
// with it and the ID decides. [CandidateClass.KueueReason] gives the reason Kueue
// reports for a pick: [KueueReasonInClusterQueueTimeBased] for an expired
// one, [KueueReasonInClusterQueue] otherwise. Classify is O(1) and
// CandidateCompare O(len(ID)), both allocation-free; Candidates computes
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
// default) narrowed "newer" further: with it, SatisfiesPreemptionPolicy
// counted a candidate as newer only when its queue-order timestamp was more
// than 5 minutes after the preemptor's, so jobs queued close together did
// not preempt each other as newer. The gate came with Kueue PR #9835 (March
// 2026, in v0.17.0), was cherry-picked to the release-0.15 and
// release-0.16 branches (#9838 in v0.15.6, #9837 in v0.16.3, so those and
// later patch releases of the two lines have it too), and was removed by
// PR #14115 (August 2026; Kueue records it as
// removed for v0.20). Current main has no buffer: SatisfiesPreemptionPolicy
// compares the two queue-order timestamps directly, which is tenure's
// default (off);
// [PreemptionConfig.TimestampPreemptionBuffer] turns the same rule on
// ([KueueTimestampPreemptionBuffer], strictly more than 5m, with the
// reservation standing in when Queued is zero). It leaves the time-based
// rule alone, and [PreemptionConfig.Kueue] does not carry it: in Kueue it is
// a gate of the whole scheduler, not a ClusterQueue field.
//
// Either way, a job preempted by an equal-priority job (picked as newer or as
// expired) must be re-queued behind its preemptor: with its creation time it
// would count its preemptor as newer and take the slot straight back, cycle
// after cycle. [github.com/tenurepolicy/tenure/requeue/backoff.QueueEntry] has a
// SamePriorityPreempted field for that, and QueueOrder.Timestamp applies it;
// pass the result as [PreemptionRequest.Timestamp] (and as Candidate.Queued
// once the job runs again). The slot then rotates as the KEP describes
// (requeue's TestTimeBasedRotation walks the two-job case).
//
// # Protection from cross-queue preemption, preemptor delay, eviction budget
//
// [AdmitProtection] is Kueue's KEP-9876 (keps/9876-cross-cq-guaranteed-runtime,
// provisional; kubernetes-sigs/kueue PRs #12791 and #12996, open): a job
// admitted less than minAdmitDuration ago is no victim of a fair-sharing
// ([InCohortFairSharing]) or reclaim ([InCohortReclamation],
// [InCohortReclaimWhileBorrowing]) preemption. It is protected while
// now − admitted < d and preemptible at exactly d (the opposite boundary of
// KEP-8522's rule), timed from the Admitted condition, never when already
// evicted or not admitted, and Until = admitted + d is when the preemptor
// should be retried. [KueuePreemptionProtection] is Kueue's block as JSON.
//
// [PreemptorDelay] is YuniKorn's preemption.delay: a pending job may cause
// evictions only once now − queued >= D (blocked while it has waited less;
// allowed at exactly D); an unknown queued time never counts as waited.
//
// [EvictionBudget] allows a job at most N evictions per window W, read from
// a system-managed annotation ([AnnotationEvictions]) that the embedder
// writes on every eviction ([EvictionBudget.Record]), as it writes the
// not-before gate: an eviction at t counts while now < t + W, and a job with
// N counting is denied until the N-th most recent leaves the window.
//
// All three are O(1) per decision (the budget O(length of the record)) and
// allocation-free; their zero values decide nothing, so a configuration
// without them behaves as before.
package eligibility
