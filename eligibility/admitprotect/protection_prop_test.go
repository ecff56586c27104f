package admitprotect_test

import (
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/tenurepolicy/tenure/eligibility/admitprotect"
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
		c := admitprotect.Protection{FairSharing: npGenDur(t, "fs"), ReclaimWithinCohort: npGenDur(t, "rc")}
		kind := admitprotect.Kind(rapid.IntRange(0, 3).Draw(t, "kind"))
		admitted, now := npGenInstant(t, "admitted"), npGenInstant(t, "now")
		evicted := rapid.Bool().Draw(t, "evicted")
		var rule *time.Duration
		switch kind {
		case admitprotect.InCohortFairSharing:
			rule = c.FairSharing
		case admitprotect.InCohortReclamation, admitprotect.InCohortReclaimWhileBorrowing:
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
