package runtime

import (
	"time"

	"github.com/tenurepolicy/tenure/clock"
)

// ProtectedUntil returns the instant a job that last started at start stops
// being protected by a min-runtime d: start+d, the first instant at which
// it is evictable. It returns the zero Time when the job is never
// protected: d <= 0 (0 means instantly evictable) or a zero start (no start
// time recorded). A start in the future (clock skew) is not special: the
// job stays protected until start+d. The sum saturates at the last
// instant a time.Time holds ([clock.AddSaturating]), so a job started near
// the end of time's range is protected until then, never until before its
// start.
//
// Cost: O(1), no allocation.
func ProtectedUntil(start time.Time, d time.Duration) time.Time {
	if d <= 0 || start.IsZero() {
		return time.Time{}
	}
	return clock.AddSaturating(start, d)
}
