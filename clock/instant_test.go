package clock_test

import (
	"testing"
	"time"

	"github.com/tenurepolicy/tenure/clock"
)

// TestAddSaturating: sums up to Last are exact, sums beyond it are Last
// (where time.Time.Add loses the carry), and other sums are Add's.
func TestAddSaturating(t *testing.T) {
	if got := clock.Last().Add(time.Nanosecond); !got.Before(clock.Last()) {
		t.Fatalf("time.Time.Add past Last = %v: the wrap this guards against is gone", got)
	}
	for _, tc := range []struct {
		t    time.Time
		d    time.Duration
		want time.Time
	}{
		{clock.Last(), time.Nanosecond, clock.Last()},
		{clock.Last().Add(-time.Nanosecond), time.Hour, clock.Last()},
		{clock.Last().Add(-time.Hour), time.Hour, clock.Last()},
		{clock.Last().Add(-time.Hour - 1), time.Hour, clock.Last().Add(-1)},
		{clock.Last().Add(-time.Second / 2), time.Millisecond, clock.Last().Add(-time.Second/2 + time.Millisecond)},
		{clock.Last(), -time.Hour, clock.Last().Add(-time.Hour)},
		{clock.Last(), -time.Nanosecond, clock.Last().Add(-time.Nanosecond)},
		{clock.Last(), 0, clock.Last()},
		{time.Time{}, time.Hour, time.Time{}.Add(time.Hour)},
	} {
		if got := clock.AddSaturating(tc.t, tc.d); !got.Equal(tc.want) {
			t.Errorf("AddSaturating(%v, %v) = %v, want %v", tc.t, tc.d, got, tc.want)
		}
	}
}
