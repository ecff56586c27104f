// Package minruntime is KAI-Scheduler's min-runtime protection
// (pkg/scheduler/plugins/minruntime, docs/plugins/minruntime.md; the design
// docs/developer/designs/min-runtime/README.md, PR #126): a victim is
// protected from eviction while now < start + d, d resolved per queue,
// action and preemptor by a runtime.Resolver. Evictable at exactly start +
// d; d = 0 never protects; a victim without a start is not protected; a
// start in the future keeps the protection.
//
// [Filter.Check] decides about one (preemptor queue, victim) pair, after
// the scheduler's own victim filters; it lets an elastic victim (some
// subgroup with MinAvailable < Active) through. [Validator.Validate] then
// rejects a whole scenario that would leave a subgroup of an elastic,
// still-protected victim below MinAvailable, naming it and when its
// protection ends.
//
// Both fail closed: an unset or unknown queue, a missing Resolver and an
// action other than preempt and reclaim are denied, with no Until; FailOpen
// resolves a missing or unknown queue to the node-pool defaults instead
// (as KAI's plugin does), never an invalid action. Garbled scenario input
// is rejected, never a panic.
//
// # Differences from KAI-Scheduler's plugin
//
//   - Elastic means active tasks above the minimum; KAI's PodSet.IsElastic
//     counts every pod, pending and finished ones too.
//   - Releasing tasks do not count as running (KAI counts them, so a job
//     can be emptied step by step).
//   - A min-runtime of 0 never protects, even with a start in the future.
//   - A queue that cannot be found fails closed (KAI applies the default).
//   - Only subgroups the scenario takes an active task from are checked.
//
// # Reasons
//
// Each decision's Reason is a stable metric label. [Filter.Check]: allowed
// "no_min_runtime", "missing_start", "not_protected", "elastic_deferred"
// ([ReasonElasticDeferred]); denied "minruntime_protected", "clock_skew",
// "invalid_action", "no_resolver", "queue_unset", "unknown_queue".
// [Validator.Validate]: allowed "min_available_kept"; denied
// "below_min_available", "invalid_counts", "conflicting_victims",
// "duplicate_subgroup", and the filter's fail-closed reasons. Code branches
// on Allowed (and on ReasonElasticDeferred); the other allowed reasons are
// labels only, for metrics and logs, so they have no constants.
package minruntime
