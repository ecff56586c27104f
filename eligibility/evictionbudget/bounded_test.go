package evictionbudget_test

import (
	"testing"
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/evictionbudget"
)

// TestEvictionBudgetBounded: a job's own record can never make it
// unevictable for longer than a bounded time. An entry later than now counts
// until its own instant + Window, which Until reports (so the check at Until
// allows); an entry more than Window+1s after now, or an unparsable record,
// makes the record invalid, which counts as no eviction (allowed, its own
// reason) and is replaced by Record.
func TestEvictionBudgetBounded(t *testing.T) {
	b := evictionbudget.Budget{Max: 1, Window: time.Hour}
	b2 := evictionbudget.Budget{Max: 2, Window: time.Hour}
	invalid := eligibility.Decision{Allowed: true, Reason: eligibility.Reason("invalid_eviction_record")}
	for _, tt := range []struct {
		name   string
		b      evictionbudget.Budget
		record string
		now    time.Time
		want   eligibility.Decision
	}{
		{"year 9999 is invalid", b, "9999-01-01T00:00:00Z", np0, invalid},
		{"unparsable counts as empty", b, "yesterday", np0, invalid},
		{"not oldest first counts as empty", b, "2026-03-02T12:10:00Z,2026-03-02T12:00:00Z", np0, invalid},
		{"future within W+1s counts until entry+W", b, evictionbudget.FormatRecord([]time.Time{npAt(600)}), np0,
			eligibility.Decision{Reason: evictionbudget.ReasonExhausted, Until: npAt(4200)}},
		{"future exactly W+1s counts until entry+W", b, evictionbudget.FormatRecord([]time.Time{npAt(3601)}), np0,
			eligibility.Decision{Reason: evictionbudget.ReasonExhausted, Until: npAt(7201)}},
		{"future W+1s+1s is invalid", b, evictionbudget.FormatRecord([]time.Time{npAt(3602)}), np0, invalid},
		{"a rounded-up record counts from its rounded instant", b, evictionbudget.FormatRecord([]time.Time{np0.Add(time.Millisecond)}), np0.Add(time.Millisecond),
			eligibility.Decision{Reason: evictionbudget.ReasonExhausted, Until: npAt(3601)}},
		{"future entry as the Max-th most recent", b2, evictionbudget.FormatRecord([]time.Time{npAt(-1800), npAt(60)}), np0,
			eligibility.Decision{Reason: evictionbudget.ReasonExhausted, Until: npAt(1800)}},
	} {
		if got := tt.b.Check(tt.record, tt.now); got != tt.want {
			t.Errorf("%s: Check(%q) = %+v, want %+v", tt.name, tt.record, got, tt.want)
		}
	}
	// The denial a future entry causes ends at most 2W+1s after it was first
	// seen, at its own instant + W: denied 1ns before, allowed at it.
	rec := evictionbudget.FormatRecord([]time.Time{npAt(3601)})
	if d := b.Check(rec, npAt(3601+3600).Add(-time.Nanosecond)); d.Allowed {
		t.Errorf("1ns before entry+W: %+v, want denied", d)
	}
	if d := b.Check(rec, npAt(3601+3600)); !d.Allowed {
		t.Errorf("at entry+W: %+v, want allowed", d)
	}
	// Record caps a future entry at now and replaces an invalid record.
	if got, want := b2.Record(evictionbudget.FormatRecord([]time.Time{npAt(600)}), np0), "2026-03-02T12:00:00Z,2026-03-02T12:00:00Z"; got != want {
		t.Errorf("Record with a future entry = %q, want %q", got, want)
	}
	if got, want := b2.Record("9999-01-01T00:00:00Z", np0), "2026-03-02T12:00:00Z"; got != want {
		t.Errorf("Record over year 9999 = %q, want %q", got, want)
	}
}
