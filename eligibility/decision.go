package eligibility

import "time"

// Decision is tenure's one decision shape: whether something may happen,
// why, and until when the answer holds. It is a small value; computing one
// never allocates.
type Decision struct {
	// Allowed reports whether the thing asked about may proceed.
	Allowed bool
	// Reason explains Allowed with a stable label.
	Reason Reason
	// Until is the earliest instant at which the decision (Allowed or
	// Reason) may change by the passage of time alone, such as a
	// protection's expiry (evictable at exactly Until); zero when time
	// alone never changes it.
	Until time.Time
}

// String describes d for logs, for example "denied (minruntime_protected)
// until 2025-01-15T10:30:00Z". It allocates.
func (d Decision) String() string {
	var b []byte
	if d.Allowed {
		b = append(b, "allowed ("...)
	} else {
		b = append(b, "denied ("...)
	}
	b = append(b, d.Reason.String()...)
	b = append(b, ')')
	if !d.Until.IsZero() {
		b = append(b, " until "...)
		b = d.Until.UTC().AppendFormat(b, time.RFC3339Nano)
	}
	return string(b)
}

// Earliest returns the earliest non-zero instant among ts, or the zero
// time: the wake-up time of a set of Until values. O(len(ts)).
func Earliest(ts ...time.Time) time.Time {
	var e time.Time
	for _, t := range ts {
		if !t.IsZero() && (e.IsZero() || t.Before(e)) {
			e = t
		}
	}
	return e
}
