package requeuetest_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/tenurepolicy/tenure/requeue/requeuetest"
)

// TestDocClaimPanicsRecovered checks TestModel's doc (a comment audit
// sample): a panic is recovered, in the model's methods (a Failure: see
// TestBrokenModelsFail's "panic") as in newModel or state, which the first
// comparison of two fresh models reports as a plain error.
func TestDocClaimPanicsRecovered(t *testing.T) {
	for name, err := range map[string]error{
		"newModel": requeuetest.TestModel(func() *toy { panic("no model") }, toyState, toyRunning, toyPending),
		"state":    requeuetest.TestModel(func() *toy { return newToy("") }, func(*toy) string { panic("no state") }, toyRunning, toyPending),
	} {
		var f *requeuetest.Failure
		if err == nil || errors.As(err, &f) || !strings.HasPrefix(err.Error(), "requeuetest: panic: ") {
			t.Errorf("panic in %s: %v, want a plain requeuetest: panic: error", name, err)
		}
	}
}
