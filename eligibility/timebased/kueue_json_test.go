package timebased_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/tenurepolicy/tenure/eligibility/timebased"
)

// TestKueueWithinClusterQueueJSON: KEP-8522's shape both ways.
func TestKueueWithinClusterQueueJSON(t *testing.T) {
	in := `{"withinClusterQueue":"LowerOrNewerEqualPriority","withinClusterQueueConfig":{"minAdmitDuration":"4h0m0s"}}`
	var c timebased.Config
	if err := json.Unmarshal([]byte(in), &c); err != nil || c.Policy != timebased.LowerOrNewerEqualPriority || *c.MinAdmitDuration != 4*time.Hour {
		t.Fatalf("Unmarshal = %+v, %v", c, err)
	}
	out, _ := json.Marshal(c)
	if string(out) != in {
		t.Errorf("Marshal = %s, want %s", out, in)
	}
	for _, bad := range []string{`{"WithinClusterQueue":"Never"}`, `{"withinClusterQueueConfig":{"minAdmit":"4h"}}`} {
		if err := json.Unmarshal([]byte(bad), &c); err == nil || !strings.Contains(err.Error(), "unknown key") {
			t.Errorf("Unmarshal(%s) = %v, want an unknown-key error", bad, err)
		}
	}
}
