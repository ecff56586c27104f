package preemptordelay

import (
	"time"

	"github.com/tenurepolicy/tenure/clock"
	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/eligibility/internal/configkey"
	"github.com/tenurepolicy/tenure/runtime"
)

// annotation is the default key of a contender's own delay:
// KAI-Scheduler's kai.scheduler/preemption-delay.
const annotation = "kai.scheduler/preemption-delay"

// Delay is the preemptor-side delay: a default for every contender, and
// the key of the annotation by which a contender sets its own. The zero
// value delays only the contenders that carry their own delay. A plain
// value, safe for concurrent use.
type Delay struct {
	// Delay is the default, for a contender without its own delay
	// annotation; 0 disables it; not negative.
	Delay time.Duration
	// Key names the annotation holding a contender's own delay; ""
	// means KAI-Scheduler's "kai.scheduler/preemption-delay".
	Key string
}

// Validate reports a negative Delay.
func (d Delay) Validate() error {
	if d.Delay < 0 {
		return configkey.Errorf("", "eligibility: preemptor delay is negative (%v)", d.Delay)
	}
	return nil
}

// Check decides whether a contender may cause evictions at now. queued is
// when it was created (or its queue-order timestamp), lastEvicted its
// last eviction (zero: none), annotations its annotations. The checks, in
// order:
//
//  1. the delay is the contender's own when annotations hold Key (a
//     duration in runtime.ParseDuration's grammar, 0 meaning none),
//     else the default Delay; an unparsable own delay: denied,
//     "invalid_preemption_delay", no Until;
//  2. a delay of 0: allowed, "no_preemptor_delay";
//  3. queued zero (unknown): denied, [ReasonQueuedUnknown], no Until;
//  4. the delay ends at the later of queued and lastEvicted plus the
//     delay (saturating at [clock.Last]); now before that end: denied,
//     [ReasonDelayed], Until = the end;
//  5. otherwise (exactly at the end included): allowed, "preemptor_waited".
//
// runtime.ParseDuration on the value says why it is unparsable. O(len of
// the own delay); no allocation but an unparsable value's.
func (d Delay) Check(queued, lastEvicted time.Time, annotations map[string]string, now time.Time) eligibility.Decision {
	delay := d.Delay
	if s, ok := annotations[d.key()]; ok {
		own, err := runtime.ParseDuration(s)
		if err != nil {
			return eligibility.Decision{Reason: reasonInvalid}
		}
		delay = own
	}
	switch {
	case delay <= 0:
		return eligibility.Decision{Allowed: true, Reason: reasonNoDelay}
	case queued.IsZero():
		return eligibility.Decision{Reason: ReasonQueuedUnknown}
	}
	anchor := queued
	if lastEvicted.After(anchor) {
		anchor = lastEvicted
	}
	if end := clock.AddSaturating(anchor, delay); now.Before(end) {
		return eligibility.Decision{Reason: ReasonDelayed, Until: end}
	}
	return eligibility.Decision{Allowed: true, Reason: reasonWaited}
}

// key returns Key, or KAI-Scheduler's key when Key is empty.
func (d Delay) key() string {
	if d.Key == "" {
		return annotation
	}
	return d.Key
}

// The reasons of [Delay.Check].
const (
	// reasonNoDelay: the contender's delay is 0.
	reasonNoDelay eligibility.Reason = "no_preemptor_delay"
	// reasonWaited: now is at or after the delay's end.
	reasonWaited eligibility.Reason = "preemptor_waited"
	// reasonInvalid: the contender's own delay does not parse.
	reasonInvalid eligibility.Reason = "invalid_preemption_delay"
	// ReasonDelayed: now is before the delay's end (KAI-Scheduler's
	// PreemptionDelayNotElapsed); Until is the end.
	ReasonDelayed eligibility.Reason = "preemptor_delay"
	// ReasonQueuedUnknown: the queued time is zero.
	ReasonQueuedUnknown eligibility.Reason = "queued_unknown"
)
