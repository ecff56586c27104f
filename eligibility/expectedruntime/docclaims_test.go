package expectedruntime_test

import (
	"testing"
	"time"

	"github.com/tenurepolicy/tenure/eligibility/expectedruntime"
)

var dcNow = time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)

// NominatorResult.Reset: "empties r keeping the slices' capacity".
func TestDocClaimNominatorResultReset(t *testing.T) {
	r := expectedruntime.Result{
		Nominations: make([]expectedruntime.Nomination, 2, 5),
		Skips:       make([]expectedruntime.Skip, 1, 3),
		Wake:        dcNow,
		Silent:      4,
	}
	r.Reset()
	if len(r.Nominations) != 0 || cap(r.Nominations) != 5 || len(r.Skips) != 0 || cap(r.Skips) != 3 || !r.Wake.IsZero() || r.Silent != 0 {
		t.Errorf("after Reset: %d/%d nominations, %d/%d skips, Wake %v, Silent %d", len(r.Nominations), cap(r.Nominations), len(r.Skips), cap(r.Skips), r.Wake, r.Silent)
	}
}
