package reserve

import (
	"cmp"
	"slices"
	"time"
)

// cand is a node a request may reserve, with when it can hold one task.
type cand struct {
	n    int32
	at   time.Duration // when the node has the units free
	end  int32         // the releases that must go first: rel[lo:end]
	loss float64       // the work they lose, at the planned start
}

// startOn is when node n can hold units for one task, and the end of the
// releases that must go first: now when it has them free, never when it
// cannot hold them even empty. O(jobs on n).
func (p *Planner) startOn(n int32, units int64) (time.Duration, int32) {
	nd := &p.nodes[n]
	if nd.bad || nd.capacity < units {
		return never, 0
	}
	free := nd.capacity - nd.used
	if free >= units {
		return 0, nd.lo
	}
	for i := nd.lo; i < nd.hi; i++ {
		r := &p.rel[i]
		if r.at == never {
			return never, 0
		}
		if free = addSat(free, r.units); free >= units {
			return r.at, i + 1
		}
	}
	return never, 0
}

// choice is a plan for one request: its nodes, its planned start and the
// work lost there.
type choice struct {
	nodes []int32
	at    time.Duration
	loss  float64
}

// startsFor returns every node's start for one task of units, earliest
// first (ties: name order), computed once per Plan and units.
// O(nodes·log(nodes) + jobs).
func (p *Planner) startsFor(units int64) []cand {
	if cs, ok := p.byUnits[units]; ok {
		return cs
	}
	cs := make([]cand, 0, len(p.nodes))
	for n := range p.nodes {
		if at, end := p.startOn(int32(n), units); at != never {
			cs = append(cs, cand{n: int32(n), at: at, end: end})
		}
	}
	slices.SortFunc(cs, func(a, b cand) int {
		if a.at != b.at {
			return cmp.Compare(a.at, b.at)
		}
		return cmp.Compare(p.nodes[a.n].name, p.nodes[b.n].name)
	})
	p.byUnits[units] = cs
	return cs
}

// choose plans request r over the nodes no other reservation holds (self:
// r's own reservation, or -1): the earliest planned start any set of
// r.Tasks nodes offers (of one domain with OneDomain), then the least work
// lost, then the lowest domain name and node name. ok is false when no set
// has a planned start. O(nodes) after startsFor.
func (p *Planner) choose(r *Request, self int32) (choice, bool) {
	cs := p.startsFor(r.Units)
	if r.Tasks > len(cs) {
		return choice{}, false // more tasks than nodes that could ever hold one
	}
	usable := func(c cand) bool {
		nd := &p.nodes[c.n]
		return (nd.owner < 0 || nd.owner == self) && (!r.OneDomain || nd.domain != "") && (p.cfg.Fits == nil || p.cfg.Fits(r, nd.name))
	}
	if !r.OneDomain {
		p.ready = p.ready[:0]
		at := never
		for _, c := range cs {
			if !usable(c) {
				continue
			}
			if len(p.ready) >= r.Tasks && c.at > at {
				break
			}
			if p.ready = append(p.ready, c); len(p.ready) == r.Tasks {
				at = c.at
			}
		}
		if len(p.ready) < r.Tasks {
			return choice{}, false
		}
		return p.pick(p.ready, r.Tasks, at), true
	}
	return p.chooseDomain(cs, r.Tasks, usable)
}

// chooseDomain is choose for a request of k tasks on one domain: the
// domains whose k-th usable node is ready first tie; of them the one that
// loses the least work, then the lowest name.
func (p *Planner) chooseDomain(cs []cand, k int, usable func(cand) bool) (choice, bool) {
	clear(p.domCount)
	at, walked := never, 0
	for i, c := range cs {
		if !usable(c) {
			continue
		}
		if c.at > at {
			break
		}
		walked = i + 1
		d := p.nodes[c.n].dom
		p.domCount[d]++
		if p.domCount[d] == int32(k) && at == never {
			at = c.at
		}
	}
	var best choice
	bestDom := int32(-1)
	for d, count := range p.domCount {
		if count < int32(k) {
			continue
		}
		p.ready = p.ready[:0]
		for _, c := range cs[:walked] {
			if usable(c) && p.nodes[c.n].dom == int32(d) {
				p.ready = append(p.ready, c)
			}
		}
		c := p.pick(p.ready, k, at)
		if bestDom < 0 || c.loss < best.loss || (c.loss == best.loss && p.domains[d] < p.domains[bestDom]) {
			best, bestDom = c, int32(d)
			best.nodes = slices.Clone(c.nodes)
		}
	}
	return best, bestDom >= 0
}

// pick chooses k of ready (usable nodes ready by at, in start then name
// order, at least k): the k that lose the least work at at, ties in
// ready's order. Its nodes alias p.picked. O(len(ready)·log(len(ready))).
func (p *Planner) pick(ready []cand, k int, at time.Duration) choice {
	for i := range ready {
		c := &ready[i]
		c.loss = 0
		for j := p.nodes[c.n].lo; j < c.end; j++ {
			c.loss += p.view.lossAt(p.rel[j], at)
		}
	}
	slices.SortStableFunc(ready, func(a, b cand) int { return cmp.Compare(a.loss, b.loss) })
	out := choice{at: at, nodes: p.picked[:0]}
	for _, c := range ready[:k] {
		out.nodes = append(out.nodes, c.n)
		out.loss += c.loss
	}
	p.picked = out.nodes
	return out
}
