package preemptordelay_test

import (
	"testing"
	"time"

	"pgregory.net/rapid"

	"github.com/tenurepolicy/tenure/eligibility/preemptordelay"
)

// npGenInstant draws an instant on a coarse grid with a ±1ns jitter, or
// the zero time, so boundaries are hit often.
func npGenInstant(t *rapid.T, label string) time.Time {
	if rapid.IntRange(0, 5).Draw(t, label+".zero") == 0 {
		return time.Time{}
	}
	return npAt(60 * rapid.IntRange(0, 10).Draw(t, label+".min")).Add(time.Duration(rapid.IntRange(-1, 1).Draw(t, label+".ns")))
}

// TestPreemptorDelayOracle: denied exactly while the contender has waited
// less than the delay (or its wait is unknown under a delay).
func TestPreemptorDelayOracle(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		d := preemptordelay.Delay{Delay: time.Duration(rapid.IntRange(0, 5).Draw(t, "d")) * time.Minute}
		queued, now := npGenInstant(t, "queued"), npGenInstant(t, "now")
		blocked := d.Delay > 0 && (queued.IsZero() || now.Sub(queued) < d.Delay)
		got := d.Check(queued, now)
		if got.Allowed == blocked {
			t.Fatalf("Check(%v, %v) with %v = %v, want blocked %v", queued, now, d.Delay, got, blocked)
		}
		if blocked && !queued.IsZero() && !got.Until.Equal(queued.Add(d.Delay)) {
			t.Fatalf("Until %v", got.Until)
		}
	})
}
