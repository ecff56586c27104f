package backoff

import (
	"math"
	"time"

	"github.com/tenurepolicy/tenure/clock"
)

// State is a job's requeue bookkeeping (Kueue's requeueState), which the
// embedder persists with the job and passes back. The zero State is a job
// never requeued. Methods return a new state and never modify the receiver.
// Every deactivation resets the state to zero, so a reactivated job starts
// over (Kueue instead clears it on reactivation after the limit, with the
// same result, and keeps it when a user deactivates the job).
type State struct {
	// Count is the number of requeues so far.
	Count int
	// RequeueAt is the earliest instant of the next admission: the job is
	// admissible at now when !now.Before(RequeueAt), at exactly RequeueAt
	// included; zero means none.
	RequeueAt time.Time
}

// Timeout returns the state after a readiness-timeout eviction at now,
// with draw u (see [Config.Delay]). If c.Limit is set and s.Count >=
// *c.Limit the job is deactivated: deactivated is true and next the zero
// State (limit L: requeued exactly L times). Otherwise Count grows by one
// (saturating) and RequeueAt becomes max(RequeueAt, now + c.Delay(n, u))
// for the new count n: never earlier, and never before now (the sum
// saturates at clock.Last). O(1), no allocation.
func (s State) Timeout(c Config, now time.Time, u float64) (next State, deactivated bool) {
	if c.Limit != nil && s.Count >= *c.Limit {
		return State{}, true
	}
	n := s.Count
	if n < math.MaxInt {
		n++
	}
	if n < 1 { // a negative Count from bad data restarts at the first requeue
		n = 1
	}
	at := clock.AddSaturating(now, c.Delay(n, u))
	if at.Before(s.RequeueAt) {
		at = s.RequeueAt
	}
	return State{Count: n, RequeueAt: at}, false
}
