// Package requeue decides what happens to a job after it has been nominated
// to give its resources back, and when a requeued job may run again.
//
// In one scheduling cycle the embedder collects the nominations (from
// [expectedruntime.Nominator] and any other nominator), runs one [Engine] pass
// over its own scheduler state, seen through the two-method [Model]
// interface, and then performs what the result says: evict the committed
// victims and write their not-before annotation. The engine's transactions
// rest on a [Journal], an undo log, or on the model's own transactions
// ([Transactional]); package requeue/cluster holds a ready-made in-memory Model. Independently, a job evicted because it did not become ready in
// time waits out an exponential backoff, and pending jobs are admitted in
// a queue order: both live in package
// [github.com/tenurepolicy/tenure/requeue/backoff].
//
// Every function takes the current instant as a parameter; nothing here
// reads a clock, starts a goroutine or performs I/O.
//
// # Engine
//
// [Engine.Run] is the Requeue action of KAI-Scheduler's expected-runtime
// requeue (KAI-Scheduler PR #941), one pass per scheduling cycle. Its input
// ([EngineInput]) holds the nominations ([VictimNomination]) of any number
// of nominators, the victims' data ([Victim]: priority, queue, start,
// expected runtime, requeue delay, not-before, last checkpoint, resources)
// and the pending contenders ([Contender]); [EngineConfig] holds the victim
// filters, a default delay, the bounds, the orders and the cost rule.
// Victim is an alias of [expectedruntime.Victim], which every
// [expectedruntime.Nomination] embeds: [EngineInput].Nominated takes the
// nominations of [expectedruntime.Nominator] as they are, without a copy field
// by field, and [VictimMinRuntimeFilter] makes
// [minruntime.Filter] a [VictimFilter].
//
// A pass first places every contender that fits as things are (reported in
// [EngineResult.FitWithoutEviction]: no one is evicted for them). Then it
// serves the other contenders in order (highest priority, then oldest, then
// ID), each by a set of victims: one victim, a whole node's, or the
// victims of several nodes for a gang. A set is committed as one
// transaction (every victim committed with its not-before, [Outcome.With]
// naming the others) or not at all, and the contenders that fit in the
// room it leaves are placed at once. The output is data, exactly one
// [Outcome] per nominated job: committed, kept, skipped (with a reason and
// Until), or deferred when a bound stopped the pass. Outcomes embed
// tenure's common [eligibility.Decision] and their reasons are
// [eligibility.Reason] labels; an optional [eligibility.Observer] sees
// every outcome, fit test and placement without eviction.
//
// # The set search
//
// Upstream schedulers choose victim sets as follows. kube-scheduler's
// default preemption (selectVictimsOnNode in
// pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go)
// removes every lower-priority pod from a candidate node, then reprieves
// them one by one, most important first, keeping each one whose return
// still lets the preemptor fit, and picks a node among the candidates by
// stated criteria (pkg/scheduler/framework/preemption/preemption.go).
// KAI-Scheduler's JobSolver (pkg/scheduler/actions/common/solvers,
// job_solver.go and pod_scenario_builder.go) grows accumulated victim
// scenarios for a pending job under a search budget and remembers the
// fingerprints of failed scenarios. tenure's search, per contender c:
//
//  0. Capacity. A [CapacityBounder] model is asked once per contender
//     and pass whether c could fit with every running job evicted (a task
//     larger than every node, a gang larger than the cluster): on no, c
//     gets no placement attempt at all, and its search (the steps below)
//     asks the model nothing but one Evict of each victim it has not yet
//     evicted in the pass, to meet its Evict errors; every accumulation is
//     settled as failed, so its victims end as they would without the
//     hint, and its failures are not charged to their shares. kube-scheduler's default preemption likewise passes over the
//     nodes where the preemptor's failure is unschedulable and
//     unresolvable (nodesWherePreemptionMightHelp in
//     pkg/scheduler/framework/preemption); the engine, which knows no
//     nodes, asks the question about the whole model.
//  1. Groups. A [Localizer] model names the domains (nodes) where each
//     victim holds resources; the open victims are grouped by domain,
//     groups ordered cheapest first (the sum of their victims' costs, then
//     their first victim in victim order).
//     Without a Localizer all victims form one group: still correct and
//     bounded, but a set search then starts from the cheapest victims of
//     the whole cluster, wherever they run.
//  2. Accumulate. In each group, the victims c may use ([EngineConfig.CanContend])
//     are evicted virtually, cheapest first, c being tried after each
//     ([FitBounder] rules most tries out without a placement attempt),
//     until c fits. A [SetFitBounder] model is asked first whether
//     evicting any of them could let c fit; on no, the group is settled
//     without evicting anyone (a contender too large for any domain then
//     costs its search no eviction).
//  3. Reprieve. The victims of that set are then reprieved, most expensive
//     first: each one without which c still fits is dropped, in rounds
//     until a round drops none, so that every victim of the final set was
//     tested against that very set (first-fit placement need not be
//     monotone): with any one of them kept, c does not fit. The filters
//     ([EngineConfig.Filters]) are then asked about the set; a denied
//     victim leaves the group and the search starts again without it, so
//     a victim is skipped for its protection only when it was needed.
//  4. Compare. Up to [EngineConfig.SetCandidates] sets from as many groups
//     are compared by [EngineConfig.VictimCost] (then the lower highest
//     priority, then the larger overrun; with a custom
//     [EngineConfig.VictimOrder], then the set whose last victim comes
//     first in that order); the cheapest is committed, and the other
//     sets' victims, and the victims reprieved from a set the filters
//     allowed, if no later search uses them, are kept with
//     [ReasonCheaperSet]. A victim whose searches found no set the
//     filters allowed is kept with [ReasonNoFit] (skipped with the
//     filter's reason if it was the one denied).
//  5. Across groups. When no group alone makes room (a gang that needs
//     several nodes), the search accumulates the eligible victims of the
//     groups it looked at, cheapest first: once after the first two, and
//     at the end over all of them, and reprieves that set the same way.
//
// A search examines at most [EngineConfig.MaxSetGroups] groups with
// eligible victims and MaxSetGroups·[EngineConfig.MaxSetSize] victims; the
// groups that made no room alone move to the end of the list, so that
// hopeless domains (a victim in cooldown or protected on a node a
// whole-node job needs) cannot keep the next searches from the others.
// The order of the groups is therefore cheapest first only at the start
// of a pass.
// Victims a stopped search never reached are deferred with
// [ReasonSetSearchBound].
//
// The default cost rule ([DefaultVictimCost]) is the work an eviction
// throws away: the victim's Resources (in the embedder's unit, 1 when
// unknown) times the time since its last checkpoint, or since its start
// when it has none (the weighting of Volcano's checkpoint-aware victim
// ordering, volcano-sh/volcano PR #5999; tenure's annotation for the last
// checkpoint is read by the nominator); a set costs the sum.
//
// What a pass guarantees:
//
//   - Every committed victim is necessary: its contender did not fit
//     without eviction in the state the pass had reached (space freed by
//     earlier commits included), nor with any one victim of the set kept.
//     A contender that fits without an eviction is never a reason to
//     evict anyone.
//   - When some set of eligible victims lets the first contender waiting
//     fit once all of them are gone, and evicting every eligible victim
//     within the search's bounds makes room, that contender is served.
//   - A protected victim (a filter's denial for that contender) is never
//     evicted for it.
//   - The result does not depend on the order of the nominations, the
//     victims or the contenders: several entries for one victim merge field
//     by field (the most protective value of each, see
//     [EngineInput.Victims]), duplicate contenders keep the first in
//     contender order, a contender that is also nominated is dropped with
//     [ContenderError], and empty IDs are bad data
//     ([ReasonInvalidID]; a contender with an empty ID is a [ContenderError]).
//   - A panicking callback (a Model method, an undo step, a filter, the
//     observer, ...) leaves the model as it was at the pass's last commit
//     and the Engine ready for the next pass; the panic continues. When
//     that restore cannot be completed (the panic came from an undo step or
//     the model's Rollback, or one of them panicked or failed during the
//     restore), the panic continues with a [*RestoreError] instead: the
//     model then promises nothing, not even its own invariants, and must be
//     rebuilt. Run called from
//     one of its own callbacks is refused ([ErrReentrantRun]).
//   - The cost is bounded, with defaults even in the zero config: at most
//     [EngineConfig.MaxAttempts] placement attempts and
//     [EngineConfig.MaxChecks] examinations per pass; per victim, at most
//     [EngineConfig.MaxAttemptsPerVictim] failed set evaluations (for
//     contenders some set could serve: a hopeless contender's do not
//     count) and
//     [EngineConfig.MaxChecksPerVictim] examinations that found it
//     ineligible, after which it is given up (kept with
//     [ReasonMaxVictimAttempts] or [ReasonMaxVictimChecks]) so that
//     victims no contender can use do not starve the others.
//
// What a pass does not guarantee: the cheapest set. Finding a minimum-cost
// set of victims that makes room for a job is NP-hard in general (it holds
// knapsack-like packing); the search is greedy (cheapest first, then
// reprieve), compares a few domains, and looks across domains only in
// their order. Its sets are irreducible, not minimal in cost; the engine's
// tests measure the distance to brute force on small worlds. Nor does it
// serve a contender whose only sets lie beyond its search's bounds, or
// that needs victims kept by earlier contenders' sets.
//
// # Cost
//
// Per contender, a search costs O(G·S) examinations for G = MaxSetGroups
// groups of at most S = MaxSetSize victims, plus O(s²) evictions to
// reprieve a set of s victims (each round evicts the set once per victim);
// a contender that fits as things are costs one attempt. A pass costs
// O(n log n + k log k) to prepare n nominations and k contenders, plus
// O(k·G·S) examinations and O(k·(G + s²)) fit tests in the worst case
// (grouping the victims hashes their domain keys: O(n) beside the sort);
// with a [Shaper] and no filters, contenders of one shape and priority
// that failed in an unchanged state are answered without a search, and
// with a [FitBounder] most fit tests cost no placement attempt, and with a
// [SetFitBounder] a group that cannot make room costs one question
// instead of its evictions; with a [CapacityBounder] a contender no
// eviction can help costs one question, then only its search's walk over
// the victims (the examinations that decide their outcomes) and at most
// one eviction per victim in the whole pass. Everything
// stays within the pass's bounds. Run allocates the result and O(n + k)
// scratch space on the first pass; later passes reuse it.
//
// Choices beyond KAI-Scheduler's proposal, and why:
//
//   - Filters are asked per victim-contender pair ([VictimFilter] receives
//     both), because min-runtime resolution depends on the preemptor's
//     queue (preempt within a leaf queue, reclaim across queues), and only
//     about the victims of a set that lets the contender fit.
//   - Contenders that fit without an eviction are placed in the model and
//     reported (with the first victim of the set whose commit made room,
//     if any), rather than left out: no later eviction then counts on
//     their room.
//   - The not-before is now + delay rounded UP to a whole second
//     ([eligibility.FormatNotBefore]), so writing it never shortens a
//     cooldown; a victim's own zero requeue delay is honoured
//     (Victim.HasRequeueDelay).
//   - MaxVictims bounds the evictions of a pass (0: no bound); a set that
//     would pass it stops the pass.
//
// # Model, Journal and the reference model (package cluster)
//
// A [Model] evicts a job virtually and tries to place a job as a gang,
// recording an undo step in the engine's [Journal] for every change it
// makes; a model that keeps its own transactions, such as an adapter over
// KAI-Scheduler's or Volcano's Statement, implements [Transactional]
// instead, and the engine uses its savepoints (ExampleTransactional); a
// model may also keep some changes in its own transactions and record
// others in the journal, which undoes both in the reverse order they were
// made. The Journal ([Journal.Record] for a closure, [Journal.RecordUndoer]
// for an allocation-free step) marks positions with [Journal.Checkpoint]
// (O(1), no allocation), undoes, newest first, everything recorded since a
// checkpoint with [Journal.Rollback] (O(k) for k steps), and forgets the log
// with [Journal.Commit] (O(k) as well: it clears the steps it forgets,
// keeping the changes). Checkpoints nest. A checkpoint knows its journal and
// the step it follows, so a stale one (rolled back past, or taken before a
// Commit) is rejected with [ErrStaleCheckpoint] and one from another journal
// with [ErrForeignCheckpoint], never silently accepted; rolling back to the
// same checkpoint twice, and committing twice, are harmless.
//
// A panicking undo step does not break the journal: Rollback forgets each
// step just before running it, so after the embedder recovers, the newer
// steps are undone, the panicking one is dropped, the older ones remain,
// and a later Rollback to the same checkpoint finishes the job; recording
// works again at once. An undo step that calls Rollback or Commit on its
// own journal is refused with [ErrRollingBack] instead of recursing.
//
// Package [github.com/tenurepolicy/tenure/requeue/cluster] is tenure's
// in-memory reference Model (nodes with resource vectors, first-fit gang
// placement, journaled), used by the tests and the examples; the
// simulator builds its own model on the same free-resource index and
// memory of failed fits.
//
// Package [github.com/tenurepolicy/tenure/requeue/requeuetest] checks an
// embedder's own Model against this contract: a test gives it a
// constructor and a state rendering, and it drives random evictions,
// placements, checkpoints, rollbacks and commits, reporting any state that
// is not restored exactly.
//
// # Concurrency
//
// [Journal], [Engine] and cluster.Model hold state and belong to one goroutine,
// like the scheduling cycle that drives them.
package requeue
