package cluster

// The Model's first fit: its [Index] of free vectors and its [FitMemory]
// of requests that fitted no node (made on the first such request; Clone
// starts without it).

// freeVec is a node's free vector as the summary of the Model's Index:
// ranges merge by the component-wise maximum, and a range admits a
// request that fits its maximum (exactly the requests a single node
// holds).
type freeVec Resources

// Merge returns the component-wise maximum of f and o.
func (f freeVec) Merge(o freeVec) freeVec { return freeVec(Resources(f).Max(Resources(o))) }

// Admits reports whether r fits the vector f.
func (f freeVec) Admits(r Resources) bool { return r.Fits(Resources(f)) }

func (r Resources) hash() uint64 {
	h := uint64(r.MilliCPU)*0x9E3779B97F4A7C15 ^ uint64(r.Memory)*0xC2B2AE3D27D4EB4F ^ uint64(r.GPU)*0x165667B19E3779F9
	return h ^ h>>29
}

// findFit returns the lowest node index whose free resources hold req, or
// -1: first fit, with the memory of failed requests.
func (c *Model) findFit(req Resources) int {
	if !req.Fits(Resources(c.index.Root())) {
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
			c.fits = NewFitMemory[Resources](len(c.nodes))
			c.fits.Remember(req, req.hash())
		}
		return n
	}
	h := req.hash()
	if since, ok := f.Recall(req, h); ok {
		best := int32(-1)
		for _, n := range since {
			if (best < 0 || n < best) && req.Fits(c.nodes[n].free) {
				best = n
			}
		}
		if best >= 0 {
			return int(best) // the others still fit no node
		}
		f.Remember(req, h)
		return -1
	}
	c.searches++
	n := c.index.Next(0, req)
	if n < 0 {
		f.Remember(req, h)
	}
	return n
}

// update refreshes node n's leaf after a change of its free resources.
func (c *Model) update(n int32) {
	c.index.Set(int(n), freeVec(c.nodes[n].free))
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
	return c.fits.Check(len(c.nodes), func(req Resources, i int) bool { return req.Fits(c.nodes[i].free) })
}
