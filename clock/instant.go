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
// it (where time.Time.Add would return an instant before t); for d <= 0
// it is t.Add(d). O(1), no allocation.
func AddSaturating(t time.Time, d time.Duration) time.Time {
	if d > 0 && t.After(last.Add(-d)) {
		return last
	}
	return t.Add(d)
}
