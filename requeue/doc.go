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
// (highest priority, then oldest, then ID), each by a set of victims,
// committed as one transaction or not at all; contenders that fit in the
// room a commit leaves are placed at once. Each nominated job gets exactly
// one [Outcome]: committed, kept, skipped (with a reason and Until) or
// deferred (a bound stopped the pass).
//
// The set search for a contender c is KAI-Scheduler's JobSolver
// (pkg/scheduler/actions/common/solvers, job_solver.go) grown by
// kube-scheduler's reprieve (selectVictimsOnNode in
// pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go):
//
//  0. A [CapacityBounder] says once whether c could fit with every running
//     job evicted; if not, c gets no placement attempt (as
//     nodesWherePreemptionMightHelp in pkg/scheduler/framework/preemption).
//  1. A [Localizer] groups the victims by domain (node); groups go
//     cheapest first. Without one all victims form one group.
//  2. In each group the victims c may evict ([EngineConfig].CanContend) are
//     evicted virtually, cheapest first, until c fits; a [FitBounder] rules
//     most tries out without a placement attempt, a [SetFitBounder] a whole
//     group.
//  3. The set is reprieved, most expensive first, in rounds, until every
//     victim is needed: with any one kept, c does not fit. The filters are
//     asked about that set only; a denied victim leaves the group and the
//     search restarts without it.
//  4. Up to SetCandidates sets from as many groups are compared by
//     VictimCost and the cheapest committed; the others' victims are kept
//     with [ReasonCheaperSet].
//  5. When no group alone makes room (a gang over several nodes), the
//     search accumulates the eligible victims of several groups.
//
// A pass guarantees: every committed victim was needed by its contender
// in the state the pass had reached; a contender that fits without an
// eviction is never a reason to evict; a victim a filter denies for c is
// never evicted for c; when evicting every eligible victim within the
// bounds makes room for the first contender waiting, it is served; the
// result does not depend on the order of the input; a panicking callback
// leaves the model at the pass's last commit (else Run panics with a
// [*RestoreError]). It does not guarantee the cheapest set: that is
// NP-hard (knapsack-like packing); the search is greedy, and its sets are
// irreducible, not minimal in cost.
//
// # Cost
//
// Bounded even in the zero config: MaxAttempts placement attempts and
// MaxChecks examinations per pass, MaxAttemptsPerVictim and
// MaxChecksPerVictim per victim. A search examines O(G·S) victims for G =
// MaxSetGroups groups of S = MaxSetSize, plus O(s²) evictions to reprieve
// a set of s. A pass costs O(n log n + k log k) to prepare n nominations
// and k contenders, plus O(k·G·S) examinations and O(k·(G + s²)) fit
// tests at worst; the hints cut most of them. Run allocates the result
// and reuses its O(n + k) scratch space across passes.
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
