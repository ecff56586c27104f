package eligibility_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenurepolicy/tenure/eligibility"
)

// TestPreemptionClassifyQueuedWithoutReservation: "newer" compares
// queue-order timestamps, as Kueue's SatisfiesPreemptionPolicy does
// (pkg/scheduler/preemption/common/preemption_policy.go), so a candidate
// whose Queued is known is judged by it even when its reservation time is
// missing. Only the time-based rule needs the reservation.
func TestPreemptionClassifyQueuedWithoutReservation(t *testing.T) {
	p := eligibility.PreemptionRequest{Priority: 10, Timestamp: tbAt(5)}
	noM := eligibility.PreemptionConfig{Policy: eligibility.PreemptionLowerOrNewerEqualPriority}
	tests := []struct {
		name string
		cfg  eligibility.PreemptionConfig
		cand eligibility.Candidate
		want eligibility.CandidateClass
	}{
		{"queued after the preemptor: newer", noM, eligibility.Candidate{ID: "q", Priority: 10, Queued: tbAt(6)}, eligibility.ClassNewer},
		{"queued after, with M: newer (never expires unknown)", tbTimeBased(time.Hour), eligibility.Candidate{ID: "q", Priority: 10, Queued: tbAt(6)}, eligibility.ClassNewer},
		{"queued before, no M: protected", noM, eligibility.Candidate{ID: "q", Priority: 10, Queued: tbAt(4)}, eligibility.ClassProtected},
		{"queued before, with M: expiry unknown", tbTimeBased(time.Hour), eligibility.Candidate{ID: "q", Priority: 10, Queued: tbAt(4)}, eligibility.ClassUnknownReservation},
		{"neither known", noM, eligibility.Candidate{ID: "q", Priority: 10}, eligibility.ClassUnknownReservation},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := tt.cfg.Classify(p, tt.cand, tbAt(600))
			if d.Class != tt.want || d.Allowed != tt.want.Preemptible() || !d.Until.IsZero() {
				t.Errorf("Classify = %v (allowed %v, until %v), want %v and no Until", d.Class, d.Allowed, d.Until, tt.want)
			}
		})
	}
}

// TestPreemptionCandidatesKueueOrder: among candidates Kueue's
// CandidatesOrdering (pkg/scheduler/preemption/common/ordering.go) puts the
// ones already being evicted first, then lower priority first, then the
// most recently reserved (least work lost; a missing reservation counts as
// now, the most recent), then the ID.
func TestPreemptionCandidatesKueueOrder(t *testing.T) {
	cfg := tbTimeBased(time.Hour)
	p := eligibility.PreemptionRequest{Priority: 10, Timestamp: tbAt(100)}
	now := tbAt(200)
	cands := []eligibility.Candidate{
		{ID: "low5-old", Priority: 5, Reserved: tbAt(10)},
		{ID: "low5-new", Priority: 5, Reserved: tbAt(190)},
		{ID: "low5-unknown", Priority: 5},
		{ID: "low5-b", Priority: 5, Reserved: tbAt(50)},
		{ID: "low5-a", Priority: 5, Reserved: tbAt(50)},
		{ID: "low5-evicted", Priority: 5, Reserved: tbAt(5), Evicted: true},
		{ID: "low1", Priority: 1, Reserved: tbAt(150)},
		{ID: "exp-evicted", Priority: 10, Reserved: tbAt(30), Evicted: true},
		{ID: "exp", Priority: 10, Reserved: tbAt(20)},
		{ID: "new-unknown", Priority: 10, Queued: tbAt(180)},
		{ID: "new-150", Priority: 10, Reserved: tbAt(150)},
	}
	want := []string{
		"low5-evicted", "exp-evicted", // already being evicted: first, in the usual order among themselves
		"low1",                                                     // lowest priority first
		"low5-unknown", "low5-new", "low5-a", "low5-b", "low5-old", // most recently reserved first, then ID
		"exp",                    // expired
		"new-unknown", "new-150", // newer: most recently admitted (unknown = now) first
	}
	if diff := cmp.Diff(want, tbIDs(cfg.Candidates(p, cands, now, nil))); diff != "" {
		t.Errorf("Candidates order (-want +got):\n%s", diff)
	}
}
