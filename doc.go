// Package tenure is a policy library that batch and GPU schedulers embed to
// decide how long a running job may keep its resources: when it is protected
// from eviction, when it becomes a candidate to give them back, how it is
// requeued, and how equal-priority jobs take turns.
//
// tenure has no Kubernetes dependency and performs no I/O. It takes plain
// values in and returns decisions as data; the embedding scheduler owns the
// cluster state, the API objects, the metrics registry and the clock. The
// policies come from KAI-Scheduler (min-runtime, expected-runtime requeue),
// Kueue (KEP-1282 requeue backoff, KEP-8522 time-based same-priority
// preemption, KEP-9876 cross-queue preemption protection) and YuniKorn (the
// preemptor-side delay), plus tenure's per-job eviction budget, implemented
// once, behind small interfaces.
//
// # Packages
//
//	clock        Clock (Now), Real, Func; clock/clocktest.Fake for tests
//	queuetree    immutable queue hierarchy: dense IDs, the LCA reclaim query
//	runtime      one duration grammar; the min-runtime Resolver
//	eligibility  the shared vocabulary: Decision, Reason, Observer, Job,
//	             Earliest, the not-before annotation codec; one package per
//	             policy below it:
//	  eligibility/minruntime       KAI's min-runtime victim filter and
//	                               elastic MinAvailable scenario validator
//	  eligibility/expectedruntime  KAI's expected-runtime requeue nominator
//	  eligibility/timebased        Kueue KEP-8522 same-priority preemption
//	  eligibility/admitprotect     Kueue KEP-9876 preemption protection
//	  eligibility/preemptordelay   the preemptor-side delay
//	  eligibility/evictionbudget   the per-job eviction budget
//	requeue      Journal (checkpoint/rollback), transactional requeue Engine
//	requeue/backoff      Kueue's readiness requeuing: backoff, queue order
//	requeue/cluster      the reference in-memory resource model
//	requeue/requeuetest  conformance kit for an embedder's requeue.Model
//	examples     quickstart; simulate, a trace-driven what-if simulator
//
// This package composes them ([Config], [Policy], [Cycle]). Imports point
// down only: clock and queuetree import nothing of tenure's; clock/clocktest
// and requeue/backoff import clock only; runtime imports clock and
// queuetree; eligibility imports queuetree; its policy packages import
// eligibility and what they need below it (minruntime and expectedruntime:
// clock, queuetree and runtime; timebased, admitprotect and preemptordelay:
// clock; evictionbudget: nothing more); requeue imports eligibility,
// eligibility/minruntime, eligibility/expectedruntime, queuetree and
// runtime; requeue/cluster and requeue/requeuetest import requeue; this
// package imports every library package but those two; examples import
// anything.
//
// # One scheduling cycle
//
// [New] builds a [Policy] from one [Config]: the queue hierarchy with
// KAI-Scheduler's per-queue min-runtime fields, its min-runtime plugin
// arguments, the expected-runtime annotation keys, the requeue engine's
// settings, Kueue's requeuing strategy, within-queue preemption and
// preemption protection, the preemptor delay and the eviction budget,
// validated all at once (every problem in one error, each a [*ConfigError]
// naming its key in the file's spelling; a callback set to a typed nil is
// one of them). A Config reads from a JSON file
// ([Config.UnmarshalJSON]) in each upstream object's own spelling, with
// unknown keys reported by name. Kueue's requeuing strategy has its mirror,
// backoff.KueueStrategy (KueueStrategy.Strategy converts it in,
// Strategy.Kueue back); timebased.Config and admitprotect.Protection read
// and write Kueue's preemption and preemptionProtection blocks themselves.
// The Policy wires the queue tree, the min-runtime resolver and victim
// filter, the elastic scenario validator, the expected-runtime nominator and
// the requeue engine; the engine applies the min-runtime filter by default,
// so the zero configuration never requeues a protected job. A job, victim
// or contender whose queue is unset or unknown is denied (fail closed)
// unless Config.FailOpenUnknownQueues opts out explicitly.
//
// # Per scheduling session
//
// A scheduler that reads its queues anew every session (KAI-Scheduler's
// framework.Session) does not call New each time: [Policy.UpdateQueues]
// takes the session's queue list and returns the same Policy when the list
// describes the same queues, parents and min-runtime fields in any order
// (for a Policy built without problems: O(n), no parse, no sort), or a new
// Policy built as New builds it from the same Config. [NewTolerant]
// repairs a list with problems and reports them, as queuetree.NewTolerant
// and runtime.NewResolverTolerant do, so that a scheduler keeps running on
// whatever snapshot it has: a scheduler calls it when UpdateQueues fails.
//
// Each scheduling cycle starts with [Policy.Begin], which reads the
// configured clock ([clock.Clock]; the wall clock by default) exactly once.
// Every decision made through the returned [Cycle] sees that instant:
//
//  1. Preempt/reclaim actions ask [Cycle.CheckVictim] whether each candidate
//     victim may go now (O(1), allocation-free); [Cycle.ValidateScenario]
//     vets a whole scenario for elastic jobs. [Cycle.CheckPreemptor] says
//     whether the pending job has waited long enough to cause evictions,
//     [Cycle.CheckEvictionBudget] whether the victim has eviction budget
//     left, [Cycle.CheckAdmitted] whether KEP-9876 protects it from a
//     cross-queue preemption, and [Cycle.Classify] whether KEP-8522 lets
//     it go to an equal-priority job of its queue. After an eviction by any of
//     these paths, [Cycle.RecordEviction] gives the eviction-record
//     annotation to write.
//  2. [Cycle.Requeue] runs the expected-runtime nominator over the running
//     jobs and one requeue-engine pass against the scheduler's own state (a
//     requeue.Model): each nominated job is virtually evicted, strictly
//     higher-priority pending work is tried in its place, and the change is
//     committed or rolled back. A scheduler that evaluates jobs as events
//     arrive asks [Cycle.Nominate] one job at a time instead and hands the
//     nominations it kept to Requeue.
//  3. The embedder performs the committed evictions (the engine has already
//     applied them to its Model), writes the not-before annotations and,
//     with an eviction budget, the eviction records
//     ([RequeueResult].EvictionRecords), and reads its metrics from the
//     [eligibility.Observer] it configured.
//  4. [Cycle.Wake] is the earliest instant at which any decision of the
//     cycle may change: a scheduler can sleep until then instead of polling.
//
// Every decision has the same shape, [eligibility.Decision]: Allowed, a
// Reason (a stable label usable as a metric label, one type across packages)
// and Until. A Policy hands out no piece; the pieces stay usable on their
// own, for forks that integrate them one by one, each built from its
// Config section; the package Example shows that path.
//
// # Semantics
//
// The boundaries are the contract (< against <=, defaults, order of
// checks); each has a test that fails if it moves. The one table of them is
// the README's Semantics section
// (https://github.com/tenurepolicy/tenure#semantics); each package's doc
// states the rules it implements, with their sources.
//
// Min-runtime values resolve down the queue tree: an unset value inherits
// from the parent, an explicit 0 stops inheritance, and the node-pool
// defaults apply only when nothing on the walk is set. Reclaims resolve at
// the child of the reclaimer's and victim's lowest common ancestor on the
// victim's side (method lca, the default) or at the victim's queue (method
// queue).
//
// # Sources
//
//   - KAI-Scheduler, min-runtime: the plugin (pkg/scheduler/plugins/minruntime,
//     docs/plugins/minruntime.md) and its design, "Minimum runtime before
//     preemptions and reclaims" (PR #126).
//   - KAI-Scheduler, expected-runtime requeue: the expectedruntime plugin and
//     the Requeue action it feeds (PR #941, issue #904,
//     docs/plugins/expectedruntime.md).
//   - Kueue KEP-1282, "Pods Ready Requeue Strategy"
//     (keps/1282-pods-ready-requeue-strategy): requeue backoff and queue
//     order; Kueue's waitForPodsReady.requeuingStrategy configuration.
//   - Kueue KEP-8522, "Time-Based Same-Priority Preemption": minAdmitDuration,
//     candidate order, validation.
//   - Kueue KEP-9876, "Preemption Protection — Guaranteed Minimum Runtime
//     for Cross-ClusterQueue Preemption" (keps/9876-cross-cq-guaranteed-runtime;
//     provisional, alpha planned behind the PreemptionProtection feature
//     gate; proposal kubernetes-sigs/kueue PR #12791, implementation PR
//     #12996, both open): preemptionProtection.fairSharing and
//     .reclaimWithinCohort minAdmitDuration, timed from the Admitted
//     condition, evicted workloads never protected, the preemptor retried
//     when a window expires.
//   - YuniKorn's preemption.delay queue property (YUNIKORN-1464): how long
//     a pending request waits before it may preempt.
//
// Where tenure decides differently from a source, the package that implements
// the rule says so and why.
package tenure
