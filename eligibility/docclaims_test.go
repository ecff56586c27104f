package eligibility_test

import (
	"strings"
	"testing"

	"github.com/tenurepolicy/tenure/eligibility"
)

// Reason.Valid: "1 to 64 characters ... starting with a letter"; a Counter
// counts an event with an invalid reason under "invalid".
func TestDocClaimReasonValid(t *testing.T) {
	long := eligibility.Reason("a" + strings.Repeat("b", 63))
	for r, want := range map[eligibility.Reason]bool{long: true, long + "c": false, "a": true, "1a": false, "_a": false, "a-b": false, "": false} {
		if got := r.Valid(); got != want {
			t.Errorf("%q.Valid() = %v, want %v", r, got, want)
		}
	}
	var c eligibility.Counter
	c.Observe(eligibility.Event{Source: "s", Decision: eligibility.Decision{Reason: "Bad Label"}})
	if c.Count("s", "Bad Label") != 0 || c.Count("s", eligibility.Reason("invalid")) != 1 {
		t.Errorf("invalid reason: counted %d as is and %d as invalid, want 0 and 1", c.Count("s", "Bad Label"), c.Count("s", eligibility.Reason("invalid")))
	}
}
