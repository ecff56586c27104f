// Package eligibility is tenure's shared vocabulary for decisions about one
// job at one instant; the decisions themselves live in its sub-packages,
// one concept each:
//
//   - minruntime: KAI-Scheduler's min-runtime victim filter and elastic
//     MinAvailable scenario validator;
//   - expectedruntime: KAI-Scheduler's expected-runtime requeue nominator
//     and its annotations;
//   - timebased: Kueue's within-queue preemption with KEP-8522's
//     time-based same-priority rule, and the candidate order;
//   - admitprotect: Kueue's KEP-9876 protection from cross-queue
//     preemption;
//   - preemptordelay: a contender may evict only after a delay;
//   - evictionbudget: at most N evictions of a job per window.
//
// Everything is data in, decisions out: no goroutines, timers, I/O or
// logging unless a *slog.Logger is supplied, and now is always a parameter.
//
// # One vocabulary
//
//   - [Decision] is the one decision shape: Allowed, a [Reason] and Until,
//     the earliest instant at which the answer may change by the passage of
//     time alone (zero when it never does), so a scheduler can wake up
//     instead of polling. Richer answers embed it (minruntime.Decision,
//     timebased.Decision, the nominator's outcomes, the requeue engine's
//     outcomes). [Earliest] gives the earliest non-zero Until of a set of
//     decisions: when to look again.
//   - [Reason] is the one reason type: a stable snake_case label, usable as
//     a metric label value. Each package declares its own reasons as Reason
//     constants; the ones several deciders give are declared here.
//   - [Observer] receives [Event]s (a source, a job, a Decision) from every
//     component; [Counter] is a ready in-memory implementation, counting by
//     source and reason.
//   - [Job] and [Subgroup] are a running job as the deciders see it: a plain
//     value the embedder fills from its own object (a PodGroup, a Workload)
//     once per cycle; the Job example converts one in a few lines.
//   - The not-before gate ([AnnotationRequeueNotBefore]) has one codec,
//     here, low enough for both the expected-runtime nominator, which reads
//     it ([ParseNotBefore]), and the requeue engine, which writes it
//     ([FormatNotBefore], [NotBeforeCeil]). A value that cannot be used is
//     an [*AnnotationError].
//
// Decisions never panic on bad data: a missing, unknown or garbled input
// becomes a decision with a reason (denied, where a wrong "allowed" could
// cost a job its protection). Every decision costs O(1) or the size of its
// input and allocates nothing unless documented.
package eligibility
