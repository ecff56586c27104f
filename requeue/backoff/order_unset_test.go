package backoff_test

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/tenurepolicy/tenure/requeue/backoff"
)

// orderLast is the last instant a time.Time can hold.
var orderLast = time.Unix(math.MaxInt64-62135596800, 999_999_999).UTC()

// allOrders are the four QueueOrder settings.
var allOrders = []backoff.QueueOrder{
	{}, {Strategy: backoff.TimestampCreation},
	{RestampReclaimPreempted: true}, {Strategy: backoff.TimestampCreation, RestampReclaimPreempted: true},
}

// TestQueueOrderUnsetCreatedLast: an entry whose timestamp would be its
// zero Created is unset: it goes after every entry of its priority with a
// timestamp (the last instant and instants before year 1 included), and
// unset entries among themselves by ID; priority still comes first. Before
// the fix a zero Created ordered as January 1, year 1, ahead of "b" and
// "c".
func TestQueueOrderUnsetCreatedLast(t *testing.T) {
	entries := []backoff.QueueEntry{
		{ID: "e", Created: time.Time{}},
		{ID: "c", Created: orderLast},
		{ID: "low", Priority: -1, Created: orderMin(0)},
		{ID: "a", Created: time.Time{}},
		{ID: "b", Created: orderMin(5)},
		{ID: "h", Priority: 1, Created: time.Time{}},
		{ID: "d", Created: time.Date(-5, 1, 1, 0, 0, 0, 0, time.UTC)},
		{ID: "y1", Created: time.Date(1, 1, 1, 0, 0, 0, 1, time.UTC)}, // 1ns after the zero time
	}
	want := []string{"h", "d", "y1", "b", "c", "a", "e", "low"}
	for _, o := range allOrders {
		got := slices.Clone(entries)
		o.Sort(got)
		if ids := orderIDs(got); !slices.Equal(ids, want) {
			t.Errorf("%+v: Sort %v, want %v", o, ids, want)
		}
		got = slices.Clone(entries)
		slices.SortStableFunc(got, o.Compare)
		if ids := orderIDs(got); !slices.Equal(ids, want) {
			t.Errorf("%+v: Compare %v, want %v", o, ids, want)
		}
		if ts := o.Timestamp(entries[0]); !ts.IsZero() {
			t.Errorf("%+v: Timestamp of an unset Created = %v, want the zero time", o, ts)
		}
		a, b := entries[3], entries[4]
		if o.Compare(a, b) <= 0 || o.Compare(b, a) >= 0 || o.Compare(a, entries[0]) >= 0 {
			t.Errorf("%+v: Compare(unset a, b) = %d, (b, a) = %d, (a, unset e) = %d", o, o.Compare(a, b), o.Compare(b, a), o.Compare(a, entries[0]))
		}
	}
}

// TestQueueOrderUnsetCreatedOtherRules: a zero Created matters only when
// Created is the rule that applies. An eviction timestamp still orders the
// entry (under the strategy that uses it), and a same-priority preemption
// stamps it with that instant, even one before year 1 (the job existed
// before it was preempted, so its creation cannot be later).
func TestQueueOrderUnsetCreatedOtherRules(t *testing.T) {
	early := time.Date(-5, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name string
		o    backoff.QueueOrder
		e    backoff.QueueEntry
		want time.Time // the zero time: unset
	}{
		{"timeout, eviction", backoff.QueueOrder{}, backoff.QueueEntry{TimeoutEvicted: orderMin(3)}, orderMin(3)},
		{"timeout, creation", backoff.QueueOrder{Strategy: backoff.TimestampCreation}, backoff.QueueEntry{TimeoutEvicted: orderMin(3)}, time.Time{}},
		{"admission check", backoff.QueueOrder{Strategy: backoff.TimestampCreation}, backoff.QueueEntry{AdmissionCheckEvicted: orderMin(4)}, orderMin(4)},
		{"reclaim, restamp", backoff.QueueOrder{RestampReclaimPreempted: true}, backoff.QueueEntry{ReclaimPreempted: orderMin(2)}, orderMin(2).Add(time.Millisecond)},
		{"reclaim, no restamp", backoff.QueueOrder{}, backoff.QueueEntry{ReclaimPreempted: orderMin(2)}, time.Time{}},
		{"same priority", backoff.QueueOrder{}, backoff.QueueEntry{SamePriorityPreempted: orderMin(6)}, orderMin(6)},
		{"same priority before year 1", backoff.QueueOrder{}, backoff.QueueEntry{SamePriorityPreempted: early}, early},
	} {
		if got := tc.o.Timestamp(tc.e); !got.Equal(tc.want) {
			t.Errorf("%s: Timestamp = %v, want %v", tc.name, got, tc.want)
		}
		// Against an entry created at orderMin(5): an unset one goes after.
		other := backoff.QueueEntry{ID: "z", Created: orderMin(5)}
		tc.e.ID = "a"
		wantFirst := !tc.want.IsZero() && tc.want.Before(other.Created)
		if got := tc.o.Compare(tc.e, other) < 0; got != wantFirst {
			t.Errorf("%s: before an entry created at +5m = %v, want %v", tc.name, got, wantFirst)
		}
	}
}

// TestQueueOrderRestampSaturates: the reclaim re-stamp adds 1ms and
// saturates at the last instant instead of wrapping to an earlier one
// within the last second. Exact up to last−1ms (which lands on the last
// instant); saturated beyond. Before the fix, last and last−1ns re-stamped
// to …07.000999999 and …07.000999998, ahead of their preemptor.
func TestQueueOrderRestampSaturates(t *testing.T) {
	o := backoff.QueueOrder{RestampReclaimPreempted: true}
	for _, tc := range []struct {
		preempted, want time.Time
	}{
		{orderLast, orderLast},
		{orderLast.Add(-time.Nanosecond), orderLast},
		{orderLast.Add(-time.Millisecond + time.Nanosecond), orderLast},
		{orderLast.Add(-time.Millisecond), orderLast}, // exact
		{orderLast.Add(-time.Millisecond - time.Nanosecond), orderLast.Add(-time.Nanosecond)},
		{orderLast.Add(-500 * time.Millisecond), orderLast.Add(-499 * time.Millisecond)},
		{orderLast.Add(-time.Second), orderLast.Add(-999 * time.Millisecond)},
	} {
		victim := backoff.QueueEntry{ID: "a", Created: orderMin(0), ReclaimPreempted: tc.preempted}
		got := o.Timestamp(victim)
		if !got.Equal(tc.want) {
			t.Errorf("ReclaimPreempted %v: Timestamp %v, want %v", tc.preempted, got, tc.want)
		}
		// The preemptor was admitted at the preemption instant: the victim
		// never goes before it on time (at the last instant they tie, and
		// the ID decides).
		preemptor := backoff.QueueEntry{ID: "z", Created: tc.preempted}
		wantCmp := 1
		if tc.preempted.Equal(orderLast) {
			wantCmp = -1 // tie on the timestamp; "a" < "z"
		}
		if c := o.Compare(victim, preemptor); c != wantCmp {
			t.Errorf("ReclaimPreempted %v: Compare(victim, preemptor) = %d, want %d", tc.preempted, c, wantCmp)
		}
		es := []backoff.QueueEntry{preemptor, victim}
		o.Sort(es)
		if wantFirst := map[bool]string{true: "a", false: "z"}[wantCmp < 0]; es[0].ID != wantFirst {
			t.Errorf("ReclaimPreempted %v: Sort put %s first, want %s", tc.preempted, es[0].ID, wantFirst)
		}
	}
}
