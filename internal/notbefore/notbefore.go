// Package notbefore holds the rounding rule of the not-before gate, shared
// by package eligibility (which formats the annotation), the eviction budget
// and the requeue engine (which report the instant they write).
package notbefore

import "time"

// Ceil returns t in UTC rounded up to a whole second (t itself when it is
// one), without its monotonic clock reading: the instant
// eligibility.FormatNotBefore writes, so that writing and reading back
// never shortens a cooldown.
func Ceil(t time.Time) time.Time {
	t = t.UTC().Round(0)
	if t.Nanosecond() == 0 {
		return t
	}
	return t.Truncate(time.Second).Add(time.Second)
}
