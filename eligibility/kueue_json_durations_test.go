package eligibility_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenurepolicy/tenure/eligibility/admitprotect"
	"github.com/tenurepolicy/tenure/eligibility/timebased"
)

// TestKueueBlocksReadGoDurations: a block that mirrors a Kueue object
// reads a duration as Kueue writes it, Go's time.Duration.String form
// (metav1.Duration), and tenure's own grammar ("1d") too.
func TestKueueBlocksReadGoDurations(t *testing.T) {
	day := 24 * time.Hour
	for _, tc := range []struct {
		in   string
		got  any
		want any
	}{
		{`{"fairSharing":{"minAdmitDuration":"24h0m0s"}}`, new(admitprotect.Protection), &admitprotect.Protection{FairSharing: explicit(day)}},
		{`{"reclaimWithinCohort":{"minAdmitDuration":"1m30s"}}`, new(admitprotect.Protection), &admitprotect.Protection{ReclaimWithinCohort: explicit(90 * time.Second)}},
		{`{"fairSharing":{"minAdmitDuration":"1d"}}`, new(admitprotect.Protection), &admitprotect.Protection{FairSharing: explicit(day)}},
		{`{"withinClusterQueue":"LowerOrNewerEqualPriority","withinClusterQueueConfig":{"minAdmitDuration":"168h0m0s"}}`, new(timebased.Config),
			&timebased.Config{Policy: timebased.LowerOrNewerEqualPriority, MinAdmitDuration: explicit(7 * day)}},
	} {
		if err := json.Unmarshal([]byte(tc.in), tc.got); err != nil {
			t.Errorf("Unmarshal(%s): %v", tc.in, err)
			continue
		}
		if diff := cmp.Diff(tc.want, tc.got); diff != "" {
			t.Errorf("Unmarshal(%s) (-want +got):\n%s", tc.in, diff)
		}
	}
}
