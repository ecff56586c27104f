// Package tenure is a policy library that batch and GPU schedulers embed to
// decide how long a running job may keep its resources: when it is protected
// from eviction, when it becomes a candidate to give them back, how it is
// requeued, and how equal-priority jobs take turns.
//
// tenure has no Kubernetes dependency and performs no I/O: it takes plain
// values in and returns decisions as data; the embedding scheduler owns the
// cluster state, the API objects, the metrics and the clock.
//
// # Packages
//
//	clock        Clock (Now), Func (the wall clock, a test's settable clock)
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
//	  eligibility/preemptordelay   KAI's per-job preemption delay
//	  eligibility/evictionbudget   the per-job eviction budget
//	requeue      Journal (checkpoint/rollback), transactional requeue Engine
//	requeue/backoff      Kueue's readiness requeuing: backoff, queue order
//	requeue/reserve      reservations for long-waiting jobs: planned
//	                     start, backfill, the requeue pass at the start
//	requeue/cluster      the reference in-memory resource model
//	requeue/requeuetest  conformance kit for an embedder's requeue.Model
//	examples     quickstart; simulate, a trace-driven what-if simulator
//
// Imports point down only: clock and queuetree import nothing of tenure's;
// runtime imports them; eligibility imports clock and queuetree, and its
// policy packages eligibility and what they need below it; requeue imports
// clock, eligibility, minruntime, expectedruntime, queuetree and runtime;
// requeue/backoff imports clock; requeue/reserve imports clock, eligibility
// and requeue; cluster and requeuetest import requeue;
// this package imports every library package but requeue/cluster and
// requeue/requeuetest.
//
// # One scheduling cycle
//
// [New] validates one [Config] at once (every problem, each a
// [*ConfigError] naming its key) and wires a [Policy]: the queue tree, the
// min-runtime resolver, filter and elastic validator, the expected-runtime
// nominator and the requeue engine, whose min-runtime filter keeps the zero
// Config from ever requeuing a protected job. A Config reads from a JSON
// file ([Config.UnmarshalJSON]) in each upstream object's own spelling.
// A scheduler that reads its queues anew every session passes them to
// [Policy.UpdateQueues]: O(n) and the same Policy when they did not change.
//
// [Policy.Begin] reads the clock once ([Policy.BeginAt] takes the instant);
// every decision made through the returned [Cycle] sees that instant:
//
//  1. Preempt and reclaim actions ask [Cycle.CheckVictim] about each victim
//     (O(1), O(log depth) for a reclaim resolved at the LCA; no allocation)
//     and [Cycle.ValidateScenario] about elastic ones;
//     [Cycle.CheckPreemptor], [Cycle.CheckEvictionBudget],
//     [Cycle.CheckAdmitted] and [Cycle.Classify] apply the other policies;
//     [Cycle.RecordEviction] gives the eviction record to write.
//  2. [Cycle.Requeue] runs the expected-runtime nominator over the running
//     jobs ([Cycle.Nominate] for one job) and one engine pass against the
//     scheduler's own state (a requeue.Model): each nominated job is
//     virtually evicted, higher-priority pending work tried in its place,
//     and the change committed or rolled back.
//  3. The embedder performs the committed evictions, writes the annotations
//     and reads its metrics from its [eligibility.Observer].
//  4. [Cycle.Wake] is the earliest instant any decision of the cycle may
//     change: the scheduler sleeps until then instead of polling.
//
// Every decision has one shape, [eligibility.Decision]: Allowed, a Reason
// (a stable metric label) and Until. A job whose queue is unset or unknown
// is denied (fail closed) unless Config.FailOpenUnknownQueues says
// otherwise. A Policy hands out no piece; a fork that integrates the pieces
// one by one builds each from its Config section (the package Example).
//
// # Semantics
//
// The boundaries (< against <=, defaults, order of checks) are the
// contract, each pinned by a test; the Semantics section of the
// repository's README.md tabulates them, and
// each package's doc states the rules it implements and where it departs
// from its source.
//
// # Sources
//
//   - KAI-Scheduler min-runtime: pkg/scheduler/plugins/minruntime,
//     docs/plugins/minruntime.md, "Minimum runtime before preemptions and
//     reclaims" (PR #126).
//   - KAI-Scheduler expected-runtime requeue: the expectedruntime plugin and
//     the Requeue action (PR #941, issue #904,
//     docs/plugins/expectedruntime.md).
//   - Kueue KEP-1282, "Pods Ready Requeue Strategy": requeue backoff and
//     queue order (waitForPodsReady.requeuingStrategy).
//   - Kueue KEP-8522, "Time-Based Same-Priority Preemption".
//   - Kueue KEP-9876, "Preemption Protection — Guaranteed Minimum Runtime
//     for Cross-ClusterQueue Preemption"
//     (keps/9876-cross-cq-guaranteed-runtime, PRs #12791 and #12996).
//   - YuniKorn's preemption.delay queue property (YUNIKORN-1464).
package tenure
