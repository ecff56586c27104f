package requeue

import (
	"cmp"
	"slices"
	"sync"
)

// ObserverCounter is an in-memory [Observer] counting outcomes by kind and
// reason (commits, keeps, skips by reason, deferrals) and rolled-back
// attempts; an embedder copies the counts into its metrics. The zero value is
// ready; it is safe for concurrent use. Counting allocates only the first
// time a (kind, reason) pair is seen.
type ObserverCounter struct {
	mu        sync.Mutex
	outcomes  map[observerKey]uint64
	rollbacks uint64
}

type observerKey struct {
	kind   OutcomeKind
	reason OutcomeReason
}

var _ Observer = (*ObserverCounter)(nil)

// ObserveOutcome counts one outcome.
func (c *ObserverCounter) ObserveOutcome(o Outcome) {
	c.mu.Lock()
	if c.outcomes == nil {
		c.outcomes = make(map[observerKey]uint64)
	}
	c.outcomes[observerKey{o.Kind, o.Reason}]++
	c.mu.Unlock()
}

// ObserveRollback counts one rolled-back attempt.
func (c *ObserverCounter) ObserveRollback(victim, contender string) {
	c.mu.Lock()
	c.rollbacks++
	c.mu.Unlock()
}

// Outcomes returns how many outcomes of that kind and reason were observed.
func (c *ObserverCounter) Outcomes(kind OutcomeKind, reason OutcomeReason) uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.outcomes[observerKey{kind, reason}]
}

// Rollbacks returns how many attempts were rolled back.
func (c *ObserverCounter) Rollbacks() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.rollbacks
}

// ObserverSample is one non-zero outcome count of an [ObserverCounter].
type ObserverSample struct {
	Kind   OutcomeKind   // the outcomes' kind
	Reason OutcomeReason // the outcomes' reason
	Value  uint64        // how many were observed
}

// Samples returns every non-zero outcome count, sorted by kind and reason.
func (c *ObserverCounter) Samples() []ObserverSample {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]ObserverSample, 0, len(c.outcomes))
	for k, v := range c.outcomes {
		out = append(out, ObserverSample{k.kind, k.reason, v})
	}
	slices.SortFunc(out, func(a, b ObserverSample) int {
		return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Reason, b.Reason))
	})
	return out
}
