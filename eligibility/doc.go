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
package eligibility
