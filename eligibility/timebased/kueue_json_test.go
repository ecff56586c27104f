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
	var k timebased.KueueWithinClusterQueue
	if err := json.Unmarshal([]byte(in), &k); err != nil {
		t.Fatal(err)
	}
	c, err := k.Config()
	if err != nil || c.Policy != timebased.LowerOrNewerEqualPriority || *c.MinAdmitDuration != 4*time.Hour {
		t.Fatalf("Config = %+v, %v", c, err)
	}
	out, _ := json.Marshal(c.Kueue())
	if string(out) != in {
		t.Errorf("Marshal = %s, want %s", out, in)
	}
	for _, bad := range []string{`{"WithinClusterQueue":"Never"}`, `{"withinClusterQueueConfig":{"minAdmit":"4h"}}`} {
		if err := json.Unmarshal([]byte(bad), &k); err == nil || !strings.Contains(err.Error(), "unknown key") {
			t.Errorf("Unmarshal(%s) = %v, want an unknown-key error", bad, err)
		}
	}
}
