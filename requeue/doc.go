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
// time waits out an exponential backoff ([BackoffConfig], [RequeueState]),
// and pending jobs are admitted in [QueueOrder].
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
//     ([FormatNotBefore]), so writing it never shortens a cooldown; a
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
// # Backoff
//
// [BackoffConfig] computes how long a job that did not become ready in time
// (Kueue's waitForPodsReady requeuing strategy, KEP-1282
// keps/1282-pods-ready-requeue-strategy) waits before it may be admitted
// again: the n-th requeue waits Base·2^(n−1), capped at Max, plus a jitter
// of at most Jitter·delay drawn from a value the caller supplies
// ([BackoffConfig.DelayJitter]) or from a [BackoffSource] such as
// *math/rand/v2.Rand ([BackoffConfig.DelayFrom]). The cap is applied before
// multiplying, so the delay is exact and never overflows, for any n (older
// Kueue releases overflowed to "no backoff" at n ≥ 29).
//
// The zero BackoffConfig is Kueue's default: Base 60s, Max 1h, Jitter 0.0001,
// no limit. A zero field means its default; a zero meant literally is marked
// by a flag: NoDelay (every delay 0), Uncapped (no cap; delays stop at
// [BackoffUncappedMax], 2^62 ns or about 146 years) and NoJitter.
// [BackoffConfig.Validate] reports every problem at once.
//
// Kueue's backoff depends on its release, and tenure follows current Kueue:
// UpdateRequeueState (pkg/workload) computes the delay with pkg/util/wait
// NewBackoff(base, max, 2, 0.0001) and its WaitTime, which step
// k8s.io/apimachinery's wait.Backoff. There a zero max becomes the cap
// MaxInt64/2 (BackoffUncappedMax), the jitter is added after the cap (a
// capped delay is Max plus its jitter), and the first requeue waits the base
// even when it exceeds the max. Older releases (from v0.7, which added
// backoffMaxSeconds, first in pkg/controller/core/workload_controller.go,
// then in pkg/workload UpdateRequeueState) took min(Step(), max) instead: a
// zero max made every delay 0, a base above the max gave the max, the
// jitter could not lift a delay above the max, and the float doubling
// overflowed at n ≥ 29 with the 60s base. [BackoffConfig.ClampToMax]
// gives that computation, overflow aside.
//
// Kueue's own configuration converts both ways. [KueueRequeuingStrategy]
// mirrors waitForPodsReady.requeuingStrategy field for field (timestamp,
// backoffLimitCount, backoffBaseSeconds, backoffMaxSeconds; Kueue
// apis/config/v1beta1 RequeuingStrategy). [KueueRequeuingStrategy.Strategy]
// reads it as current Kueue does (nil: the default; backoffBaseSeconds 0: no
// delay; backoffMaxSeconds 0: no cap) into a [RequeuingStrategy]
// (timestamp strategy and backoff) whose DelayJitter is Kueue's delay to
// the nanosecond for the same draw, and [RequeuingStrategy.Kueue] converts
// back: every accepted configuration round-trips exactly.
// [KueueRequeuingStrategy.ClampedStrategy] reads the same fields as the
// older releases did. [RequeuingStrategyFromKueueMap] and
// [BackoffFromKueueMap] read the same keys from a string map. tenure
// refuses one configuration current Kueue accepts, a base above the max:
// Kueue then waits the base itself on the first requeue, beyond its own
// maximum, and caps only later ones; tenure keeps every delay within the
// maximum and asks for a consistent pair rather than delay less than Kueue
// would (ClampedStrategy accepts it, as the older releases capped it).
//
// [RequeueState] {Count, RequeueAt} is the per-job state the embedder
// persists. [RequeueState.Timeout] is the transition on a readiness-timeout
// eviction: when a limit is set and Count ≥ Limit the job is deactivated (the
// count is not incremented: with limit L a job is requeued exactly L times,
// and limit 0 deactivates on the first timeout); otherwise Count grows by one
// and RequeueAt becomes max(RequeueAt, now + delay), so it never moves
// earlier. Every deactivation resets the state ([RequeueState.Deactivate]), so
// a reactivated job starts from zero. KEP-1282 instead leaves the state alone
// at the deactivation and clears it on reactivation, and keeps it when a user
// deactivates the job; tenure chose the simpler rule, which gives the same
// result on reactivation after the limit. The job is
// admissible when now ≥ RequeueAt, at exactly RequeueAt included
// ([RequeueState.Admissible], which returns RequeueAt as the instant the
// answer flips).
//
// For capacity planning, [BackoffConfig.TotalDelay] sums the first n delays.
// KEP-1282 works an example, base 60s and 10 requeues with jitter neglected,
// as "60s+120s+240s+…+30720s = 8h 32min". The sum is in fact
// 60s·(2^10−1) = 61,380s = 17h3m; 30,720s (8h32m) is only its last term. With
// the default 1h cap the same 10 requeues wait 5h3m (3,780s + 4·3,600s).
// Also, a job with limit 10 meets 11 readiness timeouts (the 11th deactivates
// it), so at a 300s timeout it spends 55min, not the KEP's 50min, waiting for
// its pods.
//
// Delay, DelayJitter, TotalDelay and the RequeueState methods are O(1) and
// allocation-free.
//
// # Queue order
//
// [QueueOrder] orders pending jobs ([QueueEntry]): higher priority first,
// then earlier queue-order timestamp, then smaller ID. [QueueOrder.Compare] is
// a strict weak ordering, total for distinct IDs, so the order is
// deterministic. The timestamp follows Kueue's
// Ordering.GetQueueOrderTimestamp (kubernetes-sigs/kueue pkg/workload): the
// first that applies of
//
//   - under [TimestampEviction] (the default, the zero value), the instant
//     of the job's readiness-timeout eviction (QueueEntry.TimeoutEvicted):
//     back of the queue after such an eviction; [TimestampCreation] ignores
//     it and keeps the job's place;
//   - under either strategy, the instant of its admission-check eviction
//     (QueueEntry.AdmissionCheckEvicted);
//   - with [QueueOrder.RestampReclaimPreempted] (Kueue with its
//     PrioritySortingWithinCohort gate off; the gate is on by default), the
//     instant it was preempted to reclaim borrowed quota plus 1ms
//     (QueueEntry.ReclaimPreempted), so it sorts behind its preemptor;
//   - its creation.
//
// The entry's eviction fields describe its current eviction, as Kueue's
// Evicted and Preempted conditions do (both are reset when the job is
// admitted again). A job preempted by an equal-priority job (a time-based or
// "newer" pick of eligibility's LowerOrNewerEqualPriority policy,
// [QueueEntry.SamePriorityPreempted]) is stamped with that instant under
// both strategies when it is later, so that equal-priority jobs take turns
// instead of taking the slot straight back (tenure's own rule;
// [QueueOrder.Timestamp] explains it). Other preemptions change the
// timestamp under neither strategy. Timestamps are compared as wall-clock
// instants (monotonic readings are stripped). [QueueOrder.Compare] suits
// slices.SortFunc; [QueueOrder.Sort] computes each timestamp once and sorts
// compact keys, three to four times faster at 50,000 jobs.
// TimestampStrategy reads and writes Kueue's spelling ("Eviction",
// "Creation") as text; [RequeuingStrategy.QueueOrder] builds the order from
// Kueue's configuration.
//
// # Concurrency
//
// [Journal], [Engine] and cluster.Model hold state and belong to one goroutine,
// like the scheduling cycle that drives them. [BackoffConfig],
// [RequeueState] and [QueueOrder] are plain values, safe to share.
// An [eligibility.Counter] is safe for concurrent use.
package requeue
