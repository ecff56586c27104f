package preemptordelay

import (
	"time"

	"github.com/tenurepolicy/tenure/clock"
	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/internal/configkey"
)

// Delay is the preemptor-side delay. The zero value delays nothing. A
// plain value, safe for concurrent use.
type Delay struct {
	// Delay is how long a contender must wait; 0 disables it; not
	// negative.
	Delay time.Duration
}

// Validate reports a negative Delay.
func (d Delay) Validate() error {
	if d.Delay < 0 {
		return configkey.Errorf("", "eligibility: preemptor delay is negative (%v)", d.Delay)
	}
	return nil
}

// Check decides whether a contender queued at queued may cause evictions
// at now:
//
//   - Delay 0: allowed, "no_preemptor_delay";
//   - queued zero (unknown): denied, [ReasonQueuedUnknown], no Until;
//   - now < queued + Delay: denied, [ReasonDelayed], Until = queued + Delay;
//   - otherwise (exactly Delay included): allowed, "preemptor_waited".
//
// O(1), no allocation.
func (d Delay) Check(queued, now time.Time) eligibility.Decision {
	switch {
	case d.Delay <= 0:
		return eligibility.Decision{Allowed: true, Reason: reasonNoDelay}
	case queued.IsZero():
		return eligibility.Decision{Reason: ReasonQueuedUnknown}
	}
	if until := clock.AddSaturating(queued, d.Delay); now.Before(until) {
		return eligibility.Decision{Reason: ReasonDelayed, Until: until}
	}
	return eligibility.Decision{Allowed: true, Reason: reasonWaited}
}

// The reasons of [Delay.Check].
const (
	// reasonNoDelay: Delay is 0.
	reasonNoDelay eligibility.Reason = "no_preemptor_delay"
	// reasonWaited: now >= queued + Delay.
	reasonWaited eligibility.Reason = "preemptor_waited"
	// ReasonDelayed: now < queued + Delay.
	ReasonDelayed eligibility.Reason = "preemptor_delay"
	// ReasonQueuedUnknown: the queued time is zero.
	ReasonQueuedUnknown eligibility.Reason = "queued_unknown"
)
