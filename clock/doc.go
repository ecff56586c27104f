// Package clock is the one place tenure reads the time.
//
// Every policy function in tenure takes the current instant as a parameter
// (`now time.Time`), in the style of golang.org/x/time/rate's AllowN(t, n):
// a scheduler reads the clock once per cycle and every decision of that cycle
// sees the same instant. A [Clock] appears only in convenience entry points
// that read it once for you.
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
package clock
