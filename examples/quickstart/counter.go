package main

import (
	"sync"

	"github.com/tenurepolicy/tenure/eligibility"
)

// counter is an in-memory eligibility.Observer that counts events by source
// and reason, as an embedder's metrics would.
type counter struct {
	mu     sync.Mutex
	counts map[[2]string]uint64
}

// Observe counts one event.
func (c *counter) Observe(e eligibility.Event) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.counts == nil {
		c.counts = make(map[[2]string]uint64)
	}
	c.counts[[2]string{e.Source, string(e.Reason)}]++
}

// Count returns how many events of source with reason were observed.
func (c *counter) Count(source string, reason eligibility.Reason) uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.counts[[2]string{source, string(reason)}]
}
