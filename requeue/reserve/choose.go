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

// choose plans request r over the nodes no other reservation holds (self:
// r's own reservation, or -1): the earliest planned start any set of
// r.Tasks nodes offers (of one domain with OneDomain), then the least work
// lost, then the lowest domain name and node order. ok is false when no
// set has a planned start. O(nodes·log(nodes) + jobs).
func (p *Planner) choose(r *Request, self int32) (choice, bool) {
	p.cands = p.cands[:0]
	for n := range p.nodes {
		nd := &p.nodes[n]
		if (nd.owner >= 0 && nd.owner != self) || (r.OneDomain && nd.domain == "") {
			continue
		}
		if at, end := p.startOn(int32(n), r.Units); at != never {
			p.cands = append(p.cands, cand{n: int32(n), at: at, end: end})
		}
	}
	if !r.OneDomain {
		return p.pick(p.cands, r.Tasks)
	}
	slices.SortFunc(p.cands, func(a, b cand) int { return cmp.Compare(p.nodes[a.n].domain, p.nodes[b.n].domain) })
	var best choice
	found := false
	for lo := 0; lo < len(p.cands); {
		hi := lo + 1
		for hi < len(p.cands) && p.nodes[p.cands[hi].n].domain == p.nodes[p.cands[lo].n].domain {
			hi++
		}
		if c, ok := p.pick(p.cands[lo:hi], r.Tasks); ok && (!found || c.at < best.at || (c.at == best.at && c.loss < best.loss)) {
			best, found = c, true
			best.nodes = slices.Clone(c.nodes)
		}
		lo = hi
	}
	return best, found
}

// pick chooses k of cs: the planned start is the k-th earliest of their
// starts; of the nodes ready by then, the k that lose the least work
// there (ties: the earlier, then node order). Its nodes alias p.picked.
func (p *Planner) pick(cs []cand, k int) (choice, bool) {
	if k < 1 || len(cs) < k {
		return choice{}, false
	}
	slices.SortFunc(cs, func(a, b cand) int {
		return cmp.Or(cmp.Compare(a.at, b.at), cmp.Compare(p.nodes[a.n].name, p.nodes[b.n].name))
	})
	at := cs[k-1].at
	ready := k
	for ready < len(cs) && cs[ready].at <= at {
		ready++
	}
	for i := range cs[:ready] {
		c := &cs[i]
		c.loss = 0
		for j := p.nodes[c.n].lo; j < c.end; j++ {
			c.loss += p.rel[j].lossAt(at)
		}
	}
	slices.SortFunc(cs[:ready], func(a, b cand) int {
		return cmp.Or(cmp.Compare(a.loss, b.loss), cmp.Compare(a.at, b.at), cmp.Compare(p.nodes[a.n].name, p.nodes[b.n].name))
	})
	out := choice{at: at, nodes: p.picked[:0]}
	for _, c := range cs[:k] {
		out.nodes = append(out.nodes, c.n)
		out.loss += c.loss
	}
	p.picked = out.nodes
	return out, true
}
