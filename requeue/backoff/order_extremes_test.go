package backoff_test

import (
	"math"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/tenurepolicy/tenure/requeue/backoff"
)

// extremeInstants are instants at and near the ends of time.Time's range,
// where Time.Unix wraps (the earliest ones lie before the smallest int64
// Unix second), beside ordinary ones and the zero time.
func extremeInstants() []time.Time {
	earliest := time.Unix(math.MinInt64, 0).Add(-math.MaxInt64) // Unix() wraps here
	latest := time.Unix(math.MaxInt64-62135596800, 999_999_999) // the last representable second
	return []time.Time{
		earliest, earliest.Add(time.Second), time.Unix(math.MinInt64, 0),
		time.Date(-5, 1, 1, 0, 0, 0, 0, time.UTC), {}, time.Date(1, 1, 1, 0, 0, 0, 1, time.UTC),
		orderT0, orderT0.Add(time.Nanosecond), latest.Add(-time.Second), latest,
	}
}

// TestQueueOrderSortAgreesWithCompareAtExtremes: Sort and Compare give the
// same order for every pair of instants, the ends of time.Time included,
// and both follow Time.Compare, except that the zero time (an unset
// Created) goes after every instant, the latest included.
func TestQueueOrderSortAgreesWithCompareAtExtremes(t *testing.T) {
	ts := extremeInstants()
	var o backoff.QueueOrder
	for i, a := range ts {
		for j, b := range ts {
			if i == j {
				continue
			}
			es := []backoff.QueueEntry{{ID: "a", Created: a}, {ID: "b", Created: b}}
			want := slices.Clone(es)
			slices.SortStableFunc(want, o.Compare)
			o.Sort(es)
			if es[0].ID != want[0].ID {
				t.Errorf("Created %v vs %v: Sort put %s first, Compare %s", a, b, es[0].ID, want[0].ID)
			}
			aFirst := !a.IsZero() && (b.IsZero() || a.Compare(b) <= 0)
			if first := map[bool]string{true: "a", false: "b"}[aFirst]; want[0].ID != first {
				t.Errorf("Created %v vs %v: Compare put %s first, time order %s", a, b, want[0].ID, first)
			}
		}
	}
}

// TestQueueOrderZeroMeansUnset: a zero SamePriorityPreempted is unset, even
// beside a Created before year 1 (which the zero time would follow).
func TestQueueOrderZeroMeansUnset(t *testing.T) {
	early := time.Date(-5, 1, 1, 0, 0, 0, 0, time.UTC)
	e := backoff.QueueEntry{ID: "a", Created: early}
	for _, o := range []backoff.QueueOrder{{}, {Strategy: backoff.TimestampCreation}, {RestampReclaimPreempted: true}} {
		if got := o.Timestamp(e); !got.Equal(early) {
			t.Errorf("%+v: Timestamp = %v, want Created %v", o, got, early)
		}
	}
	// Set, it still moves the job back, even to an instant before year 1.
	e.SamePriorityPreempted = early.Add(time.Hour)
	if got := (backoff.QueueOrder{}).Timestamp(e); !got.Equal(early.Add(time.Hour)) {
		t.Errorf("Timestamp = %v, want %v", got, early.Add(time.Hour))
	}
}

// orderGenAnyInstant draws an instant from anywhere in time.Time's range
// (including the early end where Time.Unix wraps, and the last second,
// where the reclaim re-stamp saturates), or the zero time.
func orderGenAnyInstant(t *rapid.T, label string) time.Time {
	switch rapid.IntRange(0, 4).Draw(t, label+".kind") {
	case 0:
		return time.Time{}
	case 1: // near the early end
		return time.Unix(math.MinInt64, 0).Add(-time.Duration(rapid.Int64Range(0, math.MaxInt64).Draw(t, label+".back")))
	case 2: // within a second of the late end
		return orderLast.Add(-time.Duration(rapid.Int64Range(0, int64(time.Second)).Draw(t, label+".last")))
	}
	return time.Unix(rapid.Int64Range(math.MinInt64, math.MaxInt64-62135596800).Draw(t, label+".sec"), rapid.Int64Range(0, 999_999_999).Draw(t, label+".nsec"))
}

// TestQueueOrderSortAgreesAnywhere: Sort equals a stable sort with Compare
// for entries stamped anywhere in time.Time's range.
func TestQueueOrderSortAgreesAnywhere(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		o := orderGenOrder(t)
		es := make([]backoff.QueueEntry, rapid.IntRange(0, 12).Draw(t, "n"))
		for i := range es {
			es[i] = backoff.QueueEntry{ID: rapid.SampledFrom([]string{"a", "b", "c"}).Draw(t, "id"), Created: orderGenAnyInstant(t, "created"),
				SamePriorityPreempted: rapid.SampledFrom([]time.Time{{}, orderGenAnyInstant(t, "sp")}).Draw(t, "spSet"),
				ReclaimPreempted:      rapid.SampledFrom([]time.Time{{}, orderGenAnyInstant(t, "rp")}).Draw(t, "rpSet")}
		}
		want := slices.Clone(es)
		slices.SortStableFunc(want, o.Compare)
		o.Sort(es)
		for i := range es {
			if es[i] != want[i] {
				t.Fatalf("Sort and Compare differ at %d: %+v vs %+v", i, es[i], want[i])
			}
		}
	})
}
