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
}
