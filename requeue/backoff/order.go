package backoff

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/tenurepolicy/tenure/clock"
)

// TimestampStrategy chooses the timestamp a pending job is ordered by within
// its priority (Kueue's waitForPodsReady.requeuingStrategy.timestamp,
// KEP-1282).
type TimestampStrategy uint8

const (
	// TimestampEviction (the default, the zero value) orders a job that was
	// evicted because it did not become ready in time by the instant of that
	// eviction (back of the queue), and every other job by its creation.
	TimestampEviction TimestampStrategy = iota
	// TimestampCreation always orders by creation time (front of the queue
	// after a readiness eviction).
	TimestampCreation
)

// kueueName returns "Eviction" or "Creation" (Kueue's spelling), or
// "TimestampStrategy(N)" for an unknown value.
func (s TimestampStrategy) kueueName() string {
	switch s {
	case TimestampEviction:
		return "Eviction"
	case TimestampCreation:
		return "Creation"
	}
	return fmt.Sprintf("TimestampStrategy(%d)", uint8(s))
}

// QueueEntry is a pending job as queue ordering sees it.
//
// The eviction fields describe the job's current eviction, the one that put
// it back in the queue, as Kueue's Workload conditions do: Kueue keeps one
// Evicted condition (with one reason) and one Preempted condition, and
// resets both when the job is admitted again. Set at most one of
// TimeoutEvicted and AdmissionCheckEvicted, and clear them all when the job
// is admitted; if several are set anyway, [QueueOrder.Timestamp] applies
// Kueue's precedence.
type QueueEntry struct {
	// ID identifies the job; the last tie-breaker (byte-wise order).
	ID string
	// Priority is the job's priority; higher is admitted first.
	Priority int32
	// Created is the job's creation time. The zero time means unset (a
	// job whose creation was never recorded), never an instant before
	// every other: when the queue-order timestamp would be Created (see
	// [QueueOrder.Timestamp]), such an entry orders after every entry of
	// its priority that has a timestamp, and among the unset by ID, so a
	// forgotten field never moves a job ahead of those waiting.
	Created time.Time
	// TimeoutEvicted is the instant the job was evicted because it did not
	// become ready in time (Kueue: the Evicted condition, True with reason
	// PodsReadyTimeout). The zero time means it was not.
	TimeoutEvicted time.Time
	// AdmissionCheckEvicted is the instant the job was evicted because an
	// admission check failed or asked for a retry (Kueue: the Evicted
	// condition, True with reason AdmissionCheck). The zero time means it
	// was not.
	AdmissionCheckEvicted time.Time
	// ReclaimPreempted is the instant the job was preempted so that another
	// queue of its cohort could reclaim quota the job was borrowing (Kueue:
	// the Preempted condition, True with reason
	// InCohortReclaimWhileBorrowing). The zero time means it was not. It
	// counts only under [QueueOrder.RestampReclaimPreempted].
	ReclaimPreempted time.Time
	// SamePriorityPreempted is the instant the job was last preempted by a
	// job of equal priority under [timebased.LowerOrNewerEqualPriority]:
	// an [timebased.ClassNewer] or [timebased.ClassExpired] pick (the
	// latter is Kueue's reason InClusterQueueTimeBased). The zero time means
	// it was not. It moves the job behind the jobs already waiting, under
	// either strategy, so that equal-priority jobs take turns (see
	// [QueueOrder.Timestamp]).
	SamePriorityPreempted time.Time
}

// QueueOrder orders pending jobs: higher priority first, then earlier
// queue-order timestamp (see [QueueOrder.Timestamp]; an unset one, the zero
// time, comes after every set one), then smaller ID. The
// zero QueueOrder is Kueue's default: [TimestampEviction], and no re-stamp
// of jobs preempted to reclaim borrowed quota.
//
// [QueueOrder.Compare] is a strict weak ordering for any inputs, and total
// when IDs are unique, so sorting is deterministic. To sort many entries use
// [QueueOrder.Sort], which computes every timestamp once; sorting with
// Compare works too but recomputes the timestamps in every comparison.
// QueueOrder is a plain value, safe for concurrent use.
type QueueOrder struct {
	// Strategy chooses the timestamp; the zero value is TimestampEviction.
	Strategy TimestampStrategy
	// RestampReclaimPreempted orders a job preempted to reclaim borrowed
	// quota (QueueEntry.ReclaimPreempted) by its preemption instant plus
	// 1ms (at most the last instant time.Time can hold), behind its
	// preemptor, as Kueue does while its
	// PrioritySortingWithinCohort feature gate is off. The gate is on by
	// default (Beta since Kueue v0.6), so false, the zero value, matches a
	// default Kueue.
	RestampReclaimPreempted bool
}

// Timestamp returns the instant e is ordered by. First Kueue's rule
// (kubernetes-sigs/kueue pkg/workload, Ordering.GetQueueOrderTimestamp),
// the first that applies of:
//
//   - under [TimestampEviction], e.TimeoutEvicted when it is set
//     (KEP-1282; [TimestampCreation] and any unknown strategy ignore it);
//   - under either strategy, e.AdmissionCheckEvicted when it is set;
//   - under [QueueOrder.RestampReclaimPreempted], e.ReclaimPreempted plus
//     1ms when it is set (Kueue's epsilon: the victim sorts strictly after
//     the preemptor admitted at that instant), saturating at the last
//     instant time.Time can hold rather than wrapping around to an
//     earlier one (so a job preempted in the last millisecond of the
//     range still sorts at or after its preemptor);
//   - e.Created, which may be unset (the zero time);
//
// then tenure's own rule: e.SamePriorityPreempted when it is set and later,
// or when the timestamp so far is unset (a job preempted at that instant
// existed before it, so its unknown creation cannot be later). In every
// field the zero time is unset, never an instant to compare. Any
// monotonic clock reading is stripped, so ordering compares wall-clock
// instants only (as the persisted timestamps of a restarted scheduler
// would).
//
// The result is the zero time when the timestamp is unset: Created is the
// rule that applies, it is zero, and SamePriorityPreempted is zero too.
// [QueueOrder.Compare] and [QueueOrder.Sort] order such an entry after
// every entry of its priority whose timestamp is set (then by ID), so a
// missing creation time never jumps the queue. (A ReclaimPreempted of
// exactly 1ms before year 1 re-stamps to the zero instant, which then
// reads as unset too.)
//
// Why an equal-priority preemption re-stamps the job (tenure's choice; Kueue
// has no such rule for preemptions within a queue): the "newer" rule lets a
// pending job preempt an equal-priority job whose quota reservation came
// after the pending job's timestamp. A job preempted by an equal-priority
// job and requeued with its creation time is older than its preemptor's
// fresh reservation, so it would count the preemptor as newer and take the
// slot straight back, cycle after cycle — whether it was picked as newer or
// as expired (past MinAdmitDuration). Stamped with its preemption instant it
// waits behind its preemptor until that one's MinAdmitDuration runs out: the
// rotation KEP-8522 describes. Kueue re-stamps a job the same way for the
// reason InCohortReclaimWhileBorrowing (the ReclaimPreempted rule above).
//
// Cost: O(1), no allocation.
func (o QueueOrder) Timestamp(e QueueEntry) time.Time {
	var ts time.Time
	switch {
	case o.Strategy == TimestampEviction && !e.TimeoutEvicted.IsZero():
		ts = e.TimeoutEvicted.Round(0)
	case !e.AdmissionCheckEvicted.IsZero():
		ts = e.AdmissionCheckEvicted.Round(0)
	case o.RestampReclaimPreempted && !e.ReclaimPreempted.IsZero():
		ts = clock.AddSaturating(e.ReclaimPreempted.Round(0), time.Millisecond)
	default:
		ts = e.Created.Round(0)
	}
	// Strip before comparing: After uses monotonic readings when both
	// operands carry one, and the choice must agree with the result's.
	if sp := e.SamePriorityPreempted.Round(0); !sp.IsZero() && (ts.IsZero() || sp.After(ts)) {
		ts = sp
	}
	return ts
}

// Compare returns a negative number when a goes before b, a positive number
// when b goes before a, and 0 when they tie on priority, timestamp and ID.
// An unset timestamp (the zero time, see [QueueOrder.Timestamp]) goes after
// every set one of the same priority; two unset ones tie. It suits
// [slices.SortFunc]. Cost: O(len(ID)), no allocation.
func (o QueueOrder) Compare(a, b QueueEntry) int {
	if c := cmp.Compare(b.Priority, a.Priority); c != 0 {
		return c
	}
	ta, tb := o.Timestamp(a), o.Timestamp(b)
	if az := ta.IsZero(); az != tb.IsZero() { // an unset timestamp goes last
		if az {
			return 1
		}
		return -1
	}
	if c := ta.Compare(tb); c != 0 {
		return c
	}
	return strings.Compare(a.ID, b.ID)
}

// queueKey is an entry's sort key with the timestamp precomputed as exact
// seconds since year 1 and nanoseconds (see [instantSeconds]); an unset
// timestamp is the key past every instant, unsetKeySec and unsetKeyNsec.
type queueKey struct {
	prio int32
	nsec int32
	sec  int64
	idx  int
}

// unixToYear1 is the number of seconds from January 1, year 1 to the Unix
// epoch.
const unixToYear1 = 62135596800

// instantSeconds returns t's whole seconds counted from January 1, year 1:
// the seconds time.Time itself stores, so the result is exact and ordered
// like Time.Compare for every time.Time. Time.Unix subtracts the epoch
// offset and wraps for the earliest instants; adding it back in wrapping
// int64 arithmetic undoes that exactly.
func instantSeconds(t time.Time) int64 { return t.Unix() + unixToYear1 }

// The sort key of an unset timestamp: the last instant's second with a
// nanosecond count no instant has, so it sorts after every set timestamp,
// as in Compare.
const (
	unsetKeySec  = 1<<63 - 1
	unsetKeyNsec = 1_000_000_000
)

// Sort sorts entries in place into queue order (the order of
// [QueueOrder.Compare]). It computes each entry's timestamp once, sorts
// compact keys and then permutes the entries in place, so it is faster
// than sorting with Compare and stable for entries that tie completely.
// Cost: O(n log n) comparisons; it allocates one 24-byte key per entry.
func (o QueueOrder) Sort(entries []QueueEntry) {
	if len(entries) < 2 {
		return
	}
	keys := make([]queueKey, len(entries))
	for i := range entries {
		keys[i] = queueKey{prio: entries[i].Priority, sec: unsetKeySec, nsec: unsetKeyNsec, idx: i}
		if ts := o.Timestamp(entries[i]); !ts.IsZero() {
			keys[i].sec, keys[i].nsec = instantSeconds(ts), int32(ts.Nanosecond())
		}
	}
	slices.SortFunc(keys, func(a, b queueKey) int {
		if a.prio != b.prio {
			return cmp.Compare(b.prio, a.prio)
		}
		if a.sec != b.sec {
			return cmp.Compare(a.sec, b.sec)
		}
		if a.nsec != b.nsec {
			return cmp.Compare(a.nsec, b.nsec)
		}
		if c := strings.Compare(entries[a.idx].ID, entries[b.idx].ID); c != 0 {
			return c
		}
		return cmp.Compare(a.idx, b.idx)
	})
	// Permute in place, one cycle of the permutation at a time: position j
	// receives entry keys[j].idx; a placed position is marked idx == j.
	// (The same loop permutes queue entries in requeue/backoff/order.go and
	// candidates in eligibility/timebased/order.go: each works on its own
	// key and element types, and the two packages share no lower package
	// to hold a generic helper without adding one to the API.)
	for i := range keys {
		if keys[i].idx == i {
			continue
		}
		saved := entries[i]
		j := i
		for {
			k := keys[j].idx
			keys[j].idx = j
			if k == i {
				entries[j] = saved
				break
			}
			entries[j] = entries[k]
			j = k
		}
	}
}
