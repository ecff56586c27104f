package eligibility_test

import (
	"strings"
	"testing"
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/evictionbudget"
	"github.com/tenurepolicy/tenure/eligibility/expectedruntime"
	"github.com/tenurepolicy/tenure/eligibility/minruntime"
	"github.com/tenurepolicy/tenure/eligibility/timebased"
)

// The tests in this file check claims of doc comments that a comment audit
// (a seeded random sample of twenty exported names) found checkable and
// not yet pinned by a test.

var dcNow = time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)

// NominatorResult.Reset: "empties r keeping the slices' capacity".
func TestDocClaimNominatorResultReset(t *testing.T) {
	r := expectedruntime.Result{
		Nominations: make([]expectedruntime.Nomination, 2, 5),
		Skips:       make([]expectedruntime.Skip, 1, 3),
		Wake:        dcNow,
		Silent:      4,
	}
	r.Reset()
	if len(r.Nominations) != 0 || cap(r.Nominations) != 5 || len(r.Skips) != 0 || cap(r.Skips) != 3 || !r.Wake.IsZero() || r.Silent != 0 {
		t.Errorf("after Reset: %d/%d nominations, %d/%d skips, Wake %v, Silent %d", len(r.Nominations), cap(r.Nominations), len(r.Skips), cap(r.Skips), r.Wake, r.Silent)
	}
}

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

// CandidateCompare: "Cost: O(len(ID)), no allocation"; a missing
// reservation counts as the decision's At, and ties with a reservation at
// exactly At (the ID decides).
func TestDocClaimCandidateCompare(t *testing.T) {
	d := time.Hour
	c := timebased.Config{Policy: timebased.LowerOrNewerEqualPriority, MinAdmitDuration: &d}
	p := timebased.Request{Priority: 5, Timestamp: dcNow.Add(-3 * time.Hour)}
	missing := c.Classify(p, timebased.Candidate{ID: "b", Priority: 1}, dcNow)
	atNow := c.Classify(p, timebased.Candidate{ID: "a", Priority: 1, Reserved: dcNow}, dcNow)
	if got := timebased.Compare(atNow, missing); got >= 0 {
		t.Errorf("reserved at At vs missing: %d, want the ID to decide (a first)", got)
	}
	if got := timebased.Compare(missing, atNow); got <= 0 {
		t.Errorf("missing vs reserved at At: %d, want > 0", got)
	}
	if a := testing.AllocsPerRun(100, func() { timebased.Compare(atNow, missing) }); a != 0 {
		t.Errorf("CandidateCompare allocates %v times", a)
	}
}

// Reason.Valid: "1 to 64 characters ... starting with a letter"; a Counter
// counts an event with an invalid reason under "invalid".
func TestDocClaimReasonValid(t *testing.T) {
	long := eligibility.Reason("a" + strings.Repeat("b", 63))
	for r, want := range map[eligibility.Reason]bool{long: true, long + "c": false, "a": true, "1a": false, "_a": false, "a-b": false, "": false} {
		if got := r.Valid(); got != want {
			t.Errorf("%q.Valid() = %v, want %v", r, got, want)
		}
	}
	var c eligibility.Counter
	c.Observe(eligibility.Event{Source: "s", Decision: eligibility.Decision{Reason: "Bad Label"}})
	if c.Count("s", "Bad Label") != 0 || c.Count("s", eligibility.Reason("invalid")) != 1 {
		t.Errorf("invalid reason: counted %d as is and %d as invalid, want 0 and 1", c.Count("s", "Bad Label"), c.Count("s", eligibility.Reason("invalid")))
	}
}

// ClassNotAllowed: "the policy forbids it (Never; an equal priority under
// LowerPriority; an unknown policy)".
func TestDocClaimClassNotAllowed(t *testing.T) {
	p := timebased.Request{Priority: 5, Timestamp: dcNow}
	for _, tc := range []struct {
		policy timebased.Policy
		prio   int32
	}{
		{timebased.Never, 1},
		{timebased.Never, 9},
		{timebased.LowerPriority, 5},
		{timebased.Policy(9), 1},
	} {
		d := timebased.Config{Policy: tc.policy}.Classify(p, timebased.Candidate{ID: "c", Priority: tc.prio, Reserved: dcNow.Add(time.Hour)}, dcNow)
		if d.Class != timebased.ClassNotAllowed || d.Allowed {
			t.Errorf("policy %v, candidate priority %d: %v, want not_allowed", tc.policy, tc.prio, d.Class)
		}
	}
}

// ScenarioValidator: the zero value rejects a scenario taking active tasks
// of an elastic victim with ReasonNoResolver (no Until), lets a
// non-elastic one go, and, once its scratch is sized, allocates nothing.
func TestDocClaimScenarioValidatorZero(t *testing.T) {
	elastic := &eligibility.Job{ID: "e", Queue: 2, Start: dcNow.Add(-time.Minute), Subgroups: []eligibility.Subgroup{{Name: "w", MinAvailable: 1, Active: 3}}}
	rigid := &eligibility.Job{ID: "r", Queue: 2, Start: dcNow.Add(-time.Minute), Subgroups: []eligibility.Subgroup{{Name: "w", MinAvailable: 3, Active: 3}}}
	take := []minruntime.Task{{Subgroup: "w", Active: true}}
	var v minruntime.Validator
	d, err := v.Validate(0, 2, []minruntime.Victim{{Job: elastic, Tasks: take}}, dcNow)
	if err != nil || d.Allowed || d.Reason != minruntime.ReasonNoResolver || !d.Until.IsZero() {
		t.Errorf("elastic victim, zero validator: %+v, %v; want denied no_resolver, no Until", d, err)
	}
	d, err = v.Validate(0, 2, []minruntime.Victim{{Job: rigid, Tasks: take}}, dcNow)
	if err != nil || !d.Allowed {
		t.Errorf("non-elastic victim, zero validator: %+v, %v; want allowed", d, err)
	}
	scenario := []minruntime.Victim{{Job: elastic, Tasks: take}, {Job: rigid, Tasks: take}}
	if a := testing.AllocsPerRun(50, func() { _, _ = v.Validate(0, 2, scenario, dcNow) }); a != 0 {
		t.Errorf("Validate allocates %v times once its scratch is sized", a)
	}
}

// PreemptionPolicy.String: Kueue's spelling, "PreemptionPolicy(N)" for an
// unknown value.
func TestDocClaimPreemptionPolicyString(t *testing.T) {
	for p, want := range map[timebased.Policy]string{
		timebased.Never: "Never", timebased.LowerPriority: "LowerPriority",
		timebased.LowerOrNewerEqualPriority: "LowerOrNewerEqualPriority", 7: "PreemptionPolicy(7)",
	} {
		if got := p.String(); got != want {
			t.Errorf("%d.String() = %q, want %q", uint8(p), got, want)
		}
	}
}
