package backoff

import (
	"math"
	"time"
)

// State is a job's requeue bookkeeping under a [Config]
// (Kueue's workload status requeueState): how many times it has been
// requeued after a readiness timeout, and the instant it may next be
// admitted. The embedder persists it with the job (for example in its status)
// and passes it back; tenure never keeps it.
//
// The zero State is a job that was never requeued: Count 0, admissible
// at once. All methods are pure functions of their arguments: they return a
// new state and never modify the receiver.
//
// Transitions:
//
//   - readiness timeout: [State.Timeout] — requeue with a longer
//     delay, or deactivate once the limit is reached;
//   - any deactivation (by Timeout or by the embedder, e.g. a user setting
//     the job inactive): the state resets to the zero State, so a
//     reactivated job starts again from zero.
//
// KEP-1282 differs in two details: Kueue leaves requeueState untouched at
// the deactivation itself and clears it when a job deactivated by the
// limit is reactivated, and it keeps the state of a job deactivated by
// other means (a user). tenure clears it at every deactivation; for a job
// deactivated by the limit the observable result on reactivation is the
// same.
type State struct {
	// Count is the number of requeues so far (Kueue: requeueState.count).
	Count int
	// RequeueAt is the earliest instant the job may be admitted again
	// (Kueue: requeueState.requeueAt). The zero time means "no restriction".
	RequeueAt time.Time
}

// Admissible reports whether the job may be admitted at now:
// now >= RequeueAt, so it is admissible at exactly RequeueAt (as in Kueue).
// When it is not, until is RequeueAt, the instant the answer flips; when it
// is, until is the zero time (the answer does not change with time alone).
// Cost: O(1), no allocation.
func (s State) Admissible(now time.Time) (ok bool, until time.Time) {
	if now.Before(s.RequeueAt) {
		return false, s.RequeueAt
	}
	return true, time.Time{}
}

// Timeout returns the state after the job was evicted at now because it did
// not become ready in time, and whether the job must be deactivated instead
// of requeued. u is the jitter draw in [0, 1) (see
// [Config.Delay]; pass 0 for none).
//
//   - If c.Limit is set and s.Count >= *c.Limit, the job is deactivated:
//     deactivated is true and the returned state is the zero state (the
//     deactivation resets it). The count is
//     not incremented: with limit L the job is requeued exactly L times and
//     the (L+1)-th timeout deactivates it; limit 0 deactivates on the first.
//   - Otherwise Count grows by one (saturating at math.MaxInt) and
//     RequeueAt becomes now + c.Delay(Count+1, u), unless the old
//     RequeueAt is later: RequeueAt never moves earlier.
//
// Cost: O(1), no allocation.
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
	at := now.Add(c.Delay(n, u))
	if at.Before(s.RequeueAt) {
		at = s.RequeueAt
	}
	return State{Count: n, RequeueAt: at}, false
}
