// Package requeue decides what happens to a job after it has been
// nominated to give its resources back: which nominated jobs to evict,
// for which pending jobs, and when each may run again. It is the Requeue
// action of KAI-Scheduler's expected-runtime requeue (KAI-Scheduler PR
// #941). Kueue's readiness backoff and queue order live in package
// [github.com/tenurepolicy/tenure/requeue/backoff].
//
// Once per scheduling cycle the embedder collects nominations (from
// [expectedruntime.Nominator] and any other nominator) into an
// [EngineInput], runs one [Engine.Run] pass over its scheduler state seen
// through the two-method [Model] interface, and performs what the
// [EngineResult] says: evict the committed victims and write their
// not-before annotation. Every function takes the current instant as a
// parameter; nothing here reads a clock, starts a goroutine or performs
// I/O. Journal, Engine and a Model belong to one goroutine.
//
// # A pass
//
// A pass first places every contender that fits as things are
// ([EngineResult.FitWithoutEviction]). It then serves the others in order
// (highest priority, then oldest, then ID), each as things are or by a set
// of victims, committed as one transaction or not at all; a last round
// places the contenders whose search failed and that fit in the room the
// commits left. Each nominated job gets exactly
// one [Outcome]: committed, kept, skipped (with a reason and Until) or
// deferred (a bound stopped the pass); every contender the pass did not
// decide is counted in [EngineResult] (NoSet, OverShare, OverCap,
// Untried).
//
// The set search for a contender c needs nothing but [Model.Evict] and
// [Model.Place]. It works on c's eligible list: the open victims c may
// evict ([EngineConfig].CanContend), in victim order (cheapest first).
//
//  1. Gallop: evict the list in order, testing c's fit after 1, 2, 4, 8,
//     … victims, until it fits: O(p) evictions and O(log p) fit tests when
//     the shortest fitting prefix has p victims. No prefix fits: no set
//     serves c ([EngineResult].NoSet).
//  2. Filters: they are asked about each victim as the gallop reaches it,
//     once per victim and contender; a denied victim is not in c's list.
//     Its denial is recorded (skipped, with the filter's reason and Until)
//     only where the protection kept c waiting: below the last victim of
//     c's set, or among the denied victims that would let c fit when no
//     set of allowed ones does.
//  3. Group testing: the fitting prefix is narrowed to a set by
//     QuickXplain (Junker, AAAI 2004), split first where the gallop
//     stopped, then in halves, the cheaper half first: O(k·log(p/k)) fit
//     tests for a set of k.
//  4. Reprieve: the set is tested whole, then each victim, most expensive
//     first, is dropped when c still fits without it, until a round drops
//     none (kube-scheduler's reprieve, SelectVictimsOnNode in
//     pkg/scheduler/framework/plugins/defaultpreemption).
//
// When Place is monotone in the victims evicted (evicting more never
// makes a fitting job not fit), steps 1 to 3 find the set that
// evict-all-then-reprieve finds (every eligible victim evicted, then each
// put back, most expensive first, while c still fits): the cheapest last
// victim, then the cheapest next one, and so on. When Place is not
// monotone (first fit over gangs can be), the pass still guarantees what
// step 4 tests: the committed set lets c fit, and with any one of its
// victims kept c was tested not to fit against that very set.
//
// The answers do not depend on the optional hints ([Shaper],
// [FitBounder]): a hint answers fit tests the engine would otherwise ask
// Place, and every bound counts those tests alike. A search whose list
// ends with every victim evicted and no fit leaves them evicted while the
// next contenders of its class (the same priority bracket; with a custom
// CanContend, the same EngineConfig.ContendClass key) are tested: one fit
// test each instead of a search. A search that reaches its share of
// MaxChecks is tested so once, at the pass's expense (once per class and
// pass), so that a hopeless contender is decided rather than deferred.
//
// A pass guarantees: every committed victim was needed by its contender
// in the state the pass had reached; a contender that fits without an
// eviction is never a reason to evict; a victim a filter denies for c is
// never evicted for c; the result does not depend on the order of the
// input; a panicking callback leaves the model at the pass's last commit
// (else Run panics with a [*RestoreError]). It does not guarantee the
// cheapest set: that is NP-hard (knapsack-like packing); its sets are
// irreducible, not minimal in cost.
//
// # Reasons
//
// Each outcome's and event's Reason is a stable metric label. Skipped:
// "invalid_id" ([ReasonInvalidID]), "unknown_victim"
// ([ReasonUnknownVictim]), "invalid_delay" ([ReasonInvalidDelay]),
// "evict_error" ([ReasonEvictError]), "filtered" ([ReasonFiltered]),
// eligibility's "cooldown", or a filter's own reason. Committed:
// "committed". Kept: "no_contender", "no_fit", "cheaper_set",
// "lost_work". Deferred: "set_search_bound", and the bound that stopped
// the pass ([EngineResult].Stop): "max_victims", "max_attempts",
// "max_checks", "model_error". Events only: "rolled_back",
// "fit_without_eviction". Code branches on [Outcome].Kind (and Stop
// against ""); the labels of committed, kept and deferred outcomes and of
// events are labels only, for metrics and logs, so they have no constants.
//
// # Cost
//
// Bounded even in the zero config: MaxAttempts fit tests and MaxChecks
// examinations (evictions, fit tests) per pass, MaxFillFailures failed fit
// tests per round of placements without eviction (one before the
// searches, one after them); each contender's
// search may use an equal part of the examinations the pass has left, so
// a hopeless contender cannot starve the ones behind it. A search costs
// O(p) evictions and O(k·log p) fit tests for a set of k found in a prefix
// of p victims, plus O(k²) evictions to reprieve it; any search that knows
// only Evict and Place must evict those p victims to show that no cheaper
// prefix lets the contender fit, and without knowing where victims run, p
// grows faster than the cluster (BENCHMARKS.md measures it). A pass costs O(n log
// n + k log k) to prepare n nominations and k contenders, plus its
// searches. Run allocates the result and reuses its O(n + k) scratch
// space across passes.
//
// # Journal and models
//
// A [Model] evicts and places virtually, recording an undo step in the
// engine's [Journal] for every change; a model with its own transactions
// (an adapter over KAI-Scheduler's or Volcano's Statement) implements
// [Transactional] instead, or mixes both. The Journal records closures
// ([Journal.Record]) or allocation-free steps ([Journal.RecordUndoer]),
// marks positions ([Journal.Checkpoint], O(1)), undoes newest first
// ([Journal.Rollback], O(k) for k steps) and forgets ([Journal.Commit],
// O(k)). Package [github.com/tenurepolicy/tenure/requeue/cluster] is a
// ready in-memory Model; package
// [github.com/tenurepolicy/tenure/requeue/requeuetest] checks an
// embedder's own Model against this contract.
package requeue
