// Package expectedruntime is KAI-Scheduler's expectedruntime plugin (PR
// #941, docs/plugins/expectedruntime.md): a [Nominator] nominates a
// running, preemptible job that opted in with the expected-runtime
// annotation for requeue once now - start >= expected (at exactly start +
// expected). A nomination evicts nothing: the requeue engine evicts only
// when a higher-priority job can then run. [Nominator.Evaluate] lists the
// checks in their order; the first that fails is the skip's reason, and
// its Until says when the outcome may change by time alone. Two outcomes
// are silent ([Outcome.Silent]: not opted in, not yet exceeded): neither
// nominations nor skips, they are not reported, but their Until still
// lowers [Result.Wake].
//
// [Nominator.Nominate] returns every job's outcome in input order;
// [Nominator.AppendTo] with a reused [Result] allocates nothing in a steady
// state. A [Nomination] embeds the [Victim] the requeue engine takes as is
// (package requeue names it requeue.Victim). Each nomination and
// non-silent skip is reported to the Observer as an eligibility.Event whose
// Source is the nominator's name: KAI's requeue_nominations_total{plugin}
// counts the allowed ones, requeue_nomination_skipped_total{plugin,reason}
// the others. An optional *slog.Logger receives KAI's log lines.
//
// # Annotations
//
// [Keys] names the four annotations (KAI's keys by default, renamed per
// key or by prefix with [KeysWithPrefix]): the expected runtime and the
// requeue delay, durations in [runtime.ParseDuration]'s grammar ("1d"
// works); the not-before gate and the last checkpoint, RFC3339 timestamps
// read in UTC (package eligibility holds the not-before codec the requeue
// engine writes with). Bad values become skips carrying an
// *eligibility.AnnotationError, never errors that abort the cycle. An
// unparsable not-before blocks like a cooldown, as KAI's plugin does, with
// no Until.
//
// The last-checkpoint annotation ([AnnotationLastCheckpoint], after the
// volcano.sh/last-checkpoint-time annotation of volcano-sh/volcano PR
// #5999) says when the job last saved its work; the engine counts the work
// an eviction loses from it. Its check comes last, so it speaks only for a
// job every other check lets go; a checkpoint after now is ignored, so a
// clock that runs ahead can make a victim look dearer, never cheaper.
//
// Choices beyond KAI's plugin: an unparsable requeue-delay does not block
// the nomination (the engine's default delay applies; the error is in
// [Nomination.RequeueDelayErr]), since a typo in the cooldown must not let
// a job overrun forever. The optional min-runtime check
// ([Nominator.Resolver]) does not know the future contender, so it
// resolves as if the contender ran in the job's own queue; the engine's
// victim filter remains the precise check.
package expectedruntime
