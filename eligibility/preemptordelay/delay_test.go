package preemptordelay_test

import (
	"testing"
	"time"

	"github.com/tenurepolicy/tenure/eligibility"

	"github.com/tenurepolicy/tenure/eligibility/preemptordelay"
)

var np0 = time.Date(2026, 3, 2, 12, 0, 0, 0, time.UTC)

func npAt(sec int) time.Time { return np0.Add(time.Duration(sec) * time.Second) }

// own is a contender's annotations with its own delay under KAI's key.
func own(v string) map[string]string { return map[string]string{"kai.scheduler/preemption-delay": v} }

// TestPreemptorDelayBoundaries: denied while now < anchor + D, allowed at
// exactly anchor + D (KAI-Scheduler's now.Before(end)), the anchor being
// the later of queued and the last eviction, D the contender's own delay
// when it has one.
func TestPreemptorDelayBoundaries(t *testing.T) {
	d := preemptordelay.Delay{Delay: 30 * time.Second}
	q, ev := npAt(0), npAt(600)
	none := time.Time{}
	delayed := func(end time.Time) eligibility.Decision {
		return eligibility.Decision{Reason: preemptordelay.ReasonDelayed, Until: end}
	}
	waited := eligibility.Decision{Allowed: true, Reason: eligibility.Reason("preemptor_waited")}
	noDelay := eligibility.Decision{Allowed: true, Reason: eligibility.Reason("no_preemptor_delay")}
	invalid := eligibility.Decision{Reason: eligibility.Reason("invalid_preemption_delay")}
	for _, tt := range []struct {
		name        string
		d           preemptordelay.Delay
		queued, ev  time.Time
		annotations map[string]string
		now         time.Time
		want        eligibility.Decision
	}{
		{"default, 1ns before", d, q, none, nil, q.Add(30*time.Second - 1), delayed(q.Add(30 * time.Second))},
		{"default, exactly D", d, q, none, nil, q.Add(30 * time.Second), waited},
		{"default, just queued", d, q, none, nil, q, delayed(q.Add(30 * time.Second))},
		{"queued unknown", d, none, none, nil, q, eligibility.Decision{Reason: preemptordelay.ReasonQueuedUnknown}},
		{"queued unknown, evicted known", d, none, ev, nil, ev, eligibility.Decision{Reason: preemptordelay.ReasonQueuedUnknown}},
		{"no delay", preemptordelay.Delay{}, q, none, nil, q, noDelay},
		{"no delay, queued unknown", preemptordelay.Delay{}, none, none, nil, q, noDelay},
		{"own, end-1ns", d, q, none, own("10m"), q.Add(10*time.Minute - 1), delayed(q.Add(10 * time.Minute))},
		{"own, at the end", d, q, none, own("10m"), q.Add(10 * time.Minute), waited},
		{"own shorter than the default", d, q, none, own("10s"), q.Add(10 * time.Second), waited},
		{"own without a default", preemptordelay.Delay{}, q, none, own("10m"), q, delayed(q.Add(10 * time.Minute))},
		{"own 0 overrides the default", d, q, none, own("0s"), q, noDelay},
		{"own bare 0", d, q, none, own("0"), q, noDelay},
		{"own negative", d, q, none, own("-1m"), q.Add(time.Hour), invalid},
		{"own -0s", d, q, none, own("-0s"), q.Add(time.Hour), invalid},
		{"own unparsable", d, q, none, own("soon"), q.Add(time.Hour), invalid},
		{"own empty", preemptordelay.Delay{}, q, none, own(""), q, invalid},
		{"other key ignored", d, q, none, map[string]string{"x/preemption-delay": "1h"}, q.Add(30 * time.Second), waited},
		{"anchor at the later eviction, end-1ns", d, q, ev, nil, ev.Add(30*time.Second - 1), delayed(ev.Add(30 * time.Second))},
		{"anchor at the later eviction, end", d, q, ev, nil, ev.Add(30 * time.Second), waited},
		{"eviction before creation ignored", d, ev, q, nil, ev.Add(30*time.Second - 1), delayed(ev.Add(30 * time.Second))},
		{"eviction at creation", d, q, q, nil, q.Add(30 * time.Second), waited},
	} {
		if got := tt.d.Check(tt.queued, tt.ev, tt.annotations, tt.now); got != tt.want {
			t.Errorf("%s: Check = %v, want %v", tt.name, got, tt.want)
		}
	}
	if (preemptordelay.Delay{Delay: -1}).Validate() == nil || (preemptordelay.Delay{}).Validate() != nil {
		t.Error("Validate: want negative rejected, zero accepted")
	}
}

// TestPreemptorDelayRearms: a contender allowed once its delay ended is
// denied again after an eviction, for a whole delay from that eviction,
// as KAI-Scheduler's LastEvictionTimestamp re-arms it.
func TestPreemptorDelayRearms(t *testing.T) {
	d := preemptordelay.Delay{Key: "example.com/delay"}
	ann := map[string]string{"example.com/delay": "5m"}
	created := npAt(0)
	if got := d.Check(created, time.Time{}, ann, npAt(300)); !got.Allowed {
		t.Fatalf("after the first delay: %v, want allowed", got)
	}
	evicted := npAt(400)
	for _, tt := range []struct {
		now     time.Time
		allowed bool
	}{{evicted, false}, {evicted.Add(5*time.Minute - 1), false}, {evicted.Add(5 * time.Minute), true}} {
		got := d.Check(created, evicted, ann, tt.now)
		if got.Allowed != tt.allowed || !tt.allowed && !got.Until.Equal(evicted.Add(5*time.Minute)) {
			t.Errorf("at %v after an eviction at %v: %v, want allowed %v", tt.now.Sub(evicted), evicted, got, tt.allowed)
		}
	}
	if got := (preemptordelay.Delay{}).Check(created, time.Time{}, ann, created); !got.Allowed {
		t.Errorf("the default key does not read example.com/delay: %v", got)
	}
}
