package timebased_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenurepolicy/tenure/eligibility/timebased"
)

// FuzzKueueWithinClusterQueueJSON: the decoder never panics; what it
// accepts writes back to JSON that decodes to the same value.
func FuzzKueueWithinClusterQueueJSON(f *testing.F) {
	for _, s := range []string{`{}`, `null`, `{"withinClusterQueue":"LowerOrNewerEqualPriority","withinClusterQueueConfig":{"minAdmitDuration":"4h"}}`,
		`{"withinClusterQueueConfig":{}}`, `{"withinClusterQueueConfig":null}`, `{"WithinClusterQueue":"Never"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var k timebased.Config
		if json.Unmarshal([]byte(s), &k) != nil {
			return
		}
		out, err := json.Marshal(k)
		if err != nil {
			t.Fatal(err)
		}
		var back timebased.Config
		if err := json.Unmarshal(out, &back); err != nil {
			t.Fatalf("%q → %s: %v", s, out, err)
		}
		if diff := cmp.Diff(k, back); diff != "" {
			t.Fatalf("%q → %s (-want +got):\n%s", s, out, diff)
		}
	})
}
