package runtime_test

import (
	"testing"
	"time"

	"github.com/tenurepolicy/tenure/clock"
	"github.com/tenurepolicy/tenure/runtime"
)

// TestProtectedBoundaries pins the semantics table: protected while now < start+d,
// evictable at exactly start+d; d = 0 and a zero start never protect; a
// start in the future protects until start+d.
func TestProtectedBoundaries(t *testing.T) {
	t0 := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	d := 10 * time.Minute
	tests := []struct {
		name      string
		start     time.Time
		d         time.Duration
		now       time.Time
		want      bool
		wantUntil time.Time
	}{
		{"at start", t0, d, t0, true, t0.Add(d)},
		{"midway", t0, d, t0.Add(5 * time.Minute), true, t0.Add(d)},
		{"1ns before start+d", t0, d, t0.Add(d - 1), true, t0.Add(d)},
		{"exactly start+d", t0, d, t0.Add(d), false, t0.Add(d)},
		{"after start+d", t0, d, t0.Add(d + time.Minute), false, t0.Add(d)},
		{"d = 0 at start", t0, 0, t0, false, time.Time{}},
		{"d = 0 before start", t0, 0, t0.Add(-time.Minute), false, time.Time{}},
		{"d = 1ns at start", t0, 1, t0, true, t0.Add(1)},
		{"d = 1ns at start+1ns", t0, 1, t0.Add(1), false, t0.Add(1)},
		{"negative d", t0, -time.Minute, t0.Add(-time.Hour), false, time.Time{}},
		// No until to compare with: even a now before the zero Time (year 1)
		// is not protected.
		{"d = 0, now before the zero Time", t0, 0, time.Time{}.Add(-time.Hour), false, time.Time{}},
		{"zero start", time.Time{}, d, t0, false, time.Time{}},
		{"zero start, zero now", time.Time{}, d, time.Time{}, false, time.Time{}},
		{"zero start, now before the zero Time", time.Time{}, d, time.Time{}.Add(-time.Hour), false, time.Time{}},
		{"future start (skew): protected before start", t0, d, t0.Add(-time.Hour), true, t0.Add(d)},
		{"future start: still protected 1ns before start+d", t0, d, t0.Add(d - 1), true, t0.Add(d)},
		{"future start: evictable at start+d", t0, d, t0.Add(d), false, t0.Add(d)},
	}
	for _, tt := range tests {
		if got := protected(tt.start, tt.d, tt.now); got != tt.want {
			t.Errorf("%s: Protected = %v; want %v", tt.name, got, tt.want)
		}
		if got := runtime.ProtectedUntil(tt.start, tt.d); !got.Equal(tt.wantUntil) || got.IsZero() != tt.wantUntil.IsZero() {
			t.Errorf("%s: ProtectedUntil = %v; want %v", tt.name, got, tt.wantUntil)
		}
	}
}

// TestProtectedMonotonicClock checks that a start carrying a monotonic
// reading (from time.Now) compares by that reading, as time.Time does.
func TestProtectedMonotonicClock(t *testing.T) {
	start := time.Now()
	if !protected(start, time.Hour, start) {
		t.Error("not protected at start")
	}
	if protected(start, time.Hour, start.Add(time.Hour)) {
		t.Error("protected at exactly start+d")
	}
}

// TestProtectedUntilSaturates: a job started just before the last instant
// a time.Time holds is protected until that instant, never until before
// it started (time.Time.Add loses the nanosecond carry there).
func TestProtectedUntilSaturates(t *testing.T) {
	for _, start := range []time.Time{clock.Last().Add(-time.Nanosecond), clock.Last().Add(-time.Minute), clock.Last()} {
		until := runtime.ProtectedUntil(start, time.Hour)
		if !until.Equal(clock.Last()) {
			t.Errorf("ProtectedUntil(%v, 1h) = %v, want the last instant", start, until)
		}
		if got, want := protected(start, time.Hour, start), start.Before(clock.Last()); got != want {
			t.Errorf("Protected at its own start %v = %v, want %v", start, got, want)
		}
	}
	if got := runtime.ProtectedUntil(clock.Last().Add(-2*time.Hour), time.Hour); !got.Equal(clock.Last().Add(-time.Hour)) {
		t.Errorf("a sum before the end = %v, want it exact", got)
	}
}

// protected is the rule every decision applies to ProtectedUntil's
// answer: protected while now < start+d, never when it is zero.
func protected(start time.Time, d time.Duration, now time.Time) bool {
	until := runtime.ProtectedUntil(start, d)
	return !until.IsZero() && now.Before(until)
}
