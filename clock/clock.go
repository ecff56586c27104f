package clock

import "time"

// Clock reports the current instant. Implementations must be safe for
// concurrent use. Now costs whatever the implementation's source costs; tenure
// calls it at most once per entry point.
type Clock interface {
	Now() time.Time
}

// Func adapts a function to [Clock]. A nil Func reports the zero time rather
// than panicking.
type Func func() time.Time

// Now calls f, or returns the zero time when f is nil.
func (f Func) Now() time.Time {
	if f == nil {
		return time.Time{}
	}
	return f()
}

var _ Clock = Func(nil)
