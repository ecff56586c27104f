package eligibility_test

import (
	"fmt"
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
)

// The not-before annotation is written in UTC at second precision, rounded
// up so that a cooldown is never shortened; both RFC3339 forms parse.
func ExampleFormatNotBefore() {
	t := time.Date(2025, 1, 15, 11, 30, 0, 250_000_000, time.FixedZone("CET", 3600))
	fmt.Println(eligibility.FormatNotBefore(t))
	back, _ := eligibility.ParseNotBefore("2025-01-15T10:30:00.25Z")
	fmt.Println(back)
	_, err := eligibility.ParseNotBefore("tomorrow")
	fmt.Println(err)
	// Output:
	// 2025-01-15T10:30:01Z
	// 2025-01-15 10:30:00.25 +0000 UTC
	// eligibility: annotation "kai.scheduler/requeue-not-before": invalid value "tomorrow": not an RFC3339 timestamp such as 2025-01-15T10:30:00Z
}
