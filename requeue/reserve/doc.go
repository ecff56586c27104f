// Package reserve holds nodes for pending jobs that would otherwise starve:
// a job that needs whole nodes can wait for days while smaller jobs keep
// taking the room it needs. A [Planner] plans, once per scheduling cycle,
// when and where each of a few long-waiting jobs can start, lets other jobs
// run on those nodes only if they leave in time (backfill), and at the
// planned start requeues what overstays through the requeue engine.
//
// It follows the idea of Slurm's backfill scheduler (a reservation at the
// earliest time a job can start; jobs started in front of it only if their
// time limit ends before it) with what tenure knows that Slurm does not: a
// job's min-runtime protection, its expected runtime and its last
// checkpoint. Slurm kills a job at its limit; here a job that overstays is
// requeued at the planned start, as a set chosen by the requeue engine,
// honouring the engine's filters (min-runtime protection) and its lost-work
// cap.
//
// # Who holds a reservation
//
// Plan walks the pending jobs in the order the scheduler gives
// ([Input].Pending). A job qualifies once it has waited Config.After
// (now - Queued >= After), when its size (Tasks × Units) is at least
// Config.MinUnits and, with HasMinPriority, its priority at least
// Config.MinPriority. Qualifying jobs take reservations in order while
// fewer than Config.Max are held (0: reservations are off). A job whose
// request is malformed (no ID, no task, no unit) is
// skipped with bad_request; one that no set of nodes can ever serve with
// no_planned_start. Neither takes a slot. A Plan finds at most 16 requests
// unservable (each costs O(nodes)); the jobs after them wait for the next
// Plan.
//
// # Where, and the planned start
//
// Each running job's share of a node ([Job]) is gone for sure at its
// release instant: the latest of its expected end (Start + Expected), its
// min-runtime protection end (ProtectedUntil, else Config.Protection's)
// and its not-before gate, or now when all have passed (the requeue engine
// may evict it now). A job without an expected runtime (or without a
// start) never is: a node it runs on is planned only if it has room
// without that job. Nor is a job past its expected end whose eviction
// would already lose more than Engine.MaxLostWork: its loss only grows, so
// no pass could requeue it. A node can hold one
// task of the request (Units) from the first release instant at which its
// free units, with every job released by then gone, reach Units; a node
// whose capacity is below Units, or on which a job holds negative units,
// never can.
//
// A request of k tasks gets k distinct nodes (all of one Node.Domain with
// OneDomain), among those no other reservation holds and, with
// Config.Fits, those that could hold one of its tasks at all (CPU, memory,
// GPU model, selectors: what Units does not say). A gang whose model
// packs several tasks on a node is asked for as the nodes it needs (Tasks)
// and what it needs on each (Units). The planned start is
// the earliest any such set can offer: the k-th earliest node start (per
// domain, then the earliest domain). Of the nodes ready by then, the plan
// takes the k whose evictions lose the least work at the planned start
// (ties: the earlier node, then name order). A node's loss is that of the
// jobs that leave it first, in release order, until the task has room,
// counting those past their expected end now (they leave only when
// requeued): resource-seconds since their last checkpoint
// (Reservation.LostWork; a gang on two held nodes counts on each). Jobs
// expected to end by themselves lose nothing. It is the plan's estimate:
// the pass at the start evicts the cheapest irreducible set.
//
// # Backfill
//
// [Planner.Backfill] decides whether a pending job may start on a node. On
// a node no reservation holds, or one the job holds, it may. On another's,
// only when it would leave by the planned start: now + Expected <= Start
// (a job without an expected runtime never backfills:
// [ReasonNoExpectedRuntime]) and now + MinRuntime <= Start, so that if it
// overstays the requeue pass may evict it; otherwise [ReasonReserved],
// with the planned start as Until. A job that honours its expected runtime
// is gone at the planned start, so it never delays the holder.
//
// # At the planned start
//
// When a Plan reaches a reservation's start (Result.Due), and Plan was
// given a [requeue.Model], it runs one requeue pass for it: the holder is
// the only contender, the jobs on its nodes whose release instant has
// come are nominated (nominator "reservation"; the plan counted them gone),
// and the engine evicts an irreducible set of them, cheapest first, under Config.Engine (its Filters and MaxLostWork hold; a nil
// CanContend lets the holder evict jobs of any priority there). The
// embedder evicts the committed victims and starts the holder where the
// pass placed it (Result.Passes).
//
// Before its start, a reservation is planned afresh at every Plan and
// moves when another set of nodes (its own included) starts strictly
// earlier, as Slurm's backfill plans afresh each cycle
// (reservation_moved_earlier; not a re-plan). A holder that a pass could
// not place on its empty nodes does not fit them: it is released at the
// next Plan (holder_does_not_fit), and may take other nodes then; set
// Fits so that the plan knows.
//
// If the holder has not started by a later Plan (at a later instant, and
// once every victim its pass committed has left Input.Running: a victim
// still terminating is waited for, with no second pass), the reservation
// is planned again (reservation_replanned; its nodes may change), at most
// Config.MaxReplans times (default 3). After that it drains
// (reservation_draining): it keeps its nodes, nothing backfills there,
// and a pass runs at every Plan until the holder starts. A pass may call
// Backfill from the model's Place (the reservations it sees are this
// Plan's).
//
// The guarantee: while the holder keeps qualifying and its nodes exist,
// the reservation is never released for being late, and after at most
// MaxReplans re-plans nothing new starts on its nodes (if the scheduler
// honours Backfill). So the holder waits at most until the jobs on its
// nodes when it began to drain have ended or been requeued: it starts at
// its first planned start when every job there honours its expected
// runtime and the engine's filters allow what the plan assumed (a job
// whose eviction a filter other than min-runtime protection denies, or an
// Evict error, is what costs a re-plan).
//
// A reservation is released when its holder starts (it is in
// Input.Running: holder_started), leaves (it is in neither list:
// holder_left), no longer qualifies by its size or priority (the wait
// counts only to take a reservation: a Renew that raises After keeps the
// holders) or changed its number of tasks or outgrew a node or no longer
// Fits one (holder_not_qualified), when one of
// its nodes is gone
// (node_gone), or when a re-plan finds no set (no_planned_start). No two
// reservations share a node. Renew to a lower Max releases the
// reservations taken last (holder_not_qualified).
//
// # Wake and the Observer
//
// Result.Wake is the earliest of the planned starts still ahead, the
// instant the next pending job reaches After (while a slot is free), the
// due passes' own Wake and, for a due holder the pass did not place, the
// next release instant on its nodes: a scheduler that sleeps until Wake
// re-plans when something can change. The Observer (Config.Observer), and
// the Logger as log lines, receive, with Source "reservation",
// reservation_taken (Until: the planned start), reservation_moved_earlier,
// reservation_replanned, reservation_due, reservation_draining, the
// release reasons above (holder_does_not_fit too), bad_request and
// no_planned_start. Backfill's allowed decisions are labelled
// not_reserved, reservation_holder and backfill.
//
// # Cost
//
// A Plan costs O(nodes + jobs·log(jobs per node)) to index its input
// (O(nodes + pending jobs) when no reservation is held and no job qualifies:
// it then reads no running job, so a scheduler may call it every cycle), one
// O(nodes·log(nodes)) sort per task size, O(nodes) per plan made (each
// reservation held, each taken, each request found unservable: at most 16)
// and one requeue pass per
// due reservation. Backfill is O(1) and allocates nothing. Bad data never
// panics: a job on a node not listed is left out, a node listed twice
// counts once, a pending job listed twice counts at its first entry, and one also
// listed as running is planned as pending.
package reserve
