package clock

import "time"

// last is the last instant a time.Time can hold: 999,999,999ns into the
// second math.MaxInt64 counted from January 1, year 1 (UTC); 62135596800
// is the number of seconds from then to the Unix epoch.
var last = time.Unix(1<<63-1-62135596800, 999_999_999).UTC()

// Last returns the last instant a time.Time can hold, where
// [AddSaturating] stops. O(1).
func Last() time.Time { return last }

// AddSaturating returns t+d, or [Last] when d > 0 and the sum lies beyond
// it. time.Time.Add saturates the seconds of a sum but not a nanosecond
// carry, so near the end of the range it returns an instant earlier than
// the true sum (t itself, or an earlier instant of the last second): a
// protection ending at start+d computed that way would end before it
// began. Last-d is exact for d > 0, so the test is too. For d <= 0 it is
// t.Add(d). tenure computes the end of every protection with it (and
// Kueue's reclaim re-stamp). O(1), no allocation.
func AddSaturating(t time.Time, d time.Duration) time.Time {
	if d > 0 && t.After(last.Add(-d)) {
		return last
	}
	return t.Add(d)
}
