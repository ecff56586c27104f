package eligibility_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/tenurepolicy/tenure/eligibility/admitprotect"
	"github.com/tenurepolicy/tenure/eligibility/timebased"
)

// TestKueueBlocksWriteGoDurations: inside a block that mirrors a Kueue
// object, a duration is written as Go's time.Duration.String writes it,
// the form Kueue's metav1.Duration reads (time.ParseDuration); tenure's own
// "1d" would be rejected there. The blocks still read tenure's grammar.
func TestKueueBlocksWriteGoDurations(t *testing.T) {
	day := 24 * time.Hour
	for _, tc := range []struct {
		v    any
		want string
	}{
		{admitprotect.Protection{FairSharing: explicit(day)}, `{"fairSharing":{"minAdmitDuration":"24h0m0s"}}`},
		{admitprotect.Protection{ReclaimWithinCohort: explicit(90 * time.Second)}, `{"reclaimWithinCohort":{"minAdmitDuration":"1m30s"}}`},
		{timebased.Config{Policy: timebased.LowerOrNewerEqualPriority, MinAdmitDuration: explicit(7 * day)},
			`{"withinClusterQueue":"LowerOrNewerEqualPriority","withinClusterQueueConfig":{"minAdmitDuration":"168h0m0s"}}`},
	} {
		out, err := json.Marshal(tc.v)
		if err != nil || string(out) != tc.want {
			t.Errorf("Marshal = %s, %v; want %s", out, err, tc.want)
			continue
		}
		for _, s := range []string{tc.want} {
			d, err := time.ParseDuration(extractDuration(t, s))
			if err != nil || d <= 0 {
				t.Errorf("%s: Go cannot read the duration: %v", s, err)
			}
		}
	}
	// tenure's grammar is still read.
	var k admitprotect.Protection
	if err := json.Unmarshal([]byte(`{"fairSharing":{"minAdmitDuration":"1d"}}`), &k); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(admitprotect.Protection{FairSharing: explicit(day)}, k); diff != "" {
		t.Errorf("1d (-want +got):\n%s", diff)
	}
}

// extractDuration returns the minAdmitDuration value of a marshalled block.
func extractDuration(t *testing.T, s string) string {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatal(err)
	}
	for _, v := range m {
		if inner, ok := v.(map[string]any); ok {
			if d, ok := inner["minAdmitDuration"].(string); ok {
				return d
			}
		}
	}
	t.Fatalf("no minAdmitDuration in %s", s)
	return ""
}
