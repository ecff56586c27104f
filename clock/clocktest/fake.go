// Package clocktest provides [Fake], a settable [clock.Clock] for tests:
// it starts at an instant the test chooses and moves only with [Fake.Set]
// or [Fake.Step].
package clocktest

import (
	"sync"
	"time"

	"github.com/tenurepolicy/tenure/clock"
)

// Fake is a manually driven clock. Create it with [New]; the zero value
// reports the zero time until Set is called. All methods are safe for
// concurrent use.
type Fake struct {
	mu  sync.Mutex
	now time.Time
}

var _ clock.Clock = (*Fake)(nil)

// New returns a Fake that reports start until it is moved.
func New(start time.Time) *Fake {
	return &Fake{now: start}
}

// Now returns the fake's current instant.
func (f *Fake) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

// Set moves the clock to t, which may be earlier than the current instant
// (useful to simulate clock skew).
func (f *Fake) Set(t time.Time) {
	f.mu.Lock()
	f.now = t
	f.mu.Unlock()
}

// Step moves the clock by d (negative d moves it back) and returns the new
// instant.
func (f *Fake) Step(d time.Duration) time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.now = f.now.Add(d)
	return f.now
}
