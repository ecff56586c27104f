package eligibility

import (
	"time"

	"github.com/tenurepolicy/tenure/clock"
)

// AnnotationRequeueNotBefore is the default key of the not-before gate
// (KAI-Scheduler's expectedruntime plugin, PR #941): the system-managed
// timestamp the requeue engine writes after a committed requeue and the
// expected-runtime nominator reads.
const AnnotationRequeueNotBefore = "kai.scheduler/requeue-not-before"

// FormatNotBefore formats a not-before instant as the annotation value:
// RFC3339 in UTC, a fractional second rounded up, so that reading it back
// (RFC3339 or RFC3339Nano, any offset) never shortens a cooldown. A year
// outside 0000..9999 formats to a value the nominator rejects.
func FormatNotBefore(t time.Time) string {
	return NotBeforeCeil(t).Format(time.RFC3339)
}

// NotBeforeCeil returns t in UTC rounded up to a whole second (t itself
// when it is one), without its monotonic clock reading: the instant
// [FormatNotBefore] writes, so that writing and reading back never shortens
// a cooldown. The requeue engine and the eviction budget report the
// instants they write with it. It saturates at clock.Last (which is not a
// whole second, and formats outside 0000..9999). O(1).
func NotBeforeCeil(t time.Time) time.Time {
	t = t.UTC().Round(0)
	if t.Nanosecond() == 0 {
		return t
	}
	return clock.AddSaturating(t.Truncate(time.Second), time.Second)
}
