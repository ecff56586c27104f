package eligibility_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/tenurepolicy/tenure/eligibility"
)

// npGenInstant draws an instant on a coarse grid with a ±1ns jitter, or
// the zero time, so boundaries are hit often.
func npGenInstant(t *rapid.T, label string) time.Time {
	if rapid.IntRange(0, 5).Draw(t, label+".zero") == 0 {
		return time.Time{}
	}
	return npAt(60 * rapid.IntRange(0, 10).Draw(t, label+".min")).Add(time.Duration(rapid.IntRange(-1, 1).Draw(t, label+".ns")))
}

func npGenDur(t *rapid.T, label string) *time.Duration {
	if rapid.Bool().Draw(t, label+".nil") {
		return nil
	}
	d := time.Duration(rapid.IntRange(0, 5).Draw(t, label)) * time.Minute
	return &d
}

// TestAdmitProtectionOracle compares Check with the KEP's rule written
// out naively: the rule of the kind; evicted or not admitted never
// protected; protected exactly while now - admitted < d.
func TestAdmitProtectionOracle(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c := eligibility.AdmitProtection{FairSharing: npGenDur(t, "fs"), ReclaimWithinCohort: npGenDur(t, "rc")}
		kind := eligibility.CohortPreemption(rapid.IntRange(0, 3).Draw(t, "kind"))
		admitted, now := npGenInstant(t, "admitted"), npGenInstant(t, "now")
		evicted := rapid.Bool().Draw(t, "evicted")
		var rule *time.Duration
		switch kind {
		case eligibility.InCohortFairSharing:
			rule = c.FairSharing
		case eligibility.InCohortReclamation, eligibility.InCohortReclaimWhileBorrowing:
			rule = c.ReclaimWithinCohort
		}
		protected := rule != nil && *rule > 0 && !evicted && !admitted.IsZero() && now.Sub(admitted) < *rule
		got := c.Check(kind, admitted, evicted, now)
		if got.Allowed == protected {
			t.Fatalf("Check(%v, %v, %v, %v) = %v, want protected %v", kind, admitted, evicted, now, got, protected)
		}
		if protected && !got.Until.Equal(admitted.Add(*rule)) {
			t.Fatalf("Until %v, want %v", got.Until, admitted.Add(*rule))
		}
		if !protected && !got.Until.IsZero() {
			t.Fatalf("allowed with Until %v", got.Until)
		}
	})
}

// TestPreemptorDelayOracle: denied exactly while the contender has waited
// less than the delay (or its wait is unknown under a delay).
func TestPreemptorDelayOracle(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := eligibility.PreemptorDelay{Delay: time.Duration(rapid.IntRange(0, 5).Draw(t, "d")) * time.Minute}
		queued, now := npGenInstant(t, "queued"), npGenInstant(t, "now")
		blocked := d.Delay > 0 && (queued.IsZero() || now.Sub(queued) < d.Delay)
		got := d.Check(queued, now)
		if got.Allowed == blocked {
			t.Fatalf("Check(%v, %v) with %v = %v, want blocked %v", queued, now, d.Delay, got, blocked)
		}
		if blocked && !queued.IsZero() && !got.Until.Equal(queued.Add(d.Delay)) {
			t.Fatalf("Until %v", got.Until)
		}
	})
}

// FuzzKueueWithinClusterQueueJSON: the decoder never panics; what it
// accepts writes back to JSON that decodes to the same value.
func FuzzKueueWithinClusterQueueJSON(f *testing.F) {
	for _, s := range []string{`{}`, `null`, `{"withinClusterQueue":"LowerOrNewerEqualPriority","withinClusterQueueConfig":{"minAdmitDuration":"4h"}}`,
		`{"withinClusterQueueConfig":{}}`, `{"withinClusterQueueConfig":null}`, `{"WithinClusterQueue":"Never"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var k eligibility.KueueWithinClusterQueue
		if json.Unmarshal([]byte(s), &k) != nil {
			return
		}
		out, err := json.Marshal(k)
		if err != nil {
			t.Fatal(err)
		}
		var back eligibility.KueueWithinClusterQueue
		if err := json.Unmarshal(out, &back); err != nil {
			t.Fatalf("%q → %s: %v", s, out, err)
		}
		if diff := cmp.Diff(k, back); diff != "" {
			t.Fatalf("%q → %s (-want +got):\n%s", s, out, diff)
		}
	})
}
