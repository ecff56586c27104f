// Package expectedruntime is KAI-Scheduler's expectedruntime plugin (PR
// #941, docs/plugins/expectedruntime.md): a [Nominator] that nominates a
// running, preemptible job for requeue once it has run longer than the
// expected runtime its annotation declares, and the codec of the plugin's
// annotations ([Keys]: expected-runtime, requeue-delay, requeue-not-before,
// last-checkpoint-time). A [Nomination] embeds the [Victim] the requeue
// engine takes as is (package requeue names it requeue.Victim).
//
// # The nominator
//
// [Nominator] implements KAI-Scheduler's expectedruntime plugin (PR #941): a running, preemptible job that opted in
// with the expected-runtime annotation becomes a requeue candidate once
// now - start >= expected (nominated at exactly start + expected). Being
// nominated does not evict anything: the requeue engine evicts only when a
// higher-priority job can then run. [Nominator.Evaluate] applies the checks
// in exactly this order; the first failure is the reason:
//
//	not_running → not_preemptible → (not configured: silent) →
//	invalid_duration → missing_start → clock_skew (Until = start) →
//	(not yet exceeded: silent, Until = start + expected) →
//	invalid_not_before → cooldown (Until = notBefore) →
//	invalid_action / minruntime_protected (only with a Resolver;
//	Until = start + d) →
//	invalid_last_checkpoint
//
// The two silent outcomes ([Outcome.Silent]) are neither nominations nor
// skips: they are not reported to the [eligibility.Observer] and not counted, but their
// Until still lowers [Result.Wake]. An unparsable requeue-not-before blocks
// like a cooldown, as KAI's plugin does, with no Until (only a rewrite of the
// annotation lifts it). Durations use [runtime.ParseDuration] (so "1d"
// works); timestamps are RFC3339 or RFC3339Nano, read in UTC by one parser
// for both timestamp annotations. Bad values become skips carrying an
// [eligibility.AnnotationError], never errors that abort the cycle.
//
// The optional last-checkpoint annotation ([AnnotationLastCheckpoint],
// after the volcano.sh/last-checkpoint-time annotation of Volcano's
// checkpoint-aware victim ordering proposal, volcano-sh/volcano PR #5999)
// says when the job last saved its progress; the nominator passes it on as
// [Victim.LastCheckpoint] of its [Nomination], from which the
// requeue engine counts the work an eviction throws away. Its check comes last: it is about what a
// requeue would cost, not whether one is allowed, so invalid_last_checkpoint
// is given only to a job every other check lets go, and parsing it costs
// the others nothing. A checkpoint after now is not believed but not a
// skip either: LastCheckpoint stays zero, so the lost work counts from the
// start, the most the job can lose; a clock that runs ahead can make a
// victim look dearer, never cheaper.
// [Keys] holds KAI's keys and can be overridden per key or
// by prefix ([KeysWithPrefix]).
//
// [Nominator.Nominate] returns a [Result]: nominations and non-silent skips in
// input order, every job with exactly one outcome. [Nominator.AppendTo] is
// the allocation-lean form: with a reused Result a steady-state cycle
// allocates nothing (an invalid annotation's error aside). A [Nomination] is
// self-contained for the requeue engine: it embeds a [Victim], the
// data the engine reads (job ID, queue, priority, start, expected runtime,
// the parsed requeue-delay, HasRequeueDelay false meaning "use the engine's
// default", the not-before, the last checkpoint and the job's
// [eligibility.Job.Resources]), which package requeue names Victim and takes as is;
// beside it, the input Index, the nominator's name and the overrun.
//
// An [eligibility.Observer] receives each nomination and non-silent skip as an [eligibility.Event]
// whose Source is the nominator's name (from Nominate and AppendTo, and
// from [Nominator.Report] for a scheduler that calls Evaluate one job at a
// time). KAI's metrics follow from the events: requeue_nominations_total
// {plugin} counts the Allowed ones, requeue_nomination_skipped_total
// {plugin, reason} the others ([eligibility.Counter.Count] reads both). An optional
// *slog.Logger receives the plugin's lines ("Requeue candidate nominated:
// job=…, plugin=expectedruntime", "Requeue nomination skipped: job=…,
// reason=…") at slog levels mirroring KAI's klog verbosities, V(n) as
// level -n: -4 (invalid values, clock skew, invalid action), -5
// (nominations and other skips), -6 (silent outcomes). A nil Observer or
// Logger costs nothing; a disabled level costs one Enabled call.
//
// Choices beyond the upstream designs: an unparsable requeue-delay does not block the
// nomination (the engine's default delay applies and the error is kept in
// [Nomination.RequeueDelayErr]): a typo in the cooldown must not let a job
// overrun forever. The optional min-runtime check does not know the future
// contender, so it resolves as if the contender ran in the job's own queue
// ([Nominator.MinRuntimeAction] picks preempt or reclaim); the engine's
// per-pair victim filter remains the precise check. A clock_skew skip's
// Until is the start itself, the instant the outcome first changes.
package expectedruntime
