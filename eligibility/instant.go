package eligibility

import "time"

// lastInstant is the last instant a time.Time can hold: 999,999,999ns into
// the second math.MaxInt64 counted from January 1, year 1 (UTC). 62135596800
// is the number of seconds from then to the Unix epoch.
var lastInstant = time.Unix(1<<63-1-62135596800, 999_999_999).UTC()

// addSat returns t+d, or lastInstant when d > 0 and the sum lies beyond it.
// time.Time.Add saturates the seconds of a sum but not a nanosecond carry,
// so near the end of the range it returns an instant earlier than the true
// sum (t itself, or an earlier instant of the last second): a protection
// computed that way would end before it began. lastInstant - d is exact for
// d > 0, so the test is too. The Untils of the min-runtime filter, the
// scenario validator, the nominator, the admit protection, the preemptor
// delay and the time-based expiry are computed with it. (The eviction
// budget's instants come from RFC3339 records, years 0000 to 9999, and a
// Duration spans under 300 years, so its sums stay far from the end.)
// O(1), no allocation.
func addSat(t time.Time, d time.Duration) time.Time {
	if d > 0 && t.After(lastInstant.Add(-d)) {
		return lastInstant
	}
	return t.Add(d)
}

// protectedUntil is [runtime.ProtectedUntil] with the sum saturating at
// lastInstant (see addSat): start+d, or the zero time when d <= 0 or start
// is zero. O(1), no allocation.
func protectedUntil(start time.Time, d time.Duration) time.Time {
	if d <= 0 || start.IsZero() {
		return time.Time{}
	}
	return addSat(start, d)
}

// protected is [runtime.Protected] on protectedUntil: now < start+d, false
// for d <= 0 or a zero start. O(1), no allocation.
func protected(start time.Time, d time.Duration, now time.Time) bool {
	until := protectedUntil(start, d)
	return !until.IsZero() && now.Before(until)
}
