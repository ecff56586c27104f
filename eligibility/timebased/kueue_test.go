package timebased_test

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenurepolicy/tenure/eligibility/timebased"
)

// TestPreemptionClassifyQueuedWithoutReservation: "newer" compares
// queue-order timestamps, as Kueue's SatisfiesPreemptionPolicy does
// (pkg/scheduler/preemption/common/preemption_policy.go), so a candidate
// whose Queued is known is judged by it even when its reservation time is
// missing. Only the time-based rule needs the reservation.
func TestPreemptionClassifyQueuedWithoutReservation(t *testing.T) {
	p := timebased.Request{Priority: 10, Timestamp: tbAt(5)}
	noM := timebased.Config{Policy: timebased.LowerOrNewerEqualPriority}
	tests := []struct {
		name string
		cfg  timebased.Config
		cand timebased.Candidate
		want timebased.Class
	}{
		{"queued after the preemptor: newer", noM, timebased.Candidate{ID: "q", Priority: 10, Queued: tbAt(6)}, timebased.ClassNewer},
		{"queued after, with M: newer (never expires unknown)", tbTimeBased(time.Hour), timebased.Candidate{ID: "q", Priority: 10, Queued: tbAt(6)}, timebased.ClassNewer},
		{"queued before, no M: protected", noM, timebased.Candidate{ID: "q", Priority: 10, Queued: tbAt(4)}, timebased.ClassProtected},
		{"queued before, with M: expiry unknown", tbTimeBased(time.Hour), timebased.Candidate{ID: "q", Priority: 10, Queued: tbAt(4)}, timebased.ClassUnknownReservation},
		{"neither known", noM, timebased.Candidate{ID: "q", Priority: 10}, timebased.ClassUnknownReservation},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := tt.cfg.Classify(p, tt.cand, tbAt(600))
			if d.Class != tt.want || d.Allowed != tbPreemptible(tt.want) || !d.Until.IsZero() {
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
	p := timebased.Request{Priority: 10, Timestamp: tbAt(100)}
	now := tbAt(200)
	cands := []timebased.Candidate{
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

// TestKueueWithinClusterQueue checks KEP-8522's webhook validation rules on
// Kueue's own shape (withinClusterQueue plus the optional
// withinClusterQueueConfig block): 1. minAdmitDuration at least 1m; 2. a
// block without minAdmitDuration is valid and has no effect; 3. the block is
// an error with Never or LowerPriority, even without minAdmitDuration.
func TestKueueWithinClusterQueue(t *testing.T) {
	block := func(m *time.Duration) *timebased.KueueWithinClusterQueueConfig {
		return &timebased.KueueWithinClusterQueueConfig{MinAdmitDuration: m}
	}
	lone := timebased.LowerOrNewerEqualPriority
	tests := []struct {
		name    string
		k       timebased.KueueWithinClusterQueue
		want    timebased.Config
		wantErr []string
	}{
		{"unset policy is Never", timebased.KueueWithinClusterQueue{}, timebased.Config{}, nil},
		{"LowerPriority", timebased.KueueWithinClusterQueue{WithinClusterQueue: "LowerPriority"},
			timebased.Config{Policy: timebased.LowerPriority}, nil},
		{"time-based", timebased.KueueWithinClusterQueue{WithinClusterQueue: "LowerOrNewerEqualPriority", WithinClusterQueueConfig: block(tbDur(4 * time.Hour))},
			tbTimeBased(4 * time.Hour), nil},
		{"KEP-8522 webhook rule 1: exactly 1m", timebased.KueueWithinClusterQueue{WithinClusterQueue: "LowerOrNewerEqualPriority", WithinClusterQueueConfig: block(tbDur(time.Minute))},
			tbTimeBased(time.Minute), nil},
		{"KEP-8522 webhook rule 1: below 1m", timebased.KueueWithinClusterQueue{WithinClusterQueue: "LowerOrNewerEqualPriority", WithinClusterQueueConfig: block(tbDur(30 * time.Second))},
			timebased.Config{}, []string{"eligibility: withinClusterQueueConfig.minAdmitDuration must be at least 1m0s, got 30s"}},
		{"KEP-8522 webhook rule 1: explicit 0", timebased.KueueWithinClusterQueue{WithinClusterQueue: "LowerOrNewerEqualPriority", WithinClusterQueueConfig: block(tbDur(0))},
			timebased.Config{}, []string{"eligibility: withinClusterQueueConfig.minAdmitDuration must be at least 1m0s, got 0s"}},
		{"KEP-8522 webhook rule 2: empty block is valid, no effect", timebased.KueueWithinClusterQueue{WithinClusterQueue: "LowerOrNewerEqualPriority", WithinClusterQueueConfig: block(nil)},
			timebased.Config{Policy: lone}, nil},
		{"KEP-8522 webhook rule 3: empty block with Never", timebased.KueueWithinClusterQueue{WithinClusterQueue: "Never", WithinClusterQueueConfig: block(nil)},
			timebased.Config{}, []string{"eligibility: withinClusterQueueConfig is only valid with withinClusterQueue LowerOrNewerEqualPriority, not Never"}},
		{"KEP-8522 webhook rule 3: empty block with the default policy", timebased.KueueWithinClusterQueue{WithinClusterQueueConfig: block(nil)},
			timebased.Config{}, []string{"eligibility: withinClusterQueueConfig is only valid with withinClusterQueue LowerOrNewerEqualPriority, not Never"}},
		{"KEP-8522 webhook rule 3: empty block with LowerPriority", timebased.KueueWithinClusterQueue{WithinClusterQueue: "LowerPriority", WithinClusterQueueConfig: block(nil)},
			timebased.Config{}, []string{"eligibility: withinClusterQueueConfig is only valid with withinClusterQueue LowerOrNewerEqualPriority, not LowerPriority"}},
		{"rules 1 and 3 at once", timebased.KueueWithinClusterQueue{WithinClusterQueue: "LowerPriority", WithinClusterQueueConfig: block(tbDur(0))},
			timebased.Config{}, []string{
				"eligibility: withinClusterQueueConfig.minAdmitDuration must be at least 1m0s, got 0s",
				"eligibility: withinClusterQueueConfig is only valid with withinClusterQueue LowerOrNewerEqualPriority, not LowerPriority",
			}},
		{"policy spelt otherwise", timebased.KueueWithinClusterQueue{WithinClusterQueue: "lowerPriority"},
			timebased.Config{}, []string{`eligibility: withinClusterQueue: unsupported value "lowerPriority" (want Never, LowerPriority or LowerOrNewerEqualPriority)`}},
		{"Any is for cohorts only", timebased.KueueWithinClusterQueue{WithinClusterQueue: "Any"},
			timebased.Config{}, []string{`eligibility: withinClusterQueue: unsupported value "Any"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.k.Config()
			var msgs []string
			if err != nil {
				for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
					msgs = append(msgs, e.Error())
				}
			}
			if len(msgs) != len(tt.wantErr) {
				t.Fatalf("PreemptionConfig() errors %q, want %q", msgs, tt.wantErr)
			}
			for i := range msgs {
				if !strings.HasPrefix(msgs[i], tt.wantErr[i]) {
					t.Errorf("error %d = %q, want prefix %q", i, msgs[i], tt.wantErr[i])
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("PreemptionConfig() (-want +got):\n%s", diff)
			}
			if err != nil {
				return
			}
			if err := got.Validate(); err != nil {
				t.Errorf("accepted config fails Validate: %v", err)
			}
			// Back to Kueue's shape: the same, except that an empty block
			// (no effect) is not written back.
			back := got.Kueue()
			want := tt.k
			if want.WithinClusterQueue == "" {
				want.WithinClusterQueue = "Never"
			}
			if want.WithinClusterQueueConfig != nil && want.WithinClusterQueueConfig.MinAdmitDuration == nil {
				want.WithinClusterQueueConfig = nil
			}
			if diff := cmp.Diff(want, back); diff != "" {
				t.Errorf("Kueue() (-want +got):\n%s", diff)
			}
		})
	}
}

// TestCandidateClassKueueReason: the reason Kueue reports for a preemption
// within a ClusterQueue (the Preempted condition and the reason label of
// kueue_preempted_workloads_total): InClusterQueueTimeBased for a
// time-based pick (KEP-8522), InClusterQueue for the others.
func TestCandidateClassKueueReason(t *testing.T) {
	want := map[timebased.Class]string{
		timebased.ClassLowerPriority: "InClusterQueue",
		timebased.ClassNewer:         "InClusterQueue",
		timebased.ClassExpired:       "InClusterQueueTimeBased",
	}
	for c := timebased.Class(0); c < 10; c++ {
		if got := c.KueueReason(); got != want[c] {
			t.Errorf("%v.KueueReason() = %q, want %q", c, got, want[c])
		}
	}
}
