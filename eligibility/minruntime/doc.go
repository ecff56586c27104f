// Package minruntime is KAI-Scheduler's min-runtime protection: a victim
// job is protected from eviction until it has run its min-runtime d (now <
// start + d), resolved per queue by a [runtime.Resolver]. Two deciders
// share that rule and its fail-closed handling of queues: the per-pair
// [Filter] (may this victim be evicted now by that preemptor?) and the
// whole-scenario [Validator] (does this eviction scenario leave every
// protected elastic victim at or above its MinAvailable?).
//
// Sources: KAI-Scheduler's minruntime plugin
// (pkg/scheduler/plugins/minruntime, docs/plugins/minruntime.md) and the
// min-runtime design it implements
// (docs/developer/designs/min-runtime/README.md, PR #126).
//
// # Victim filter
//
// [Filter.Check] answers the min-runtime design's IsPreemptible(action,
// preemptor, victim) for one pair: it resolves the min-runtime d with the
// [runtime.Resolver] (preempt: the victim's queue walk; reclaim: the LCA or
// queue method) and returns a [eligibility.Decision]. The victim is protected while
// now < start + d and evictable at exactly start + d (Until). d = 0 never
// protects ([ReasonNoMinRuntime]); a victim without a start time is not
// protected ([eligibility.ReasonMissingStart]); a start in the future keeps the
// protection until start + d and says so ([eligibility.ReasonClockSkew]).
//
// An elastic victim (some subgroup with MinAvailable < Active) is always allowed here: as the min-runtime design's phase 4 specifies,
// how many of its tasks may go is decided for the whole scenario by the
// [Validator]. While it is protected the reason says so
// ([ReasonElasticDeferred]); once unprotected it gets the plain reason,
// since the validator will not object either. The decision carries the
// Resolution in every case.
//
// The filter runs after the scheduler's own fundamental victim filters
// (preemptible at all, in-queue versus cross-queue legality; the min-runtime design, phase
// 2): it never looks at [eligibility.Job.Preemptible] or priorities. Check is
// allocation-free and costs one resolver query (O(1) for preempt, O(log
// depth) for an LCA reclaim), plus a scan of the subgroups of a protected
// victim, which may be supplied lazily ([eligibility.Job.SubgroupsFunc]); the package
// benchmarks measure it against a walk-per-query baseline.
//
// # Fail closed
//
// The filter and the validator never guess a queue. A victim whose Queue
// is queuetree.None (the zero ID: the field was never set, or set from a
// lookup whose ok was ignored) is denied with [ReasonQueueUnset]; one whose
// Queue the resolver's tree did not issue, with [ReasonUnknownQueue]; the
// preemptor's queue is checked the same way when the answer depends on it
// (a reclaim under the lca method). Such a denial has no Until: waiting
// does not set a missing field. So no zero value of a [eligibility.Job], a victim or a
// scenario input resolves to a real queue's protection by accident. An
// embedder that wants the node-pool defaults for such jobs instead sets the
// FailOpen field of [Filter] and [Validator]; under the
// lca method that reaches every victim of a reclaimer whose queue is unset
// or unknown, which then resolves to the reclaim default, as
// KAI-Scheduler's plugin does when its resolver fails.
//
// Nor do they guess an action. A runtime.Action other than
// runtime.ActionPreempt and runtime.ActionReclaim (only a conversion
// produces one) resolves to no min-runtime at all, so the filter denies it,
// the validator rejects it (and the expected-runtime nominator, given a
// Resolver, skips on it) with [eligibility.ReasonInvalidAction] and no Until, whatever the job. FailOpen does not
// change this: it is about jobs whose queue is missing, while an invalid
// action is the caller's programming error.
//
// A protection's end, start + d, saturates at the last instant a time.Time
// can hold, rather than wrapping to an earlier instant as Time.Add does
// there, so a job started just before the end of time's range is still
// protected.
//
// # Elastic scenario validator
//
// [Validator.Validate] checks a whole eviction scenario: the victim
// tasks grouped by job ([Victim]) with, per task, its subgroup, whether
// it is still active and optionally its ID ([Task]). A scenario is
// rejected ([ReasonBelowMinAvailable]) when a victim job that is elastic and
// still protected under the min-runtime resolved for this preemptor and
// action would keep Active - evicted < MinAvailable in a subgroup; the
// [ScenarioDecision] names the first such job and subgroup, the remaining
// count, the minimum and the protection expiry, counts the violations, and
// sets Until to the last violating job's expiry (from then on the same
// scenario is accepted). Unprotected elastic jobs may lose every task; jobs
// that are not elastic are the per-pair filter's business.
//
// Only active tasks count as evictions, so a task already releasing is not
// counted twice. Entries of the same job are summed, which suits the
// accumulated-scenario pattern of KAI-Scheduler's scenario builder (recorded
// victims followed by potential victims, re-validated each time the set
// grows): the validator keeps its scratch space between calls and allocates
// nothing once warm, so it is meant to be reused, one per goroutine. A task
// naming a subgroup its job lacks is reported as an [*UnknownSubgroupError]
// value, never a panic.
//
// Bad input gets a clear decision, and when in doubt a rejection. Entries
// are one job when they share an ID and describe it alike (the same *Job,
// or equal Queue, Start and Subgroups); two entries with one ID that
// describe different jobs are rejected with [ReasonConflictingVictims],
// since an unprotected job listed first must not hide a protected one. The
// empty ID follows the same rule: equal copies of a job without an ID are
// summed (two copies each taking half of what the job may lose cannot
// empty it between them), and two different jobs without an ID are a
// conflict, since nothing tells a second such job from a second description
// of the first. Tasks of one job with the same non-empty ID are one task,
// counted once even when it is listed among both the recorded and the
// potential victims (listed with a different subgroup or state, it is a
// conflict); tasks without an ID are counted each time they are listed.
// Tasks name their subgroup, so a protected elastic victim that gives one
// name to several subgroups, and loses active tasks under that name, is
// rejected with [ReasonDuplicateSubgroup]: the tasks could belong to any of
// them. Counts are taken in 64 bits, and a touched subgroup of a protected
// elastic victim with a negative Active or MinAvailable, or with more
// evicted tasks than Active, is rejected with [ReasonInvalidCounts] rather
// than judged.
//
// Choice beyond KAI-Scheduler: only subgroups the scenario takes at least
// one active task from are checked. A protected job whose other subgroup is
// already below its minimum (a gang still starting) does not veto evictions
// from a subgroup that stays at or above its own minimum.
//
// # Differences from KAI-Scheduler's min-runtime plugin
//
// tenure follows KAI-Scheduler's min-runtime plugin
// (pkg/scheduler/plugins/minruntime/minruntime.go) except where the plugin's
// counting would let a protected job lose more than its minimum allows or
// block a job nothing protects; each difference is deliberate:
//
//   - Elastic means active tasks above the minimum: a subgroup is elastic
//     when MinAvailable < Active. KAI's PodSet.IsElastic
//     compares MinAvailable with every pod of the subgroup, pending and
//     finished ones included, so a gang whose extra pods are still pending
//     counts as elastic there and bypasses the per-pair filter.
//   - Releasing tasks do not count as running. KAI's validators subtract
//     the scenario's victims from GetActivelyRunningTasksCount, whose
//     statuses (pkg/scheduler/api/pod_status: activeUsedStatuses) include
//     Releasing, so pods already being evicted by an earlier decision count
//     as still running and the same job can be emptied step by step. Here
//     Active counts allocated tasks that are not releasing, and a releasing
//     task listed in the scenario is not counted again.
//   - A min-runtime of 0 never protects, even when the start lies in the
//     future (see the runtime package); KAI's plugin protects while now is
//     before start + 0, so it denies such a job until its start.
//   - A queue that cannot be found fails closed. KAI's plugin, given a job
//     whose queue is not in the session (its resolver returns an error for
//     a nil queue), logs the error and applies the node-pool default; tenure
//     denies with queue_unset or unknown_queue (see Fail closed above).
package minruntime
