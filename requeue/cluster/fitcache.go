package cluster

import "fmt"

// The Model's memory of failed requests. First fit over the segment tree
// finds a fitting node in O(log nodes) when one resource is the
// constraint, but a request whose per-resource maxima fit while no single
// node does (a fragmented cluster: free GPUs on some nodes, free cores on
// others) makes it search the whole tree, O(nodes), and the engine makes
// such an attempt again for every victim it tries.
//
// The cache remembers, for a request that fitted no node, the position in
// a log of the nodes whose free resources have grown since: a node's free
// resources only grow when a task leaves it (a release, an eviction, the
// undo of a placement), and each such node is appended to the log. A
// request that fitted no node when the log had p entries fits no node
// today except, possibly, the nodes logged from p on: first fit is the
// lowest of those that now hold it, found without the tree. Checking them
// all and finding none moves the request's position to the end of the
// log. Rollbacks need no special care: whatever the history, a node that
// is not in the log since p has no more free resources than at p.
//
// Cost: O(1) plus the nodes logged since the request's last check (at most
// fitCacheScan(nodes), beyond which the tree is searched again); no
// allocation once the log has its working size. Memory: fitCacheSize
// entries and at most fitLogLimit logged nodes, whatever the history.

const (
	fitCacheSize = 64      // entries, a power of two
	fitLogLimit  = 1 << 14 // logged nodes before the log (and the cache) starts over
)

// fitCache is the memory of failed requests of one Model.
type fitCache struct {
	entries [fitCacheSize]noFit
	grown   []int32 // nodes whose free resources grew, oldest first
	// epoch numbers the log's lives: an entry of another epoch is empty;
	// live counts the entries of this epoch.
	epoch uint32
	live  int
}

// noFit says that req fitted no node when the log had pos entries.
type noFit struct {
	req   Resources
	epoch uint32
	pos   int32
}

// fitCacheScan is how many logged nodes a lookup checks before it prefers
// searching the tree: an eighth of the nodes, at least 64.
func fitCacheScan(nodes int) int { return max(64, nodes/8) }

func (r Resources) hash() uint64 {
	h := uint64(r.MilliCPU)*0x9E3779B97F4A7C15 ^ uint64(r.Memory)*0xC2B2AE3D27D4EB4F ^ uint64(r.GPU)*0x165667B19E3779F9
	return h ^ h>>29
}

// findFit returns the lowest node index whose free resources hold req, or
// -1: first fit, with the memory of failed requests.
func (c *Model) findFit(req Resources) int {
	if !req.Fits(c.tree[1]) {
		return -1 // the per-resource maxima rule it out: O(1)
	}
	if c.fitCacheOff {
		return c.firstFit(req, 1)
	}
	f := c.fits
	if f == nil {
		c.searches++
		n := c.firstFit(req, 1)
		if n < 0 { // the first request that fits no node: remember from now on
			c.fits = &fitCache{epoch: 1}
			c.fits.remember(req)
		}
		return n
	}
	e := &f.entries[req.hash()&(fitCacheSize-1)]
	if e.epoch == f.epoch && e.req == req && len(f.grown)-int(e.pos) <= fitCacheScan(len(c.nodes)) {
		best := int32(-1)
		for _, n := range f.grown[e.pos:] {
			if (best < 0 || n < best) && req.Fits(c.nodes[n].free) {
				best = n
			}
		}
		if best >= 0 {
			return int(best) // the others still fit no node
		}
		e.pos = int32(len(f.grown))
		return -1
	}
	c.searches++
	n := c.firstFit(req, 1)
	if n < 0 {
		f.remember(req)
	}
	return n
}

// remember records that req fits no node now.
func (f *fitCache) remember(req Resources) {
	e := &f.entries[req.hash()&(fitCacheSize-1)]
	if e.epoch != f.epoch {
		f.live++
	}
	*e = noFit{req: req, epoch: f.epoch, pos: int32(len(f.grown))}
}

// grew logs that node n's free resources grew, while some request is
// remembered.
func (c *Model) grew(n int32) {
	f := c.fits
	if f == nil || f.live == 0 {
		return
	}
	if len(f.grown) == fitLogLimit {
		f.grown = f.grown[:0]
		f.epoch++ // every entry is forgotten
		f.live = 0
		return
	}
	f.grown = append(f.grown, n)
}

// checkFitCache verifies the cache's invariant: a request it holds fits no
// node but the ones logged since its position. Tests call it (through
// check) after every step.
func (c *Model) checkFitCache() error {
	f := c.fits
	if f == nil {
		return nil
	}
	if len(f.grown) > fitLogLimit {
		return fmt.Errorf("fit cache: %d logged nodes, limit %d", len(f.grown), fitLogLimit)
	}
	live := 0
	for _, e := range f.entries {
		if e.epoch != f.epoch {
			continue
		}
		live++
		if int(e.pos) > len(f.grown) {
			return fmt.Errorf("fit cache: %v at %d of %d logged nodes", e.req, e.pos, len(f.grown))
		}
		logged := map[int32]bool{}
		for _, n := range f.grown[e.pos:] {
			logged[n] = true
		}
		for i := range c.nodes {
			if !logged[int32(i)] && e.req.Fits(c.nodes[i].free) {
				return fmt.Errorf("fit cache: %v is remembered as fitting no node, but fits node %q, not logged since", e.req, c.nodes[i].name)
			}
		}
	}
	if live != f.live {
		return fmt.Errorf("fit cache: %d live entries, counted %d", live, f.live)
	}
	return nil
}
