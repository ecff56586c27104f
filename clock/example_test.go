package clock_test

import (
	"fmt"
	"time"

	"github.com/tenurepolicy/tenure/clock"
	"github.com/tenurepolicy/tenure/clock/clocktest"
)

// A scheduler reads its clock once per cycle and passes the instant down.
func ExampleClock() {
	var c clock.Clock = clocktest.New(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	now := c.Now() // read once per scheduling cycle
	fmt.Println(now.Format(time.RFC3339))
	// Output: 2026-03-01T12:00:00Z
}

func ExampleFunc() {
	fixed := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	c := clock.Func(func() time.Time { return fixed })
	fmt.Println(c.Now().Equal(fixed))
	// Output: true
}
