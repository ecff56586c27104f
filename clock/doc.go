// Package clock is the one place tenure reads the time.
//
// Every policy function takes the current instant as a parameter (now
// time.Time), as golang.org/x/time/rate's AllowN(t, n) does: a scheduler
// reads its clock once per cycle and every decision of the cycle sees that
// instant. A [Clock] serves only entry points that read it once.
//
// [Func] adapts any func() time.Time: clock.Func(time.Now) is the wall
// clock (any type with a Now() time.Time method, k8s.io/utils/clock's
// included, is already a Clock). A test's settable clock is a Func over a
// variable:
//
//	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
//	clk := clock.Func(func() time.Time { return now })
//	now = now.Add(time.Minute) // the clock moves with the variable
//
// (guard the variable with a mutex or use an atomic.Pointer when other
// goroutines read the clock while the test moves it).
//
// time.Time.Add loses a nanosecond carry at the end of time.Time's range,
// so start+d can come out before start; tenure computes every time sum
// (the end of every protection, delay, window and backoff) with
// [AddSaturating], which stops at [Last]. It costs one comparison more
// than time.Time.Add for an instant more than the longest Duration (about
// 292 years) before Last, and a second addition only nearer. O(1).
package clock
