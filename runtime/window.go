package runtime

import (
	"time"

	"github.com/tenurepolicy/tenure/clock"
)

// ProtectedUntil returns start+d, the first instant at which a job that
// last started at start is no longer protected by a min-runtime d: it is
// protected while now.Before(until). It returns the zero Time when the job
// is never protected: d <= 0 or a zero start. A start after now (clock
// skew) protects until start+d. The sum saturates at clock.Last. O(1).
func ProtectedUntil(start time.Time, d time.Duration) time.Time {
	if d <= 0 || start.IsZero() {
		return time.Time{}
	}
	return clock.AddSaturating(start, d)
}
