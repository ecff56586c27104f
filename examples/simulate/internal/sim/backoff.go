package sim

import (
	"math/rand/v2"
	"time"

	"github.com/tenurepolicy/tenure/requeue/backoff"
)

// readinessBackoff is Kueue's requeuing strategy after failed starts
// (KEP-1282), with Kueue's default backoff (60s base, 1h cap, no limit):
// a job whose start failed (it did not become ready within
// trace.ReadinessTimeout) moves its backoff.State with State.Timeout — an
// exponentially growing delay with jitter, or deactivation after the
// limit — and is not admitted again before its State's RequeueAt. Its queue-order timestamp becomes
// the eviction time (QueueOrder with TimestampEviction), so it queues
// behind the jobs of its priority that waited meanwhile.
//
// The jitter's random draws come from a source seeded with the run's seed,
// so runs stay deterministic.
type readinessBackoff struct {
	order  backoff.QueueOrder
	states []backoff.State
	rnd    *rand.Rand
}

func newBackoff(jobs int, seed int64) *readinessBackoff {
	return &readinessBackoff{
		order:  backoff.QueueOrder{Strategy: backoff.TimestampEviction},
		states: make([]backoff.State, jobs),
		rnd:    rand.New(rand.NewPCG(uint64(seed), 0xbac0ff)),
	}
}

// timedOut handles job id's failed start (the job is waiting, in
// statusBackoff): deactivation, or a wait until the library admits it.
func (b *readinessBackoff) timedOut(s *sim, id int32) {
	st := &s.st[id]
	next, deactivated := b.states[id].Timeout(backoff.Config{}, s.nowT, b.rnd.Float64())
	b.states[id] = next
	if deactivated {
		st.status = statusDeactivated
		s.leavePending(id)
		return
	}
	j := &s.jobs[id]
	ts := b.order.Timestamp(backoff.QueueEntry{ID: j.Name, Priority: j.Priority(), Created: at(j.Arrival), TimeoutEvicted: s.nowT})
	s.setQueueTS(id, int64(ts.Sub(simEpoch)/time.Second))
	b.admit(s, id)
}

// admit queues job id once its backoff.State's RequeueAt is reached, or
// waits until then.
func (b *readinessBackoff) admit(s *sim, id int32) {
	if until := b.states[id].RequeueAt; s.nowT.Before(until) {
		s.push(event{t: secCeil(until), kind: evAdmit, job: id, epoch: s.st[id].epoch})
		return
	}
	s.addPending(id)
	s.wakeAt(s.now)
}
