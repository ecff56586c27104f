package preemptordelay

import (
	"time"

	"github.com/tenurepolicy/tenure/clock"
	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/internal/configkey"
)

// Delay is a preemptor-side delay: a pending job (a contender) may
// cause evictions only once it has waited at least Delay since it was
// queued. It follows YuniKorn's preemption.delay queue property, which
// YUNIKORN-1464 introduced as how long a task must be waiting before
// preemption is considered (YuniKorn's default is 30s; its user guide words
// it per leaf queue, which must have been below its guaranteed resources for
// that long). tenure measures the contender's own wait, so the policy does
// not depend on guaranteed quotas. It keeps a burst of arrivals from
// evicting running work before the normal allocation had a chance to place
// them.
//
// The zero value has no delay: every contender may cause evictions at once,
// which is tenure's behaviour without the setting. It is a plain value, safe
// for concurrent use.
type Delay struct {
	// Delay is how long a contender must wait; 0 disables the delay. Must
	// not be negative.
	Delay time.Duration
}

// Validate reports a negative Delay; the message starts with
// "eligibility: ".
func (d Delay) Validate() error {
	if d.Delay < 0 {
		return configkey.Errorf("", "eligibility: preemptor delay is negative (%v)", d.Delay)
	}
	return nil
}

// Check decides whether a contender queued at queued may cause evictions at
// now:
//
//   - Delay 0: allowed, [ReasonNoDelay];
//   - queued unknown (the zero time): denied, [ReasonQueuedUnknown], no
//     Until (a contender whose wait cannot be measured never counts as
//     having waited);
//   - now < queued + Delay (it has waited less than Delay): denied,
//     [ReasonDelayed], Until = queued + Delay;
//   - now >= queued + Delay (waited at least Delay, exactly Delay
//     included): allowed, [ReasonWaited].
//
// A queued time after now (clock skew) waits the full Delay from it. O(1),
// no allocation.
func (d Delay) Check(queued, now time.Time) eligibility.Decision {
	switch {
	case d.Delay <= 0:
		return eligibility.Decision{Allowed: true, Reason: ReasonNoDelay}
	case queued.IsZero():
		return eligibility.Decision{Reason: ReasonQueuedUnknown}
	}
	if until := clock.AddSaturating(queued, d.Delay); now.Before(until) {
		return eligibility.Decision{Reason: ReasonDelayed, Until: until}
	}
	return eligibility.Decision{Allowed: true, Reason: ReasonWaited}
}

// The reasons of Check.
const (
	// ReasonNoDelay: no preemptor-side delay is configured.
	ReasonNoDelay eligibility.Reason = "no_preemptor_delay"
	// ReasonWaited: the contender has waited at least the delay
	// (now >= queued + D), so it may cause evictions.
	ReasonWaited eligibility.Reason = "preemptor_waited"
	// ReasonDelayed: the contender has waited less than the delay
	// (now < queued + D); Until is queued + D.
	ReasonDelayed eligibility.Reason = "preemptor_delay"
	// ReasonQueuedUnknown: a delay is configured but the contender's queued
	// time is unknown (zero); it may not cause evictions.
	ReasonQueuedUnknown eligibility.Reason = "queued_unknown"
)
