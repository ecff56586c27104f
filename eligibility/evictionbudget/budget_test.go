package evictionbudget_test

import (
	"cmp"
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/tenurepolicy/tenure/eligibility"

	"github.com/tenurepolicy/tenure/eligibility/evictionbudget"
)

var np0 = time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)

func npAt(sec int) time.Time { return np0.Add(time.Duration(sec) * time.Second) }

// TestEvictionBudgetBoundaries: an eviction at t counts while now < t + W;
// with N counting the budget is exhausted until the N-th most recent
// leaves the window.
func TestEvictionBudgetBoundaries(t *testing.T) {
	b := evictionbudget.Budget{Max: 2, Window: time.Hour}
	rec := evictionbudget.FormatRecord([]time.Time{npAt(0), npAt(600)})
	for _, tt := range []struct {
		name   string
		b      evictionbudget.Budget
		record string
		now    time.Time
		want   eligibility.Decision
	}{
		{"two in window", b, rec, npAt(3599), eligibility.Decision{Reason: evictionbudget.ReasonExhausted, Until: npAt(3600)}},
		{"oldest leaves at exactly t+W", b, rec, npAt(3600), eligibility.Decision{Allowed: true, Reason: eligibility.Reason("within_eviction_budget")}},
		{"one in record", b, evictionbudget.FormatRecord([]time.Time{npAt(0)}), npAt(1), eligibility.Decision{Allowed: true, Reason: eligibility.Reason("within_eviction_budget")}},
		{"empty record", b, "", npAt(0), eligibility.Decision{Allowed: true, Reason: eligibility.Reason("within_eviction_budget")}},
		{"max 1: the most recent decides", evictionbudget.Budget{Max: 1, Window: time.Hour}, rec, npAt(4199), eligibility.Decision{Reason: evictionbudget.ReasonExhausted, Until: npAt(4200)}},
		{"longer record than Max", b, evictionbudget.FormatRecord([]time.Time{npAt(-9000), npAt(0), npAt(600)}), npAt(3599), eligibility.Decision{Reason: evictionbudget.ReasonExhausted, Until: npAt(3600)}},
		{"unparsable", b, "yesterday", npAt(0), eligibility.Decision{Allowed: true, Reason: eligibility.Reason("invalid_eviction_record")}},
		{"not oldest first", b, "2026-03-02T12:10:00Z,2026-03-02T12:00:00Z", npAt(0), eligibility.Decision{Allowed: true, Reason: eligibility.Reason("invalid_eviction_record")}},
		{"no budget", evictionbudget.Budget{}, "yesterday", npAt(0), eligibility.Decision{Allowed: true, Reason: eligibility.Reason("no_eviction_budget")}},
	} {
		if got := tt.b.Check(tt.record, tt.now); got != tt.want {
			t.Errorf("%s: Check = %v, want %v", tt.name, got, tt.want)
		}
	}
	j := eligibility.Job{Annotations: map[string]string{evictionbudget.Annotation: rec}}
	if got := b.Check(j.Annotations[cmp.Or(b.Key, evictionbudget.Annotation)], npAt(0)); got.Allowed {
		t.Errorf("Check of the job's record = %v, want exhausted", got)
	}
}

// TestEvictionBudgetRecord: Record keeps the evictions still counting plus
// this one, at most Max, oldest first, rounded up to the second.
func TestEvictionBudgetRecord(t *testing.T) {
	b := evictionbudget.Budget{Max: 2, Window: time.Hour}
	r := b.Record("", npAt(0).Add(time.Millisecond))
	if r != "2026-03-02T12:00:01Z" {
		t.Errorf("first record %q", r)
	}
	r = b.Record(r, npAt(100))
	r = b.Record(r, npAt(200))
	if want := "2026-03-02T12:01:40Z,2026-03-02T12:03:20Z"; r != want {
		t.Errorf("record %q, want %q (the two most recent)", r, want)
	}
	// An eviction exactly W old no longer counts and is dropped.
	if got, want := b.Record("2026-03-02T12:00:00Z", npAt(3600)), "2026-03-02T13:00:00Z"; got != want {
		t.Errorf("record %q, want %q", got, want)
	}
	if got := b.Record("garbage", npAt(0)); got != "2026-03-02T12:00:00Z" {
		t.Errorf("record after garbage %q", got)
	}
	if got := (evictionbudget.Budget{}).Record("x", npAt(0)); got != "x" {
		t.Errorf("no budget: Record changed the value to %q", got)
	}
	for _, bad := range []evictionbudget.Budget{{Max: -1, Window: time.Hour}, {Max: 1}, {Max: evictionbudget.MaxEvictions + 1, Window: 1}, {Window: -1}} {
		if bad.Validate() == nil {
			t.Errorf("Validate(%+v) accepted", bad)
		}
	}
}

// TestEvictionBudgetOracle: Check equals counting the record's evictions
// with now < t + W, for records Record wrote.
func TestEvictionBudgetOracle(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := evictionbudget.Budget{Max: rapid.IntRange(1, 4).Draw(t, "max"), Window: time.Duration(rapid.IntRange(1, 5).Draw(t, "w")) * time.Minute}
		var rec string
		now := np0
		for i, n := 0, rapid.IntRange(0, 8).Draw(t, "n"); i < n; i++ {
			now = now.Add(time.Duration(rapid.IntRange(0, 240).Draw(t, "step")) * time.Second)
			rec = b.Record(rec, now)
		}
		now = now.Add(time.Duration(rapid.IntRange(0, 400).Draw(t, "later")) * time.Second)
		ts, err := evictionbudget.ParseRecord(rec)
		if err != nil {
			t.Fatal(err)
		}
		var counting []time.Time
		for _, x := range ts {
			if now.Before(x.Add(b.Window)) {
				counting = append(counting, x)
			}
		}
		got := b.Check(rec, now)
		if over := len(counting) >= b.Max; got.Allowed == over {
			t.Fatalf("record %q at %v: %d count, Max %d, got %v", rec, now, len(counting), b.Max, got)
		}
		if !got.Allowed && !got.Until.Equal(counting[len(counting)-b.Max].Add(b.Window)) {
			t.Fatalf("Until %v", got.Until)
		}
	})
}

// FuzzEvictionRecord: Check never panics, agrees with ParseEvictionRecord
// on validity, and a parsed record formats back to one that parses.
func FuzzEvictionRecord(f *testing.F) {
	for _, s := range []string{"", "2026-03-02T12:00:00Z", "2026-03-02T12:00:00Z,2026-03-02T12:10:00Z", ",", "x", "2026-03-02T12:00:00.5+01:00"} {
		f.Add(s)
	}
	b := evictionbudget.Budget{Max: 3, Window: time.Hour}
	f.Fuzz(func(t *testing.T, s string) {
		d := b.Check(s, np0)
		ts, err := evictionbudget.ParseRecord(s)
		future := err == nil && len(ts) > 0 && ts[len(ts)-1].After(np0.Add(b.Window+time.Second))
		if (err != nil || future) != (d.Reason == eligibility.Reason("invalid_eviction_record")) || (d.Reason == eligibility.Reason("invalid_eviction_record") && !d.Allowed) {
			t.Fatalf("%q: Parse error %v, Check %v", s, err, d)
		}
		if err == nil {
			if _, err := evictionbudget.ParseRecord(evictionbudget.FormatRecord(ts)); err != nil && len(ts) > 0 && ts[0].Year() >= 0 && ts[len(ts)-1].Year() <= 9999 {
				t.Fatalf("%q: formatted record does not parse: %v", s, err)
			}
		}
		_ = b.Record(s, np0)
	})
}
