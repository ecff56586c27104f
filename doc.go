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
//	             nominator, time-based same-priority preemption
//	requeue      Journal (checkpoint/rollback), transactional requeue Engine,
//	             reference resource model, Backoff, queue order
//	examples     quickstart; simulate, a trace-driven what-if simulator
//
// Imports point down only: queuetree and clock import nothing of tenure's;
// runtime imports queuetree; eligibility imports runtime; requeue imports
// eligibility.
//
// # One scheduling cycle
//
// Read the clock once and pass that instant to every decision of the cycle:
//
//  1. When the queue snapshot changes, build a [queuetree.Tree] and a
//     runtime.Resolver (O(queues); immutable, shared by every goroutine).
//  2. Preempt/reclaim actions ask the eligibility min-runtime filter whether
//     each candidate victim may go now (an O(1), allocation-free check); the
//     elastic validator vets the whole scenario before it is committed.
//  3. The expected-runtime nominator names running jobs past their expected
//     runtime; the requeue Engine virtually evicts each, tries to place
//     strictly higher-priority pending work, and commits or rolls back.
//  4. The embedder performs the evictions the engine returns, writes the
//     not-before annotations, and maps observer callbacks to its metrics.
//
// Every decision carries a reason and Until, the earliest instant its answer
// may change, so a scheduler can wake up then instead of polling.
//
// # Semantics
//
// The boundaries are the contract; each has a test that fails if it moves.
//
//	decision                   rule                           boundary
//	min-runtime protection     protected while now < start+d  evictable at exactly start+d
//	d = 0                      never protected
//	no start time              not protected
//	start in the future        protected until start+d        (conservative; reason records skew)
//	expected-runtime eligible  now - start >= expected        nominated at exactly expected
//	cooldown (not-before)      blocked while now < notBefore  eligible at exactly notBefore
//	min-admit (same priority)  preemptible when now-reserved > M  not preemptible at exactly M
//	backoff requeue            admissible when now >= requeueAt   admissible at exactly requeueAt
//
// Min-runtime values resolve down the queue tree: an unset value inherits
// from the parent, an explicit 0 stops inheritance, and the node-pool
// defaults apply only when nothing on the walk is set. Reclaims resolve at
// the child of the reclaimer's and victim's lowest common ancestor on the
// victim's side (method lca, the default) or at the victim's queue (method
// queue).
package tenure
