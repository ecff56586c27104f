package clocktest_test

import (
	"fmt"
	"time"

	"github.com/tenurepolicy/tenure/clock/clocktest"
)

func ExampleFake_Step() {
	f := clocktest.New(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	f.Step(90 * time.Minute)
	fmt.Println(f.Now().Format(time.Kitchen))
	// Output: 1:30PM
}

func ExampleFake_Set() {
	f := clocktest.New(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	f.Set(time.Date(2026, 3, 1, 11, 0, 0, 0, time.UTC)) // a clock may be moved back to simulate skew
	fmt.Println(f.Now().Format(time.Kitchen))
	// Output: 11:00AM
}
