package backoff

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/tenurepolicy/tenure/clock"
)

// TimestampStrategy chooses the timestamp a pending job is ordered by
// within its priority (Kueue's requeuingStrategy.timestamp).
type TimestampStrategy uint8

const (
	// TimestampEviction (the default) orders a job evicted for a readiness
	// timeout by that eviction's instant (back of the queue).
	TimestampEviction TimestampStrategy = iota
	// TimestampCreation ignores that eviction (the job keeps its place).
	TimestampCreation
)

// QueueEntry is a pending job as queue ordering sees it. Its eviction
// fields describe its current eviction, as Kueue's Evicted and Preempted
// conditions do: set at most one of TimeoutEvicted and
// AdmissionCheckEvicted, and clear them all when the job is admitted. A
// zero time means unset.
type QueueEntry struct {
	// ID identifies the job; the last tie-breaker (byte-wise).
	ID string
	// Priority is the job's priority; higher goes first.
	Priority int32
	// Created is the job's creation time. An entry ordered by an unset
	// Created goes after every entry of its priority with a timestamp, so a
	// forgotten field never jumps the queue.
	Created time.Time
	// TimeoutEvicted is when the job was evicted for not becoming ready in
	// time (Evicted, reason PodsReadyTimeout).
	TimeoutEvicted time.Time
	// AdmissionCheckEvicted is when an admission check evicted it (Evicted,
	// reason AdmissionCheck).
	AdmissionCheckEvicted time.Time
	// ReclaimPreempted is when it was preempted so its cohort could reclaim
	// borrowed quota (Preempted, reason InCohortReclaimWhileBorrowing); it
	// counts only under [QueueOrder.RestampReclaimPreempted].
	ReclaimPreempted time.Time
	// SamePriorityPreempted is when an equal-priority job last preempted it
	// under [timebased.LowerOrNewerEqualPriority] (a "newer" or "expired"
	// pick): see [QueueOrder.Timestamp].
	SamePriorityPreempted time.Time
}

// QueueOrder orders pending jobs: higher priority first, then earlier
// [QueueOrder.Timestamp] (unset after every set one), then smaller ID. The
// zero QueueOrder is Kueue's default. Compare is a strict weak ordering,
// total for distinct IDs.
type QueueOrder struct {
	// Strategy chooses the timestamp.
	Strategy TimestampStrategy
	// RestampReclaimPreempted orders a job by QueueEntry.ReclaimPreempted
	// plus 1ms, behind its preemptor, as Kueue does with its
	// PrioritySortingWithinCohort gate off (the gate is on by default).
	RestampReclaimPreempted bool
}

// Timestamp returns the instant e is ordered by, the first that applies
// of Kueue's Ordering.GetQueueOrderTimestamp (pkg/workload):
//
//   - under TimestampEviction, e.TimeoutEvicted;
//   - e.AdmissionCheckEvicted;
//   - under RestampReclaimPreempted, e.ReclaimPreempted plus 1ms,
//     saturating at the last instant time.Time holds;
//   - e.Created;
//
// then tenure's rule: e.SamePriorityPreempted when it is later, or when
// the rest is unset. Kueue has no rule for preemptions within a queue; without
// it a job preempted by an equal-priority job would count its preemptor as
// newer and take the slot straight back, cycle after cycle. Stamped with its
// preemption it waits behind the preemptor: the rotation of KEP-8522.
// Monotonic readings are stripped. The zero time means unset. O(1), no
// allocation.
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

// Compare returns a negative number when a goes before b, a positive one
// when b does, and 0 on a tie of priority, timestamp and ID. It suits
// slices.SortFunc. O(len(ID)), no allocation.
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

// Sort sorts entries in place into Compare's order, computing each
// timestamp once: faster than sorting with Compare, and stable for complete
// ties. O(n log n); it allocates one 24-byte key per entry.
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
