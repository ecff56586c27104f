package eligibility_test

import (
	"strings"
	"testing"

	"github.com/tenurepolicy/tenure/eligibility"
)

// The Reason doc's label grammar: "1 to 64 characters ... starting with a
// letter".
func TestDocClaimReasonLabel(t *testing.T) {
	long := eligibility.Reason("a" + strings.Repeat("b", 63))
	for r, want := range map[eligibility.Reason]bool{long: true, long + "c": false, "a": true, "1a": false, "_a": false, "a-b": false, "": false} {
		if got := validLabel(r); got != want {
			t.Errorf("validLabel(%q) = %v, want %v", r, got, want)
		}
	}
}

// validLabel reports whether r is a well-formed reason label, as the
// Reason type documents it: 1 to 64 characters, each a lower-case ASCII
// letter, a digit or '_', starting with a letter.
func validLabel(r eligibility.Reason) bool {
	if len(r) == 0 || len(r) > 64 || r[0] < 'a' || r[0] > 'z' {
		return false
	}
	for i := 1; i < len(r); i++ {
		if c := r[i]; (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '_' {
			return false
		}
	}
	return true
}
