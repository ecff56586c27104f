// Package requeue decides what happens to a job after it has been nominated
// to give its resources back, and when a requeued job may run again.
//
// In one scheduling cycle the embedder collects the nominations (from
// [eligibility.Nominator] and any other nominator), runs one [Engine] pass
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
// expected runtime, requeue delay, not-before) and the pending contenders
// ([Contender]); [EngineConfig] holds the victim filters, a default delay,
// bounds and the orders. [EngineInput.AddNominations] takes the nominations
// of [eligibility.Nominator] directly, and [VictimMinRuntimeFilter] makes
// [eligibility.MinRuntimeFilter] a [VictimFilter].
//
// A pass first places every contender that fits as things are (reported in
// [EngineResult.FitWithoutEviction]: no one is evicted for them). Then, for
// each victim in order (lowest priority, largest overrun, ID) not in
// cooldown (now < NotBefore; eligible at exactly NotBefore), it checkpoints,
// evicts the victim virtually, and places the contenders that may use its
// resources (strictly higher priority by default), highest first, then
// oldest, then ID, each kept only if the filters allow evicting the victim
// for it; it commits if any was kept, and places again what fits in the
// room the commit left, or rolls back. The output is data, exactly one
// [Outcome] per nominated job: committed (the victim to evict, the
// contenders placed, the not-before and its annotation text), kept, skipped
// (with a reason and Until), or deferred when a bound stopped the pass.
// Outcomes embed tenure's common [eligibility.Decision] and their reasons
// are [eligibility.Reason] labels; an optional [eligibility.Observer]
// ([eligibility.Counter] counts) sees every outcome, rolled-back attempt and
// placement without eviction as an [eligibility.Event].
//
// What a pass guarantees:
//
//   - Every committed eviction is necessary: each contender placed in a
//     victim's resources was tried without that eviction, in the state the
//     pass had reached (space freed by earlier commits included), and did
//     not fit. A contender that fits without an eviction is never a reason
//     to evict anyone.
//   - The result does not depend on the order of the nominations, the
//     victims or the contenders: several entries for one victim merge field
//     by field (the most protective value of each, see
//     [EngineInput.Victims]), duplicate contenders keep the first in
//     contender order, and a contender that is also nominated is dropped
//     with [ErrContenderNominated].
//   - A panicking callback (a Model method, an undo step, a filter, the
//     observer, ...) leaves the model as it was at the pass's last commit
//     and the Engine ready for the next pass; the panic continues. When
//     that restore cannot be completed (the panic came from an undo step or
//     the model's Rollback, or one of them panicked or failed during the
//     restore), the panic continues with a [*RestoreError] instead: the
//     model is not at its last commit and must be rebuilt. Run called from
//     one of its own callbacks is refused ([ErrReentrantRun]).
//   - The cost is bounded: at most [EngineConfig.MaxAttempts] placement
//     attempts and [EngineConfig.MaxChecks] contender examinations, with
//     defaults ([DefaultMaxAttempts], [DefaultMaxChecks]) even in the zero
//     config. [EngineConfig.MaxAttemptsPerVictim]
//     ([DefaultMaxAttemptsPerVictim]) bounds the failed attempts spent on
//     one victim, so that victims no contender can use do not eat the
//     pass's attempts: past it the victim is kept with
//     [ReasonMaxVictimAttempts] and the pass goes on.
//
// What a pass does not do: each eviction must make room for a contender on
// its own. A contender that fits only once two or more victims are gone
// (an 8-GPU job on a node where two 4-GPU victims run) is never served;
// both victims are kept. The engine never evicts one victim in the hope
// that another eviction completes the room, which is what keeps every
// eviction necessary; such a contender needs the scheduler's own
// preemption.
//
// A pass stays cheap when the model helps through two optional
// interfaces, both implemented by cluster.Model: a [Shaper] names
// interchangeable pending jobs, so that a contender that does not fit
// stands for its whole shape until the state changes, and a [FitBounder]
// rules hopeless attempts (and hopeless victims) out before any
// checkpoint. Its placement attempts then grow linearly (76, 727, 7,582
// when nominations and contenders grow 10× twice), but each victim
// examines every shape still available, so the examinations grow 11× and
// then 17× as the 16 shapes of the benchmark stop running out, and the
// time, measured on a shared two-core machine, 14× (0.77 ms to 11 ms)
// and then 21× (to 0.24 s for 100,000 nominations and 10,000 contenders on
// 50,000 nodes): near-linear, not linear (see the README's benchmarks). A
// model without the hints pays a Place per contender and victim, up to the
// bounds.
//
// Choices beyond KAI-Scheduler's proposal, and why:
//
//   - Filters are asked per victim-contender pair ([VictimFilter] receives
//     both), because min-runtime resolution depends on the preemptor's
//     queue (preempt within a leaf queue, reclaim across queues), and only
//     about contenders that fit in the victim's resources: a victim is
//     skipped with the filters' reason only when the protection is what
//     keeps it running; if nothing fits it is kept, protected or not.
//   - After the first contender fits, the remaining contenders are tried in
//     the same freed resources before committing, so one eviction can start
//     several small jobs instead of costing one victim each.
//   - Contenders that fit without an eviction are placed in the model and
//     reported (with the victim whose commit made room, if any), rather
//     than left out: no later eviction then counts on their room.
//   - The not-before is now + delay rounded UP to a whole second
//     ([eligibility.FormatNotBefore]), so writing it never shortens a cooldown; a
//     victim's own zero requeue delay is honoured (Victim.HasRequeueDelay).
//   - MaxVictims bounds the evictions (commits) of a pass (0: no bound);
//     MaxAttempts and MaxChecks bound its work (0: the default).
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
// placement, journaled), used by the tests, the examples and the simulator.
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
// An [eligibility.Counter] is safe for concurrent use.
package requeue
