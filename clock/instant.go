package clock

import "time"

// last is the last instant a time.Time can hold: 999,999,999ns into the
// second math.MaxInt64 counted from January 1, year 1 (UTC); 62135596800
// is the number of seconds from then to the Unix epoch.
var last = time.Unix(1<<63-1-62135596800, 999_999_999).UTC()

// farUnix is a Unix second more than the longest time.Duration (about 292
// years) before [Last]: an instant t with t.Unix() < farUnix plus any
// Duration stays before Last, so the sum needs no saturation.
const farUnix = 1<<63 - 1 - 62135596800 - (1<<63-1)/int64(time.Second) - 1

// Last returns the last instant a time.Time can hold, where
// [AddSaturating] stops. O(1).
func Last() time.Time { return last }

// AddSaturating returns t+d, or [Last] when d > 0 and the sum lies beyond
// it (where time.Time.Add would return an instant before t); for d <= 0
// it is t.Add(d). O(1), no allocation: an instant more than the longest
// Duration before Last (every real clock reading) costs one comparison and
// one time.Time.Add; only one near Last takes the exact test, which costs
// a second addition.
func AddSaturating(t time.Time, d time.Duration) time.Time {
	if t.Unix() < farUnix {
		return t.Add(d)
	}
	return addNearLast(t, d)
}

// addNearLast is [AddSaturating]'s exact test, right for any t.
func addNearLast(t time.Time, d time.Duration) time.Time {
	if d > 0 && t.After(last.Add(-d)) {
		return last
	}
	return t.Add(d)
}
