// Package notbefore rounds the not-before instants tenure writes:
// eligibility.FormatNotBefore formats them, and the requeue engine and the
// eviction budget report them, so that writing and reading back never
// shortens a cooldown.
package notbefore

import (
	"time"

	"github.com/tenurepolicy/tenure/clock"
)

// Ceil returns t in UTC rounded up to a whole second (t itself when it is
// one), without its monotonic clock reading: the instant
// eligibility.FormatNotBefore writes. It saturates at clock.Last (which is
// not a whole second, and formats outside 0000..9999). O(1).
func Ceil(t time.Time) time.Time {
	t = t.UTC().Round(0)
	if t.Nanosecond() == 0 {
		return t
	}
	return clock.AddSaturating(t.Truncate(time.Second), time.Second)
}
