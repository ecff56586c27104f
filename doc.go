// Package tenure is a policy library that batch and GPU schedulers embed to
// decide how long a running job may keep its resources: when it is protected
// from eviction, when it becomes a candidate to give them back, how it is
// requeued, and how equal-priority jobs take turns.
//
// tenure has no Kubernetes dependency and performs no I/O. It takes plain
// values in and returns decisions as data; the embedding scheduler owns the
// cluster state, the API objects, the metrics registry and the clock. The
// policies come from KAI-Scheduler (min-runtime, expected-runtime requeue)
// and Kueue (KEP-1282 requeue backoff, KEP-8522 time-based same-priority
// preemption), implemented once, behind small interfaces.
//
// # Packages
//
//	clock        Clock (Now), Real, Func; clock/clocktest.Fake for tests
//	queuetree    immutable queue hierarchy: dense IDs, LCA, ChildToward
//	runtime      one duration grammar; the min-runtime Resolver
//	eligibility  decisions about one job or scenario: min-runtime victim
//	             filter, elastic MinAvailable validator, expected-runtime
//	             nominator, time-based same-priority preemption; the one
//	             vocabulary (Decision, Reason, Observer, Counter, Earliest)
//	requeue      Journal (checkpoint/rollback), transactional requeue Engine,
//	             reference resource model, Backoff, queue order
//	requeue/requeuetest  conformance kit for an embedder's requeue.Model
//	examples     quickstart; simulate, a trace-driven what-if simulator
//
// This package composes them ([Config], [Policy], [Cycle]). Imports point
// down only: queuetree and clock import nothing of tenure's; runtime imports
// queuetree; eligibility imports runtime; requeue imports eligibility; this
// package imports them all.
//
// # One scheduling cycle
//
// [New] builds a [Policy] from one [Config]: the queue hierarchy with
// KAI-Scheduler's per-queue min-runtime fields, its min-runtime plugin
// arguments, the expected-runtime annotation keys, and the requeue engine's
// and backoff's settings, validated all at once (every problem in one error).
// The Policy wires the queue tree, the min-runtime resolver and victim
// filter, the elastic scenario validator, the expected-runtime nominator and
// the requeue engine; the engine applies the min-runtime filter by default,
// so the zero configuration never requeues a protected job.
//
// Each scheduling cycle starts with [Policy.Begin], which reads the
// configured clock ([clock.Clock]; the wall clock by default) exactly once.
// Every decision made through the returned [Cycle] sees that instant:
//
//  1. Preempt/reclaim actions ask [Cycle.CheckVictim] whether each candidate
//     victim may go now (O(1), allocation-free); [Cycle.ValidateScenario]
//     vets a whole scenario for elastic jobs.
//  2. [Cycle.Requeue] runs the expected-runtime nominator over the running
//     jobs and one requeue-engine pass against the scheduler's own state (a
//     requeue.Model): each nominated job is virtually evicted, strictly
//     higher-priority pending work is tried in its place, and the change is
//     committed or rolled back.
//  3. The embedder performs the committed evictions (the engine has already
//     applied them to its Model), writes the not-before annotations, and
//     reads its metrics from the [eligibility.Observer] it configured.
//  4. [Cycle.Wake] is the earliest instant at which any decision of the
//     cycle may change: a scheduler can sleep until then instead of polling.
//
// Every decision has the same shape, [eligibility.Decision]: Allowed, a
// Reason (a stable label usable as a metric label, one type across packages)
// and Until. The pieces stay usable on their own, for forks that integrate
// them one by one; the package Example shows that path.
//
// # Semantics
//
// The boundaries are the contract (< against <=, defaults, order of
// checks); each has a test that fails if it moves. The one table of them is
// the README's Semantics section
// (https://github.com/tenurepolicy/tenure#semantics); each package's doc
// states the rules it implements, with their sources.
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
//
// Where tenure decides differently from a source, the package that implements
// the rule says so and why.
package tenure
