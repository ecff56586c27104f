package cluster

// The Model's first fit: its freeIndex of free vectors and its fitMemory
// of requests that fitted no node (made on the first such request; Clone
// starts without it).

// findFit returns the lowest node index whose free resources hold req, or
// -1: first fit, with the memory of failed requests.
func (c *Model) findFit(req Resources) int {
	if !req.fits(c.index.Root()) {
		return -1 // the per-resource maxima rule it out: O(1)
	}
	if c.fitCacheOff {
		return c.index.Next(0, req)
	}
	f := c.fits
	if f == nil {
		c.searches++
		n := c.index.Next(0, req)
		if n < 0 { // the first request that fits no node: remember from now on
			c.fits = newFitMemory(len(c.nodes))
			c.fits.Remember(req)
		}
		return n
	}
	if since, ok := f.Recall(req); ok {
		best := int32(-1)
		for _, n := range since {
			if (best < 0 || n < best) && req.fits(c.nodes[n].free) {
				best = n
			}
		}
		if best >= 0 {
			return int(best) // the others still fit no node
		}
		f.Remember(req)
		return -1
	}
	c.searches++
	n := c.index.Next(0, req)
	if n < 0 {
		f.Remember(req)
	}
	return n
}

// update refreshes node n's leaf after a change of its free resources.
func (c *Model) update(n int32) {
	c.index.Set(int(n), c.nodes[n].free)
}

// grew logs that node n's free resources grew.
func (c *Model) grew(n int32) {
	if c.fits != nil {
		c.fits.Grew(n)
	}
}

// checkFitCache verifies the memory's invariant: a request it holds fits
// no node but the ones logged since. Tests call it (through Check) after
// every step.
func (c *Model) checkFitCache() error {
	if c.fits == nil {
		return nil
	}
	return c.fits.Check(len(c.nodes), func(req Resources, i int) bool { return req.fits(c.nodes[i].free) })
}

// largestFree returns the component-wise maximum of the nodes' free
// resources ({-1, -1, -1} without nodes: nothing fits it). O(1).
func (c *Model) largestFree() Resources { return c.index.Root() }
