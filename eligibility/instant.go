package eligibility

import (
	"time"

	"github.com/tenurepolicy/tenure/clock"
)

// addSat is [clock.AddSaturating]: t+d, saturating at the last instant a
// time.Time holds, so that no protection ends before it began. The Untils
// of the min-runtime filter, the scenario validator, the nominator, the
// admit protection, the preemptor delay and the time-based expiry are
// computed with it. (The eviction budget's instants come from RFC3339
// records, years 0000 to 9999, and a Duration spans under 300 years, so
// its sums stay far from the end.) O(1), no allocation.
func addSat(t time.Time, d time.Duration) time.Time { return clock.AddSaturating(t, d) }
