package admitprotect_test

import (
	"testing"
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/admitprotect"
)

var sinkDecision eligibility.Decision

// BenchmarkAdmitProtectionCheck and BenchmarkPreemptorDelayCheck: O(1)
// decisions, no allocation.
func BenchmarkAdmitProtectionCheck(b *testing.B) {
	c := admitprotect.Protection{FairSharing: explicit(time.Hour), ReclaimWithinCohort: explicit(10 * time.Minute)}
	b.ReportAllocs()
	for b.Loop() {
		sinkDecision = c.Check(admitprotect.InCohortReclamation, np0, false, np0.Add(time.Minute))
	}
}
