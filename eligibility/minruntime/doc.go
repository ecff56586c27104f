// Package minruntime is KAI-Scheduler's min-runtime protection: a victim is
// protected from eviction until it has run its min-runtime d (now < start +
// d), d resolved per queue, action and preemptor by a [runtime.Resolver].
// Two deciders share that rule:
//
//   - [Filter.Check] answers the min-runtime design's IsPreemptible for one
//     (preemptor queue, victim) pair. It runs after the scheduler's own
//     victim filters and looks only at the protection. Evictable at exactly
//     start + d (Until); d = 0 never protects; a victim without a start is
//     not protected; a start in the future keeps the protection. An
//     elastic victim (some subgroup with MinAvailable < Active) is allowed
//     here and judged by the validator. O(1) for preempt, O(log depth) for
//     an lca reclaim, plus a scan of a protected victim's subgroups; no
//     allocation.
//   - [Validator.Validate] checks a whole eviction scenario: it rejects one
//     that would leave a subgroup of an elastic, still-protected victim
//     with fewer than MinAvailable active tasks, naming the job, the
//     subgroup and when its protection ends (Until: from then on the same
//     scenario is accepted). Only active tasks count as evictions, entries
//     of one job are summed (the accumulated scenarios of KAI's scenario
//     builder), and tasks with one ID count once. A validator keeps its
//     scratch space, so a warm one allocates nothing; use one per
//     goroutine.
//
// Sources: KAI-Scheduler's minruntime plugin
// (pkg/scheduler/plugins/minruntime, docs/plugins/minruntime.md) and the
// min-runtime design (docs/developer/designs/min-runtime/README.md, PR
// #126).
//
// # Fail closed
//
// Neither decider guesses. A victim whose queue is unset (queuetree.None)
// or not issued by the resolver's tree, or a preemptor's queue when the
// answer depends on it (a reclaim under the lca method), is denied with
// [ReasonQueueUnset] or [ReasonUnknownQueue]; a zero value without a
// Resolver denies with [ReasonNoResolver]; an action other than preempt
// and reclaim is denied with eligibility.ReasonInvalidAction. None of
// these has an Until: waiting does not fix them. The FailOpen field
// resolves a missing or unknown queue to the node-pool defaults instead
// (as KAI's plugin does when its resolver fails); it never excuses an
// invalid action. Conflicting or garbled scenario input is rejected too
// ([ReasonConflictingVictims], [ReasonDuplicateSubgroup],
// [ReasonInvalidCounts]); a task naming a subgroup its job lacks is an
// [*UnknownSubgroupError], never a panic. Every protection's end saturates
// at the last instant a time.Time can hold.
//
// # Differences from KAI-Scheduler's min-runtime plugin
//
//   - Elastic means active tasks above the minimum. KAI's
//     PodSet.IsElastic counts every pod of the subgroup, pending and
//     finished ones included, so a gang whose extra pods are pending
//     bypasses its per-pair filter.
//   - Releasing tasks do not count as running. KAI's validators count
//     Releasing pods (activeUsedStatuses) as still running, so a job can
//     be emptied step by step; here Active excludes them.
//   - A min-runtime of 0 never protects, even when the start lies in the
//     future; KAI's plugin protects such a job until its start.
//   - A queue that cannot be found fails closed; KAI's plugin applies the
//     node-pool default.
//   - Only subgroups the scenario takes an active task from are checked: a
//     protected gang still starting in one subgroup does not veto
//     evictions from another.
package minruntime
