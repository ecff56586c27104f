package requeue

import (
	"fmt"
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
)

// NotBeforeAnnotation is KAI-Scheduler's system-managed annotation key
// (expectedruntime plugin, PR #941) holding the not-before gate the engine computes for a committed victim
// ([Outcome.Annotation] is its value). It is the same key the expected-runtime
// nominator reads by default ([eligibility.AnnotationRequeueNotBefore]); forks
// with another prefix write under their [eligibility.AnnotationKeys] instead.
const NotBeforeAnnotation = eligibility.AnnotationRequeueNotBefore

// FormatNotBefore formats a not-before instant as the annotation value:
// RFC3339 in UTC with second precision. A fractional second is rounded UP,
// so that writing and reading back the annotation never shortens a cooldown:
// ParseNotBefore(FormatNotBefore(t)) is t itself when t is a whole second,
// else the next whole second. Years outside 0000..9999 cannot be written in
// RFC3339; such an instant formats to a string ParseNotBefore rejects (the
// engine never produces one: it skips the victim with
// [ReasonInvalidDelay]). No allocation beyond the result.
func FormatNotBefore(t time.Time) string {
	return NotBeforeCeil(t).Format(time.RFC3339)
}

// NotBeforeCeil returns t in UTC rounded up to a whole second (t itself when
// it is one), without its monotonic clock reading.
func NotBeforeCeil(t time.Time) time.Time {
	t = t.UTC().Round(0)
	if t.Nanosecond() == 0 {
		return t
	}
	return t.Truncate(time.Second).Add(time.Second)
}

// ParseNotBefore parses a not-before annotation value written as RFC3339 or
// RFC3339Nano (any offset; the result is in UTC). Errors start with
// "requeue:" and quote the value. Callers treat an unparsable value as a
// cooldown (KAI's expectedruntime plugin skips such a job conservatively: invalid_not_before).
func ParseNotBefore(s string) (time.Time, error) {
	// The RFC3339Nano layout also accepts a value without fractional seconds.
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("requeue: invalid not-before %q: want RFC3339 such as 2025-01-15T10:30:00Z", s)
	}
	return t.UTC(), nil
}
