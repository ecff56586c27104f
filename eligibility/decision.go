package eligibility

import (
	"time"

	"github.com/tenurepolicy/tenure/runtime"
)

// Decision is the answer of the [MinRuntimeFilter] about one victim: whether
// it may be evicted now, why, and until when the answer holds.
//
// A Decision is a small value (no pointers to the inputs, no allocation);
// computing one never allocates. [Decision.String] formats it for humans and
// allocates only when called.
type Decision struct {
	// Allowed reports whether the eviction may proceed.
	Allowed bool
	// Reason explains Allowed; see [Reason] for the values the filter uses.
	Reason Reason
	// Until is the earliest instant at which the answer may change by the
	// passage of time alone: the protection expiry start + d for a denial
	// (the victim is evictable at exactly Until). It is the zero time when
	// time alone never changes the answer (every allowed decision).
	Until time.Time
	// Resolution is the min-runtime that applied: its duration, the queue
	// whose setting it came from (queuetree.None for the default), the
	// action and the method. It is filled for every decision, elastic
	// victims included.
	Resolution runtime.Resolution
}

// String describes d in one line, for logs and debugging, for example
// "denied (minruntime_protected) until 2025-01-15T10:30:00Z: reclaim
// min-runtime 10m from queue B (lca)". It allocates.
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
		b = d.Until.UTC().AppendFormat(b, time.RFC3339)
	}
	b = append(b, ": "...)
	b = append(b, d.Resolution.String()...)
	return string(b)
}
