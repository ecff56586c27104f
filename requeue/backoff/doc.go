// Package backoff is Kueue's readiness requeuing (waitForPodsReady, KEP-1282
// keps/1282-pods-ready-requeue-strategy) without Kubernetes: how long a job
// evicted because it did not become ready in time waits before it may be
// admitted again ([Config], [State]), and the order in which pending jobs
// are then admitted ([QueueOrder]). The two form one unit because Kueue's
// one requeuingStrategy configures both ([Strategy], [KueueStrategy]).
//
// Every function takes the current instant as a parameter; nothing here
// reads a clock, starts a goroutine or performs I/O. [Config], [State] and
// [QueueOrder] are plain values, safe to share.
//
// # Backoff
//
// [Config] computes how long a job that did not become ready in time
// (Kueue's waitForPodsReady requeuing strategy, KEP-1282
// keps/1282-pods-ready-requeue-strategy) waits before it may be admitted
// again: the n-th requeue waits Base·2^(n−1), capped at Max, plus a jitter
// of at most Jitter·delay from a random draw the caller supplies
// ([Config.Delay](n, u), u from rand.Float64() for instance; 0 for none).
// The cap is applied before
// multiplying, so the delay is exact and never overflows, for any n (older
// Kueue releases overflowed to "no backoff" at n ≥ 29).
//
// The zero Config is Kueue's default: Base 60s, Max 1h, Jitter 0.0001,
// no limit. A zero field means its default; a zero meant literally is marked
// by a flag: NoDelay (every delay 0), Uncapped (no cap; delays stop at
// 2^62 ns, about 146 years) and NoJitter.
// [Config.Validate] reports every problem at once.
//
// Kueue's backoff depends on its release, and tenure follows current Kueue:
// UpdateRequeueState (pkg/workload) computes the delay with pkg/util/wait
// NewBackoff(base, max, 2, 0.0001) and its WaitTime, which step
// k8s.io/apimachinery's wait.Backoff. There a zero max becomes the cap
// MaxInt64/2 (2^62 ns), the jitter is added after the cap (a
// capped delay is Max plus its jitter), and the first requeue waits the base
// even when it exceeds the max. Older releases (from v0.7, which added
// backoffMaxSeconds, first in pkg/controller/core/workload_controller.go,
// then in pkg/workload UpdateRequeueState) took min(Step(), max) instead: a
// zero max made every delay 0, a base above the max gave the max, the
// jitter could not lift a delay above the max, and the float doubling
// overflowed at n ≥ 29 with the 60s base. [Config.ClampToMax]
// gives that computation, overflow aside.
//
// Kueue's own configuration converts both ways. [KueueStrategy]
// mirrors waitForPodsReady.requeuingStrategy field for field (timestamp,
// backoffLimitCount, backoffBaseSeconds, backoffMaxSeconds; Kueue
// apis/config/v1beta1 Strategy). [KueueStrategy.Strategy]
// reads it as current Kueue does (nil: the default; backoffBaseSeconds 0: no
// delay; backoffMaxSeconds 0: no cap) into a [Strategy]
// (timestamp strategy and backoff) whose Delay is Kueue's delay to
// the nanosecond for the same draw, and [Strategy.Kueue] converts
// back: every accepted configuration round-trips exactly.
// [KueueStrategy.ClampedStrategy] reads the same fields as the
// older releases did. KueueStrategy reads and writes JSON in Kueue's
// spelling, keys matched exactly (a fork that holds the four settings as
// strings parses them into its fields). tenure
// refuses one configuration current Kueue accepts, a base above the max:
// Kueue then waits the base itself on the first requeue, beyond its own
// maximum, and caps only later ones; tenure keeps every delay within the
// maximum and asks for a consistent pair rather than delay less than Kueue
// would (ClampedStrategy accepts it, as the older releases capped it).
//
// [State] {Count, RequeueAt} is the per-job state the embedder
// persists. [State.Timeout] is the transition on a readiness-timeout
// eviction: when a limit is set and Count ≥ Limit the job is deactivated (the
// count is not incremented: with limit L a job is requeued exactly L times,
// and limit 0 deactivates on the first timeout); otherwise Count grows by one
// and RequeueAt becomes max(RequeueAt, now + delay), so it never moves
// earlier. Every deactivation resets the state to the zero State, so
// a reactivated job starts from zero. KEP-1282 instead leaves the state alone
// at the deactivation and clears it on reactivation, and keeps it when a user
// deactivates the job; tenure chose the simpler rule, which gives the same
// result on reactivation after the limit. The job is
// admissible when now ≥ RequeueAt, at exactly RequeueAt included
// ([State.Admissible], which returns RequeueAt as the instant the
// answer flips).
//
// For capacity planning, the first n delays sum to Base·(2^n − 1) while
// uncapped, then Max per requeue. KEP-1282 works an example, base 60s and 10 requeues with jitter neglected,
// as "60s+120s+240s+…+30720s = 8h 32min". The sum is in fact
// 60s·(2^10−1) = 61,380s = 17h3m; 30,720s (8h32m) is only its last term. With
// the default 1h cap the same 10 requeues wait 5h3m (3,780s + 4·3,600s).
// Also, a job with limit 10 meets 11 readiness timeouts (the 11th deactivates
// it), so at a 300s timeout it spends 55min, not the KEP's 50min, waiting for
// its pods.
//
// Delay and the State methods are O(1) and allocation-free.
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
//     (QueueEntry.ReclaimPreempted), so it sorts behind its preemptor
//     (at most the last instant time.Time holds: the sum saturates there
//     rather than wrapping to an earlier instant);
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
// compact keys (faster than sorting with Compare; same order for every
// time.Time, the ends of its range included). A zero time in any field
// always means "unset", never January 1 of year 1: an unset eviction or
// preemption field does not apply, even beside a creation before year 1,
// and an entry ordered by its creation whose Created is unset (and with no
// same-priority preemption, whose instant would stand in) orders after
// every entry of its priority that has a timestamp, then by ID, so a job
// whose creation was never recorded never jumps the queue.
//
// TimestampStrategy's String is Kueue's spelling ("Eviction",
// "Creation"); [Strategy.QueueOrder] builds the order from Kueue's
// configuration.
package backoff
