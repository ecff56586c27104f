package evictionbudget_test

import (
	"testing"
	"time"

	"github.com/tenurepolicy/tenure/eligibility/evictionbudget"
)

var dcNow = time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)

// EvictionBudget.Record: "With Max 0 it returns prev unchanged"; "An
// invalid prev is replaced"; "then now (rounded up to the second)".
func TestDocClaimEvictionBudgetRecord(t *testing.T) {
	if got := (evictionbudget.Budget{}).Record("garbage", dcNow); got != "garbage" {
		t.Errorf("Max 0: Record = %q, want prev unchanged", got)
	}
	b := evictionbudget.Budget{Max: 2, Window: time.Hour}
	if got, want := b.Record("garbage", dcNow.Add(time.Millisecond)), "2026-03-02T12:00:01Z"; got != want {
		t.Errorf("invalid prev: Record = %q, want %q (only now, rounded up)", got, want)
	}
	// An eviction exactly Window old no longer counts; one just younger does.
	prev := evictionbudget.FormatRecord([]time.Time{dcNow.Add(-time.Hour), dcNow.Add(-time.Hour + time.Second)})
	if got, want := b.Record(prev, dcNow), "2026-03-02T11:00:01Z,2026-03-02T12:00:00Z"; got != want {
		t.Errorf("Record = %q, want %q", got, want)
	}
}
