package timebased_test

import (
	"testing"
	"time"

	"github.com/tenurepolicy/tenure/eligibility/timebased"
)

var dcNow = time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)

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

// "not_allowed": "the policy forbids it (Never; an equal priority under
// LowerPriority; an unknown policy)".
func TestDocClaimNotAllowed(t *testing.T) {
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
		if d.Reason != clsNotAllowed || d.Allowed {
			t.Errorf("policy %v, candidate priority %d: %v, want not_allowed", tc.policy, tc.prio, d.Reason)
		}
	}
}
