package evictionbudget_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/evictionbudget"
)

// naiveBudget is the oracle of TestEvictionBudgetUntilIsTheEnd, written from
// Check's doc alone: a record is valid when every entry parses, they are
// oldest first and none is after now + Window + 1s; an entry t counts while
// now < t + Window, an entry after now included; with at least Max counting,
// the denial lasts until the count drops below Max, when the oldest
// counting entries have left one by one: the (count-Max+1)-th oldest
// counting entry's t + Window.
func naiveBudget(b evictionbudget.Budget, record string, now time.Time) (allowed, valid bool, until time.Time) {
	var ts []time.Time
	if record != "" {
		for _, f := range strings.Split(record, ",") {
			t, err := time.Parse(time.RFC3339Nano, f)
			if err != nil {
				return true, false, time.Time{}
			}
			ts = append(ts, t)
		}
	}
	if !slices.IsSortedFunc(ts, time.Time.Compare) || (len(ts) > 0 && ts[len(ts)-1].After(now.Add(b.Window+time.Second))) {
		return true, false, time.Time{}
	}
	var counting []time.Time
	for _, t := range ts {
		if now.Before(t.Add(b.Window)) {
			counting = append(counting, t)
		}
	}
	if len(counting) < b.Max {
		return true, true, time.Time{}
	}
	return false, true, counting[len(counting)-b.Max].Add(b.Window)
}

// drawWindow draws a budget window, sub-second (which Validate accepts)
// as often as not.
func drawWindow(t *rapid.T) time.Duration {
	if rapid.Bool().Draw(t, "subSecond") {
		return time.Duration(rapid.Int64Range(1, int64(time.Second)).Draw(t, "w"))
	}
	return time.Duration(rapid.Int64Range(int64(time.Second), int64(2*time.Hour)).Draw(t, "w"))
}

// drawRecord draws a record for a check at now: either entries anywhere
// from well before now to a little more than Window + 1s after it (whole
// seconds, as Record writes, or with a fraction, as an owner might), or
// the record Record writes for evictions at instants up to now, each with
// a fraction of a second.
func drawRecord(t *rapid.T, b evictionbudget.Budget, now time.Time) string {
	n := rapid.IntRange(0, 6).Draw(t, "n")
	if rapid.Bool().Draw(t, "byRecord") {
		at := make([]time.Time, n)
		for i := range at {
			at[i] = now.Add(-time.Duration(rapid.Int64Range(0, int64(3*b.Window+3*time.Second)).Draw(t, "ago")))
		}
		slices.SortFunc(at, time.Time.Compare)
		var rec string
		for _, x := range at {
			rec = b.Record(rec, x)
		}
		return rec
	}
	span := int64(4*b.Window + 4*time.Second)
	fields := make([]time.Time, n)
	for i := range fields {
		x := now.Add(time.Duration(rapid.Int64Range(-span, int64(b.Window+time.Second)+int64(time.Second)).Draw(t, "offset")))
		if rapid.Bool().Draw(t, "whole") {
			x = x.Truncate(time.Second)
		}
		fields[i] = x.UTC()
	}
	slices.SortFunc(fields, time.Time.Compare)
	parts := make([]string, n)
	for i, x := range fields {
		parts[i] = x.Format(time.RFC3339Nano)
	}
	return strings.Join(parts, ",")
}

// TestEvictionBudgetUntilIsTheEnd: over random budgets (sub-second windows
// included), records (future entries, entries Record rounded up to the
// second) and instants, Check agrees with the naive oracle, and a denial's
// Until is the end of the denial: denied at a random instant before it and
// 1ns before it, allowed at it, so a scheduler sleeping until Until wakes
// once.
func TestEvictionBudgetUntilIsTheEnd(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := evictionbudget.Budget{Max: rapid.IntRange(1, 5).Draw(t, "max"), Window: drawWindow(t)}
		now := np0.Add(time.Duration(rapid.Int64Range(-int64(time.Hour), int64(time.Hour)).Draw(t, "now")))
		rec := drawRecord(t, b, now)
		d := b.Check(rec, now)
		allowed, valid, until := naiveBudget(b, rec, now)
		if d.Allowed != allowed || (d.Reason == "invalid_eviction_record") == valid || !d.Until.Equal(until) {
			t.Fatalf("Check(%q, %v) = %v, the oracle: allowed %v, valid %v, until %v", rec, now, d, allowed, valid, until)
		}
		if d.Allowed {
			if !d.Until.IsZero() {
				t.Fatalf("Check(%q, %v) = %v: allowed with an Until", rec, now, d)
			}
			return
		}
		if d.Reason != evictionbudget.ReasonExhausted || !d.Until.After(now) {
			t.Fatalf("Check(%q, %v) = %v: a denial must end after now", rec, now, d)
		}
		before := now.Add(time.Duration(rapid.Int64Range(0, int64(d.Until.Sub(now))-1).Draw(t, "before")))
		for _, u := range []time.Time{before, d.Until.Add(-time.Nanosecond)} {
			if du := b.Check(rec, u); du.Allowed || !du.Until.Equal(d.Until) {
				t.Fatalf("Check(%q) at %v = %v, before Until %v: want the same denial", rec, u, du, d.Until)
			}
		}
		if du := b.Check(rec, d.Until); !du.Allowed || du.Reason != eligibility.Reason("within_eviction_budget") {
			t.Fatalf("Check(%q) at its Until %v = %v, want allowed", rec, d.Until, du)
		}
	})
}

// TestEvictionBudgetOneWakeUp: right after Record (which rounds the
// eviction up to the second), a scheduler that sleeps until each denial's
// Until and checks again wakes once, with a window of 1ms as with one of
// an hour: Until used to be now + Window, one wake-up per millisecond for
// the rest of the second.
func TestEvictionBudgetOneWakeUp(t *testing.T) {
	for _, w := range []time.Duration{time.Millisecond, 999 * time.Millisecond, time.Second, time.Hour} {
		b := evictionbudget.Budget{Max: 1, Window: w}
		evicted := np0.Add(300 * time.Millisecond)
		rec := b.Record("", evicted)
		now, wakeUps := evicted, 0
		for d := b.Check(rec, now); !d.Allowed; d = b.Check(rec, now) {
			if wakeUps++; wakeUps > 1 {
				t.Fatalf("window %v: wake-up %d at %v, still denied: %v", w, wakeUps, now, d)
			}
			now = d.Until
		}
		if want := npAt(1).Add(w); wakeUps != 1 || !now.Equal(want) {
			t.Errorf("window %v: %d wake-ups, allowed at %v; want 1, at %v", w, wakeUps, now, want)
		}
	}
}
