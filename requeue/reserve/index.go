package reserve

import (
	"cmp"
	"math"
	"slices"
	"time"

	"github.com/tenurepolicy/tenure/clock"
)

// never is the offset of an instant that never comes.
const never = time.Duration(math.MaxInt64)

// release is a running job's share of a node as a plan sees it: when the
// share is gone for sure, how much it frees, and what its eviction loses.
type release struct {
	at     time.Duration // offset from now: the latest of its expected end, protection end and not-before (never: no expected end)
	units  int64
	weight float64       // Resources, 1 when unknown
	anchor time.Duration // offset of the instant its lost work counts from
	over   bool          // past its expected end now: it leaves only when requeued, losing its work
	id     string
	job    int32 // its index in Input.Running
}

// node is a node of the last plan's input.
type node struct {
	name     string
	domain   string
	capacity int64
	used     int64
	bad      bool  // a job on it holds negative units: never planned on
	owner    int32 // the reservation holding it (index in Planner.held), or -1
	lo, hi   int32 // its releases, in Planner.rel, earliest first
}

// index rebuilds the plan's view of in at now: the nodes by name, each
// node's releases in order, the running and pending jobs by ID. O(nodes +
// jobs·log(jobs per node)).
func (p *Planner) index(now time.Time, in *Input) {
	clear(p.nodeOf)
	clear(p.running)
	clear(p.pending)
	p.nodes = p.nodes[:0]
	for _, n := range in.Nodes {
		if _, dup := p.nodeOf[n.Name]; dup {
			continue
		}
		p.nodeOf[n.Name] = int32(len(p.nodes))
		p.nodes = append(p.nodes, node{name: n.Name, domain: n.Domain, capacity: n.Capacity, owner: -1})
	}
	p.cnt = slices.Grow(p.cnt[:0], len(p.nodes)+1)[:len(p.nodes)+1]
	clear(p.cnt)
	for i := range in.Running {
		j := &in.Running[i]
		p.running[j.ID] = struct{}{}
		if n, ok := p.nodeOf[j.Node]; ok {
			p.cnt[n+1]++
		}
	}
	for n := range p.nodes {
		p.cnt[n+1] += p.cnt[n]
		p.nodes[n].lo, p.nodes[n].hi = p.cnt[n], p.cnt[n]
	}
	p.rel = slices.Grow(p.rel[:0], int(p.cnt[len(p.nodes)]))[:p.cnt[len(p.nodes)]]
	for i := range in.Running {
		j := &in.Running[i]
		n, ok := p.nodeOf[j.Node]
		if !ok {
			continue // not a node of the plan: nothing to plan there
		}
		nd := &p.nodes[n]
		p.rel[nd.hi] = releaseOf(now, j)
		p.rel[nd.hi].job = int32(i)
		nd.hi++
		nd.used = addSat(nd.used, j.Units)
		nd.bad = nd.bad || j.Units < 0
	}
	for n := range p.nodes {
		nd := &p.nodes[n]
		slices.SortFunc(p.rel[nd.lo:nd.hi], compareRelease)
	}
	for i := range in.Pending {
		if _, dup := p.pending[in.Pending[i].ID]; !dup {
			p.pending[in.Pending[i].ID] = int32(i)
		}
	}
}

// releaseOf is j's release at now: a job with an expected runtime is gone
// for sure at the latest of its expected end, its protection end and its
// not-before gate (or now, when all are past: the requeue engine may
// evict it now); one without (or without a start) never is.
func releaseOf(now time.Time, j *Job) release {
	r := release{units: j.Units, weight: weightOf(j.Resources), id: j.ID, at: never}
	anchor := j.Start
	if !j.LastCheckpoint.IsZero() && j.LastCheckpoint.After(j.Start) && !j.LastCheckpoint.After(now) {
		anchor = j.LastCheckpoint
	}
	r.anchor = anchor.Sub(now)
	if j.Expected <= 0 || j.Start.IsZero() {
		return r
	}
	end := clock.AddSaturating(j.Start, j.Expected).Sub(now)
	r.over = end <= 0
	r.at = max(0, end)
	for _, t := range []time.Time{j.ProtectedUntil, j.NotBefore} {
		if !t.IsZero() {
			r.at = max(r.at, t.Sub(now))
		}
	}
	return r
}

// compareRelease orders a node's releases: earliest first, then the
// cheapest to lose now, then by ID.
func compareRelease(a, b release) int {
	return cmp.Or(cmp.Compare(a.at, b.at), cmp.Compare(a.lossAt(0), b.lossAt(0)), cmp.Compare(a.id, b.id))
}

// lossAt is the work, in resource-seconds, that evicting r at offset t
// throws away: 0 for a job expected to end on its own.
func (r *release) lossAt(t time.Duration) float64 {
	if !r.over {
		return 0
	}
	return r.weight * max(0, (t-r.anchor).Seconds())
}

// weightOf is a Resources value as a weight: 0, negative or NaN count 1.
func weightOf(x float64) float64 {
	if !(x > 0) {
		return 1
	}
	return x
}

// addSat adds without overflow.
func addSat(a, b int64) int64 {
	s := a + b
	if (b > 0 && s < a) || (b < 0 && s > a) {
		if b > 0 {
			return math.MaxInt64
		}
		return math.MinInt64
	}
	return s
}
