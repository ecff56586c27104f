package eligibility

import (
	"errors"
	"strconv"
	"time"
)

// This file is the one not-before codec: the expected-runtime nominator
// reads the gate with [ParseNotBefore] and the requeue engine writes it
// with [FormatNotBefore], under the one key [AnnotationRequeueNotBefore]
// (or a fork's key, expectedruntime.Keys.RequeueNotBefore). One time-zone rule
// holds on both sides: every instant is UTC.

// FormatNotBefore formats a not-before instant as the annotation value:
// RFC3339 in UTC with second precision. A fractional second is rounded up,
// so writing and reading back never shortens a cooldown:
// ParseNotBefore(FormatNotBefore(t)) is t when t is a whole second, else
// the next whole second. A year outside 0000..9999 cannot be written in
// RFC3339; such an instant formats to a string ParseNotBefore rejects.
func FormatNotBefore(t time.Time) string {
	return NotBeforeCeil(t).Format(time.RFC3339)
}

// NotBeforeCeil returns t in UTC rounded up to a whole second (t itself
// when it is one), without its monotonic clock reading: the instant
// [FormatNotBefore] writes.
func NotBeforeCeil(t time.Time) time.Time {
	t = t.UTC().Round(0)
	if t.Nanosecond() == 0 {
		return t
	}
	return t.Truncate(time.Second).Add(time.Second)
}

// ParseNotBefore parses a not-before annotation value written as RFC3339
// or RFC3339Nano, with any offset; the result is in UTC. An error is an
// [*AnnotationError] for [AnnotationRequeueNotBefore]; the nominator treats
// such a job as in cooldown (invalid_not_before), as KAI-Scheduler's
// expectedruntime plugin does.
func ParseNotBefore(s string) (time.Time, error) {
	return parseTimestamp(AnnotationRequeueNotBefore, s)
}

// errNotRFC3339 replaces time.Parse's error, whose message quotes Go's
// layout string rather than saying what is expected.
var errNotRFC3339 = errors.New("not an RFC3339 timestamp such as 2025-01-15T10:30:00Z")

// parseTimestamp is [ParseNotBefore] for any key: the one timestamp
// grammar of the package's annotations (requeue-not-before and
// last-checkpoint-time), RFC3339 or RFC3339Nano, any offset, the result in
// UTC.
func parseTimestamp(key, s string) (time.Time, error) {
	// The RFC3339Nano layout also accepts a value without fractional seconds.
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, &AnnotationError{Key: key, Value: s, Err: errNotRFC3339}
	}
	return t.UTC(), nil
}

// AnnotationRequeueNotBefore is the default key of the not-before gate
// (KAI-Scheduler's expectedruntime plugin, PR #941): the system-managed
// RFC3339 timestamp the requeue engine writes after a committed requeue
// and the expected-runtime nominator reads.
const AnnotationRequeueNotBefore = "kai.scheduler/requeue-not-before"

// AnnotationError describes an annotation whose value could not be used.
// The expected-runtime nominator puts it in its skips' Err (invalid_duration,
// invalid_not_before, invalid_last_checkpoint) and a nomination's RequeueDelayErr; use errors.As to get
// the key and the raw value. Its message is formatted only when Error is
// called.
type AnnotationError struct {
	Key   string // the annotation key
	Value string // the raw value
	// Err is the parser's error, nil when the value parsed but is out of
	// range (an expected-runtime <= 0).
	Err error
}

// Error implements error, for example `eligibility: annotation
// "kai.scheduler/expected-runtime": invalid value "0s": must be positive`.
func (e *AnnotationError) Error() string {
	msg := "eligibility: annotation " + strconv.Quote(e.Key) + ": invalid value " + strconv.Quote(e.Value) + ": "
	if e.Err == nil {
		return msg + "must be positive"
	}
	return msg + e.Err.Error()
}

// Unwrap returns the parser's error.
func (e *AnnotationError) Unwrap() error { return e.Err }
