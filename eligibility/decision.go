package eligibility

import "time"

// Decision is tenure's one decision shape: whether something may happen, why,
// and until when the answer holds. Every decision in tenure is a Decision or
// embeds one: minruntime's Decision and ScenarioDecision, timebased's
// Decision, the expected-runtime nominator's Skip and Outcome, and the
// requeue engine's outcomes and victim-filter answers.
//
// A Decision is a small value (no pointers to the inputs); computing one
// never allocates. [Decision.String] formats it for humans and allocates only
// when called.
type Decision struct {
	// Allowed reports whether the thing asked about may proceed (the
	// eviction, the scenario, the nomination, the preemption).
	Allowed bool
	// Reason explains Allowed with a stable label.
	Reason Reason
	// Until is the earliest instant at which the decision — Allowed or its
	// Reason — may change by the passage of time alone, such as a
	// protection expiry (the victim is evictable at exactly Until), a
	// cooldown end or a min-admit expiry. It is the zero time when time
	// alone never changes the decision. The same rule holds for every
	// decision in tenure, allowed ones included (an elastic victim allowed
	// with elastic_deferred has the Until at which its reason becomes
	// not_protected). A
	// scheduler sleeps until the [Earliest] Until of its decisions instead
	// of polling.
	Until time.Time
}

// String describes d in one line, for logs and debugging, for example
// "denied (minruntime_protected) until 2025-01-15T10:30:00Z". It allocates.
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

// Earliest returns the earliest non-zero instant among ts, or the zero time
// when all are zero: the wake-up time of a set of decisions' Until values.
// Instants are compared as time.Time.Before does (monotonic readings
// included when both have one). Cost O(len(ts)); no allocation.
func Earliest(ts ...time.Time) time.Time {
	var e time.Time
	for _, t := range ts {
		if !t.IsZero() && (e.IsZero() || t.Before(e)) {
			e = t
		}
	}
	return e
}
