package requeue_test

import (
	"cmp"
	"slices"
	"strconv"
	"sync"

	"github.com/tenurepolicy/tenure/eligibility"
)

// counter is an in-memory eligibility.Observer that counts events by source
// and reason, the way an embedder maps them to a metric; safe for
// concurrent use.
type counter struct {
	mu     sync.Mutex
	counts map[counterKey]uint64
}

type counterKey struct {
	source string
	reason eligibility.Reason
}

// Observe counts one event.
func (c *counter) Observe(e eligibility.Event) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.counts == nil {
		c.counts = make(map[counterKey]uint64)
	}
	c.counts[counterKey{e.Source, e.Reason}]++
}

// Count returns how many events of source with reason were observed.
func (c *counter) Count(source string, reason eligibility.Reason) uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.counts[counterKey{source, reason}]
}

// sample is one non-zero count: the value of
// tenure_decisions_total{source, reason}.
type sample struct {
	Source string
	Reason eligibility.Reason
	Value  uint64
}

// String formats s as a Prometheus text sample (the label values are
// plain labels here, so nothing needs escaping).
func (s sample) String() string {
	return "tenure_decisions_total{source=" + strconv.Quote(s.Source) + ",reason=" + strconv.Quote(string(s.Reason)) + "} " + strconv.FormatUint(s.Value, 10)
}

// Samples returns every non-zero count, sorted by source and reason.
func (c *counter) Samples() []sample {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]sample, 0, len(c.counts))
	for k, v := range c.counts {
		out = append(out, sample{k.source, k.reason, v})
	}
	slices.SortFunc(out, func(a, b sample) int {
		return cmp.Or(cmp.Compare(a.Source, b.Source), cmp.Compare(a.Reason, b.Reason))
	})
	return out
}

// validLabel reports whether r is a well-formed reason label, as the
// Reason type documents it: 1 to 64 characters, each a lower-case ASCII
// letter, a digit or '_', starting with a letter.
func validLabel(r eligibility.Reason) bool {
	if len(r) == 0 || len(r) > 64 || r[0] < 'a' || r[0] > 'z' {
		return false
	}
	for i := 1; i < len(r); i++ {
		if c := r[i]; (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '_' {
			return false
		}
	}
	return true
}
