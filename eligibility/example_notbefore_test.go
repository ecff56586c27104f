package eligibility_test

import (
	"fmt"
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
)

// The not-before annotation is written in UTC at second precision, rounded
// up so that a cooldown is never shortened.
func ExampleFormatNotBefore() {
	t := time.Date(2025, 1, 15, 11, 30, 0, 250_000_000, time.FixedZone("CET", 3600))
	fmt.Println(eligibility.FormatNotBefore(t))
	// Output:
	// 2025-01-15T10:30:01Z
}
