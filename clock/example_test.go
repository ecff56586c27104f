package clock_test

import (
	"fmt"
	"time"

	"github.com/tenurepolicy/tenure/clock"
)

// A scheduler reads its clock once per cycle and passes the instant down.
func ExampleClock() {
	var c clock.Clock = clock.Func(time.Now) // the wall clock
	now := c.Now()                           // read once per scheduling cycle
	fmt.Println(!now.IsZero())
	// Output: true
}

func ExampleFunc() {
	fixed := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	c := clock.Func(func() time.Time { return fixed })
	fmt.Println(c.Now().Equal(fixed))
	// Output: true
}

// A test's settable clock: a Func over a variable the test moves.
func ExampleFunc_settable() {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	clk := clock.Func(func() time.Time { return now })
	now = now.Add(90 * time.Second)
	fmt.Println(clk.Now().Format(time.RFC3339))
	// Output: 2026-03-01T12:01:30Z
}
