package timebased_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenurepolicy/tenure/eligibility"
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
		want eligibility.Reason
	}{
		{"queued after the preemptor: newer", noM, timebased.Candidate{ID: "q", Priority: 10, Queued: tbAt(6)}, clsNewer},
		{"queued after, with M: newer (never expires unknown)", tbTimeBased(time.Hour), timebased.Candidate{ID: "q", Priority: 10, Queued: tbAt(6)}, clsNewer},
		{"queued before, no M: protected", noM, timebased.Candidate{ID: "q", Priority: 10, Queued: tbAt(4)}, clsProtected},
		{"queued before, with M: expiry unknown", tbTimeBased(time.Hour), timebased.Candidate{ID: "q", Priority: 10, Queued: tbAt(4)}, clsUnknownReservation},
		{"neither known", noM, timebased.Candidate{ID: "q", Priority: 10}, clsUnknownReservation},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := tt.cfg.Classify(p, tt.cand, tbAt(600))
			if d.Reason != tt.want || d.Allowed != tbPreemptible(tt.want) || !d.Until.IsZero() {
				t.Errorf("Classify = %v (allowed %v, until %v), want %v and no Until", d.Reason, d.Allowed, d.Until, tt.want)
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
	if diff := cmp.Diff(want, tbIDs(candidates(cfg, p, cands, now))); diff != "" {
		t.Errorf("Candidates order (-want +got):\n%s", diff)
	}
}

// TestKueueWithinClusterQueue checks KEP-8522's webhook validation rules on
// Kueue's own shape, as Config.UnmarshalJSON reads it (withinClusterQueue
// plus the optional withinClusterQueueConfig block): 1. minAdmitDuration at
// least 1m; 2. a block without minAdmitDuration is valid and has no effect;
// 3. the block is an error with Never or LowerPriority, even without
// minAdmitDuration.
func TestKueueWithinClusterQueue(t *testing.T) {
	lone := timebased.LowerOrNewerEqualPriority
	tests := []struct {
		name    string
		in      string
		want    timebased.Config
		wantErr []string
	}{
		{"unset policy is Never", `{}`, timebased.Config{}, nil},
		{"LowerPriority", `{"withinClusterQueue":"LowerPriority"}`,
			timebased.Config{Policy: timebased.LowerPriority}, nil},
		{"time-based", `{"withinClusterQueue":"LowerOrNewerEqualPriority","withinClusterQueueConfig":{"minAdmitDuration":"4h"}}`,
			tbTimeBased(4 * time.Hour), nil},
		{"KEP-8522 webhook rule 1: exactly 1m", `{"withinClusterQueue":"LowerOrNewerEqualPriority","withinClusterQueueConfig":{"minAdmitDuration":"1m"}}`,
			tbTimeBased(time.Minute), nil},
		{"KEP-8522 webhook rule 1: below 1m", `{"withinClusterQueue":"LowerOrNewerEqualPriority","withinClusterQueueConfig":{"minAdmitDuration":"30s"}}`,
			timebased.Config{}, []string{"eligibility: withinClusterQueueConfig.minAdmitDuration must be at least 1m0s, got 30s"}},
		{"KEP-8522 webhook rule 1: explicit 0", `{"withinClusterQueue":"LowerOrNewerEqualPriority","withinClusterQueueConfig":{"minAdmitDuration":"0s"}}`,
			timebased.Config{}, []string{"eligibility: withinClusterQueueConfig.minAdmitDuration must be at least 1m0s, got 0s"}},
		{"KEP-8522 webhook rule 2: empty block is valid, no effect", `{"withinClusterQueue":"LowerOrNewerEqualPriority","withinClusterQueueConfig":{}}`,
			timebased.Config{Policy: lone}, nil},
		{"KEP-8522 webhook rule 3: empty block with Never", `{"withinClusterQueue":"Never","withinClusterQueueConfig":{}}`,
			timebased.Config{}, []string{"eligibility: withinClusterQueueConfig is only valid with withinClusterQueue LowerOrNewerEqualPriority, not Never"}},
		{"KEP-8522 webhook rule 3: empty block with the default policy", `{"withinClusterQueueConfig":{}}`,
			timebased.Config{}, []string{"eligibility: withinClusterQueueConfig is only valid with withinClusterQueue LowerOrNewerEqualPriority, not Never"}},
		{"KEP-8522 webhook rule 3: empty block with LowerPriority", `{"withinClusterQueue":"LowerPriority","withinClusterQueueConfig":{}}`,
			timebased.Config{}, []string{"eligibility: withinClusterQueueConfig is only valid with withinClusterQueue LowerOrNewerEqualPriority, not LowerPriority"}},
		{"rules 1 and 3 at once", `{"withinClusterQueue":"LowerPriority","withinClusterQueueConfig":{"minAdmitDuration":"0s"}}`,
			timebased.Config{}, []string{
				"eligibility: withinClusterQueueConfig.minAdmitDuration must be at least 1m0s, got 0s",
				"eligibility: withinClusterQueueConfig is only valid with withinClusterQueue LowerOrNewerEqualPriority, not LowerPriority",
			}},
		{"policy spelt otherwise", `{"withinClusterQueue":"lowerPriority"}`,
			timebased.Config{}, []string{`eligibility: withinClusterQueue: unsupported value "lowerPriority" (want Never, LowerPriority or LowerOrNewerEqualPriority)`}},
		{"Any is for cohorts only", `{"withinClusterQueue":"Any"}`,
			timebased.Config{}, []string{`eligibility: withinClusterQueue: unsupported value "Any"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got timebased.Config
			err := json.Unmarshal([]byte(tt.in), &got)
			var msgs []string
			if err != nil {
				for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
					msgs = append(msgs, e.Error())
				}
			}
			if len(msgs) != len(tt.wantErr) {
				t.Fatalf("Unmarshal errors %q, want %q", msgs, tt.wantErr)
			}
			for i := range msgs {
				if !strings.HasPrefix(msgs[i], tt.wantErr[i]) {
					t.Errorf("error %d = %q, want prefix %q", i, msgs[i], tt.wantErr[i])
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Unmarshal (-want +got):\n%s", diff)
			}
			if err != nil {
				return
			}
			if err := got.Validate(); err != nil {
				t.Errorf("accepted config fails Validate: %v", err)
			}
			// Back to Kueue's shape and read again: the same config (an
			// empty block, which has no effect, is not written back).
			out, err := json.Marshal(got)
			var back timebased.Config
			if err != nil || json.Unmarshal(out, &back) != nil {
				t.Fatalf("round trip %s: %v", out, err)
			}
			if diff := cmp.Diff(got, back); diff != "" {
				t.Errorf("round trip (-want +got):\n%s", diff)
			}
		})
	}
}
