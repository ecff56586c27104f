// Package backoff is Kueue's readiness requeuing (waitForPodsReady,
// KEP-1282 keps/1282-pods-ready-requeue-strategy) without Kubernetes: how
// long a job evicted because it did not become ready in time waits before
// it may be admitted again ([Config], [State]), and the order in which
// pending jobs are admitted ([QueueOrder]). Kueue's one requeuingStrategy
// configures both ([Strategy], which reads its JSON).
//
// The n-th requeue waits Base·2^(n−1), capped at Max, plus a jitter of at
// most Jitter·delay from a draw u in [0, 1) the caller supplies
// ([Config.Delay]). tenure follows current Kueue: UpdateRequeueState
// (pkg/workload) computes the delay with pkg/util/wait NewBackoff(base,
// max, 2, 0.0001), where a zero max becomes the cap MaxInt64/2 and the
// jitter is added after the cap. The cap is applied before multiplying, so
// the delay is exact and never overflows, for any n. For the same u the
// delay is Kueue's to the nanosecond. The one configuration Kueue accepts
// and tenure refuses is a base above the max (Kueue waits the base itself
// on the first requeue, beyond its own maximum).
//
// [State] {Count, RequeueAt} is the per-job state the embedder persists;
// [State.Timeout] is its transition on a readiness timeout, and the job is
// admissible when now ≥ RequeueAt (!now.Before(s.RequeueAt)).
//
// [QueueOrder] orders pending jobs: higher priority first, then earlier
// queue-order timestamp (Kueue's Ordering.GetQueueOrderTimestamp,
// pkg/workload; see [QueueOrder.Timestamp]), then smaller ID. A zero time
// in any field means unset, never year 1.
//
// Every function takes the current instant as a parameter; nothing here
// reads a clock, starts a goroutine or performs I/O. Every value is plain
// and safe to share. Delay, the State methods, Timestamp and Compare are
// O(1) (Compare O(len(ID))) and allocation-free.
package backoff
