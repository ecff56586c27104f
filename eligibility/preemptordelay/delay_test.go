package preemptordelay_test

import (
	"testing"
	"time"

	"github.com/tenurepolicy/tenure/eligibility"

	"github.com/tenurepolicy/tenure/eligibility/preemptordelay"
)

var np0 = time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)

func npAt(sec int) time.Time { return np0.Add(time.Duration(sec) * time.Second) }

// TestPreemptorDelayBoundaries: denied while now < queued + D, allowed at
// exactly queued + D.
func TestPreemptorDelayBoundaries(t *testing.T) {
	d := preemptordelay.Delay{Delay: 30 * time.Second}
	q := npAt(0)
	for _, tt := range []struct {
		name   string
		d      preemptordelay.Delay
		queued time.Time
		now    time.Time
		want   eligibility.Decision
	}{
		{"1ns before", d, q, q.Add(30*time.Second - 1), eligibility.Decision{Reason: preemptordelay.ReasonDelayed, Until: q.Add(30 * time.Second)}},
		{"exactly D", d, q, q.Add(30 * time.Second), eligibility.Decision{Allowed: true, Reason: eligibility.Reason("preemptor_waited")}},
		{"just queued", d, q, q, eligibility.Decision{Reason: preemptordelay.ReasonDelayed, Until: q.Add(30 * time.Second)}},
		{"queued unknown", d, time.Time{}, q, eligibility.Decision{Reason: preemptordelay.ReasonQueuedUnknown}},
		{"no delay", preemptordelay.Delay{}, q, q, eligibility.Decision{Allowed: true, Reason: eligibility.Reason("no_preemptor_delay")}},
		{"no delay, queued unknown", preemptordelay.Delay{}, time.Time{}, q, eligibility.Decision{Allowed: true, Reason: eligibility.Reason("no_preemptor_delay")}},
	} {
		if got := tt.d.Check(tt.queued, tt.now); got != tt.want {
			t.Errorf("%s: Check = %v, want %v", tt.name, got, tt.want)
		}
	}
	if (preemptordelay.Delay{Delay: -1}).Validate() == nil || (preemptordelay.Delay{}).Validate() != nil {
		t.Error("Validate: want negative rejected, zero accepted")
	}
}
