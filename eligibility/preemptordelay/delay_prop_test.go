package preemptordelay_test

import (
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/tenurepolicy/tenure/eligibility/preemptordelay"
	"github.com/tenurepolicy/tenure/runtime"
)

// npGenInstant draws an instant on a coarse grid with a ±1ns jitter, or
// the zero time, so boundaries are hit often.
func npGenInstant(t *rapid.T, label string) time.Time {
	if rapid.IntRange(0, 5).Draw(t, label+".zero") == 0 {
		return time.Time{}
	}
	return npAt(60 * rapid.IntRange(0, 10).Draw(t, label+".min")).Add(time.Duration(rapid.IntRange(-1, 1).Draw(t, label+".ns")))
}

// npGenOwn draws a contender's annotations: none, a valid own delay
// (zero included), or a bad value.
func npGenOwn(t *rapid.T) map[string]string {
	switch rapid.IntRange(0, 3).Draw(t, "own") {
	case 0:
		return nil
	case 1:
		return map[string]string{"kai.scheduler/preemption-delay": "-1m"}
	}
	m := rapid.IntRange(0, 5).Draw(t, "own.min")
	return map[string]string{"kai.scheduler/preemption-delay": runtime.FormatDuration(time.Duration(m) * time.Minute)}
}

// TestPreemptorDelayOracle: denied exactly while now is before the later
// of queued and lastEvicted plus the contender's delay (its own when it
// has one, else the default), or when that delay is bad, or when a delay
// applies and queued is unknown.
func TestPreemptorDelayOracle(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := preemptordelay.Delay{Delay: time.Duration(rapid.IntRange(0, 5).Draw(t, "d")) * time.Minute}
		queued, evicted, now := npGenInstant(t, "queued"), npGenInstant(t, "evicted"), npGenInstant(t, "now")
		ann := npGenOwn(t)
		delay, bad := d.Delay, false
		if s, ok := ann["kai.scheduler/preemption-delay"]; ok {
			var err error
			delay, err = runtime.ParseDuration(s)
			bad = err != nil
		}
		anchor := queued
		if evicted.After(queued) {
			anchor = evicted
		}
		end := anchor.Add(delay)
		blocked := bad || delay > 0 && (queued.IsZero() || now.Before(end))
		got := d.Check(queued, evicted, ann, now)
		if got.Allowed == blocked {
			t.Fatalf("Check(%v, %v, %v, %v) with %v = %v, want blocked %v", queued, evicted, ann, now, d.Delay, got, blocked)
		}
		wantUntil := time.Time{}
		if blocked && !bad && !queued.IsZero() {
			wantUntil = end
		}
		if !got.Until.Equal(wantUntil) {
			t.Fatalf("Until %v, want %v", got.Until, wantUntil)
		}
	})
}

// FuzzPreemptorDelayAnnotation: any annotation value gives a decision
// without panicking; a value runtime.ParseDuration rejects is denied
// without Until, any other is the delay it parses to.
func FuzzPreemptorDelayAnnotation(f *testing.F) {
	for _, s := range []string{"30s", "0", "0s", "-0s", "-5m", "", "1.5h", "1d", "+5s", "5", "1h-30m", "9999999h", "2540400h10m10.000000001s", "µs"} {
		f.Add(s)
	}
	q := npAt(0)
	f.Fuzz(func(t *testing.T, s string) {
		ann := map[string]string{"kai.scheduler/preemption-delay": s}
		d := preemptordelay.Delay{Delay: time.Hour}.Check(q, time.Time{}, ann, q)
		own, err := runtime.ParseDuration(s)
		switch {
		case err != nil:
			if d.Allowed || d.Reason != "invalid_preemption_delay" || !d.Until.IsZero() {
				t.Fatalf("%q: %v, want invalid_preemption_delay", s, d)
			}
		case own == 0:
			if !d.Allowed || d.Reason != "no_preemptor_delay" {
				t.Fatalf("%q: %v, want no delay", s, d)
			}
		case d.Allowed || !d.Until.Equal(q.Add(own)):
			t.Fatalf("%q (%v): %v, want denied until %v", s, own, d, q.Add(own))
		}
	})
}
