// Package eligibility is tenure's vocabulary for decisions about one job at
// one instant; the decisions live in its sub-packages:
//
//   - minruntime: KAI-Scheduler's min-runtime victim filter and elastic
//     scenario validator;
//   - expectedruntime: KAI-Scheduler's expected-runtime requeue nominator;
//   - timebased: Kueue's within-queue preemption with KEP-8522's
//     time-based rule;
//   - admitprotect: Kueue's KEP-9876 cross-queue protection;
//   - preemptordelay: a contender may evict only after a delay;
//   - evictionbudget: at most N evictions of a job per window.
//
// Every decision is a [Decision] or embeds one: Allowed, a [Reason] (a
// stable label, usable as a metric label) and Until, the earliest instant
// at which time alone may change the answer, so a scheduler sleeps until
// the [Earliest] Until instead of polling. Components report decisions to
// an [Observer] as [Event]s. A [Job] is a running job as the deciders see
// it. The not-before gate ([AnnotationRequeueNotBefore]) is written with
// [FormatNotBefore].
//
// Deciders take now as a parameter, start no goroutines and do no I/O.
// Bad data never panics: it becomes a decision with a reason, denied where
// a wrong "allowed" could cost a job its protection. Each decision costs
// O(1) or the size of its input and allocates nothing unless documented.
package eligibility
