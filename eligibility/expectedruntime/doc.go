// Package expectedruntime is KAI-Scheduler's expectedruntime plugin (PR
// #941, docs/plugins/expectedruntime.md): a [Nominator] nominates a
// running, preemptible job that opted in with the expected-runtime
// annotation for requeue once now − start >= expected (at exactly start +
// expected). A nomination evicts nothing: the requeue engine evicts only
// when a higher-priority job can then run; a [Nomination] embeds the
// [Victim] the engine reads.
//
// [Nominator.Evaluate] lists the checks in order; the first that fails is
// the skip's reason. Two outcomes are silent (not opted in, not yet
// exceeded): not reported, but their Until still counts toward
// [Result.Wake]. Reported outcomes are KAI's metrics as Events:
// requeue_nominations_total{plugin} counts the allowed ones,
// requeue_nomination_skipped_total{plugin,reason} the others. An allowed
// outcome's Reason is the label "nominated" (no constant: code branches on
// Allowed); a skip's is one of the Reason constants or eligibility's
// "missing_start", "clock_skew", "minruntime_protected", "invalid_action"
// and "cooldown".
//
// # Annotations
//
// [Keys] names them (KAI's by default): the expected runtime and the
// requeue delay, durations in runtime.ParseDuration's grammar ("1d" works);
// the not-before gate and the last checkpoint, RFC3339 timestamps read in
// UTC. A bad value is a skip carrying the parse error, never an error that
// aborts the cycle; an unparsable not-before blocks like a cooldown, as
// KAI's plugin does. [AnnotationLastCheckpoint] follows volcano-sh/volcano
// PR #5999's last-checkpoint-time: the engine counts the work an eviction
// loses from it; one after now is ignored.
//
// Beyond KAI's plugin: an unparsable requeue-delay does not block the
// nomination (the engine's default delay applies), and the optional
// min-runtime check ([Nominator.Resolver]) resolves as if the contender ran
// in the job's own queue; the engine's victim filter stays the precise
// check.
package expectedruntime
