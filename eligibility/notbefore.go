package eligibility

import (
	"time"

	"github.com/tenurepolicy/tenure/internal/notbefore"
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
	return notbefore.Ceil(t).Format(time.RFC3339)
}
