// Package clock is the one place tenure reads the time.
//
// Every policy function in tenure takes the current instant as a parameter
// (`now time.Time`), in the style of golang.org/x/time/rate's AllowN(t, n):
// a scheduler reads the clock once per cycle and every decision of that cycle
// sees the same instant. No policy function takes a [Clock]: the package
// serves the embedder's side of that call (the root package's Example reads
// a Clock once and passes the instant down), and a convenience entry point
// that took a Clock would read it exactly once.
//
// # Implementations
//
//   - [Real] reads the wall clock ([time.Now]).
//   - [Func] adapts any func() time.Time, so a scheduler's own clock (for
//     example k8s.io/utils/clock's Clock, whose Now method already satisfies
//     [Clock]) or a closure can be passed without a wrapper type.
//   - [github.com/tenurepolicy/tenure/clock/clocktest.Fake] is a settable clock
//     for tests.
//
// Any type with a Now() time.Time method is a [Clock]; the interface has no
// other method on purpose, so that every clock the ecosystem already uses fits.
//
// # The end of time's range
//
// time.Time.Add loses a nanosecond carry at the very end of time.Time's
// range, so start+d computed with it can come out before start. tenure
// computes the end of every protection with [AddSaturating], which stops at
// [Last] instead; O(1), no allocation.
package clock
