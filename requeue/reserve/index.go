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
// Small (24 bytes), since a plan writes one per job in node order: the
// rest is read from the job (view) when needed.
type release struct {
	at    time.Duration // offset from now: the latest of its expected end, protection end and not-before (never: no expected end)
	units int64
	job   int32 // its index in Input.Running
	over  bool  // past its expected end now: it leaves only when requeued, losing its work
}

// view is what a plan reads a release's job from: the running jobs of its
// input and its instant.
type view struct {
	jobs []Job
	now  time.Time
}

// node is a node of the last plan's input.
type node struct {
	name     string
	domain   string
	dom      int32 // its domain's index in Planner.domains (-1: none)
	capacity int64
	used     int64
	bad      bool  // a job on it holds negative units: never planned on
	owner    int32 // the reservation holding it (index in Planner.held), or -1
	lo, hi   int32 // its releases, in Planner.rel, earliest first
}

// index rebuilds the plan's view of in at now: the nodes by name, each
// node's releases in order (none for an idle Plan), and the holders'
// requests. O(nodes + jobs·log(jobs per node)); O(nodes + pending) idle.
// Of the pending jobs it indexes the holders: p.pending maps each holder
// to its first entry, or -1.
func (p *Planner) index(now time.Time, in *Input) {
	p.view = view{jobs: in.Running, now: now}
	clear(p.nodeOf)
	clear(p.pending)
	clear(p.byUnits)
	clear(p.domOf)
	p.nodes, p.domains = p.nodes[:0], p.domains[:0]
	for _, n := range in.Nodes {
		if _, dup := p.nodeOf[n.Name]; dup {
			continue
		}
		p.nodeOf[n.Name] = int32(len(p.nodes))
		p.nodes = append(p.nodes, node{name: n.Name, domain: n.Domain, capacity: n.Capacity, owner: -1, dom: p.domainOf(n.Domain)})
	}
	p.domCount = slices.Grow(p.domCount[:0], len(p.domains))[:len(p.domains)]
	p.cnt = slices.Grow(p.cnt[:0], len(p.nodes)+1)[:len(p.nodes)+1]
	clear(p.cnt)
	if !p.everyJob && p.idle(in) {
		in = &Input{Pending: in.Pending} // nothing will be planned: the running jobs are not read
		p.view.jobs = nil
	}
	p.jobNode = slices.Grow(p.jobNode[:0], len(in.Running))[:len(in.Running)]
	for i := range in.Running {
		n, ok := p.nodeOf[in.Running[i].Node]
		if !ok {
			n = -1 // not a node of the plan: nothing to plan there
		} else {
			p.cnt[n+1]++
		}
		p.jobNode[i] = n
	}
	for n := range p.nodes {
		p.cnt[n+1] += p.cnt[n]
		p.nodes[n].lo, p.nodes[n].hi = p.cnt[n], p.cnt[n]
	}
	p.rel = slices.Grow(p.rel[:0], int(p.cnt[len(p.nodes)]))[:p.cnt[len(p.nodes)]]
	for i := range in.Running {
		n := p.jobNode[i]
		if n < 0 {
			continue
		}
		j, nd := &in.Running[i], &p.nodes[n]
		p.rel[nd.hi] = p.releaseOf(j, int32(i))
		nd.hi++
		nd.used = addSat(nd.used, j.Units)
		nd.bad = nd.bad || j.Units < 0
	}
	for n := range p.nodes {
		nd := &p.nodes[n]
		p.view.sort(p.rel[nd.lo:nd.hi])
	}
	for i := range p.held {
		p.pending[p.held[i].Holder] = -1
	}
	for i := range in.Pending {
		if k, ok := p.pending[in.Pending[i].ID]; ok && k < 0 {
			p.pending[in.Pending[i].ID] = int32(i) // a holder's first entry
		}
	}
}

// idle reports whether the Plan under way can plan nothing: no reservation
// is held and no pending request qualifies now (valid, of MinUnits and
// MinPriority, waited After; or Max is 0). Then index leaves the running
// jobs out, and an idle Plan costs O(nodes + pending), not O(running
// jobs): a scheduler may call Plan every cycle.
func (p *Planner) idle(in *Input) bool {
	if len(p.held) > 0 {
		return false
	}
	if p.cfg.Max <= 0 {
		return true
	}
	for i := range in.Pending {
		r := &in.Pending[i]
		if validRequest(r) && p.cfg.qualifies(r) && !clock.AddSaturating(r.Queued, p.cfg.After).After(p.now) {
			return false
		}
	}
	return true
}

// releaseOf is j's release at the plan's instant (j is Input.Running[k]):
// a job with an expected runtime is gone for sure at the latest of its
// expected end, its protection end (ProtectedUntil, else
// Config.Protection's) and its not-before gate, or now when all are past
// (the requeue engine may evict it now); one without an expected runtime
// (or a start) never is, and neither is one past its expected end whose
// eviction would already lose more than Engine.MaxLostWork (its loss only
// grows: no pass may requeue it).
func (p *Planner) releaseOf(j *Job, k int32) release {
	now := p.view.now
	r := release{units: j.Units, job: k, at: never}
	if j.Expected <= 0 || j.Start.IsZero() {
		return r
	}
	end := clock.AddSaturating(j.Start, j.Expected).Sub(now)
	r.over = end <= 0
	if cap := p.cfg.Engine.MaxLostWork; r.over && cap > 0 && p.view.lossAt(r, 0) > cap {
		return release{units: j.Units, job: k, at: never, over: true}
	}
	r.at = max(0, end)
	protected := j.ProtectedUntil
	if protected.IsZero() && p.cfg.Protection != nil {
		protected = p.cfg.Protection(j)
	}
	if !protected.IsZero() {
		r.at = max(r.at, protected.Sub(now))
	}
	if !j.NotBefore.IsZero() {
		r.at = max(r.at, j.NotBefore.Sub(now))
	}
	if r.at >= never-1 { // clock.Last(): never evictable
		r.at = never
	}
	return r
}

// sort sorts one node's releases (a few) by compare: an insertion sort,
// cheaper than a general one at this size, and O(n²) only in the jobs of
// one node.
func (v view) sort(rs []release) {
	if len(rs) > 16 {
		slices.SortFunc(rs, v.compare)
		return
	}
	for i := 1; i < len(rs); i++ {
		for k := i; k > 0 && v.compare(rs[k], rs[k-1]) < 0; k-- {
			rs[k], rs[k-1] = rs[k-1], rs[k]
		}
	}
}

// compare orders a node's releases: earliest first, then the cheapest to
// lose now, then by ID.
func (v view) compare(a, b release) int {
	if a.at != b.at {
		return cmp.Compare(a.at, b.at)
	}
	return cmp.Or(cmp.Compare(v.lossAt(a, 0), v.lossAt(b, 0)), cmp.Compare(v.jobs[a.job].ID, v.jobs[b.job].ID))
}

// lossAt is the work, in resource-seconds, that evicting r's job at
// offset t throws away: 0 for a job expected to end on its own; else its
// Resources (1 when unknown) times the time since its last checkpoint (or
// its start, when it has none, or one before the start or after now).
func (v view) lossAt(r release, t time.Duration) float64 {
	if !r.over {
		return 0
	}
	j := &v.jobs[r.job]
	anchor := j.Start
	if !j.LastCheckpoint.IsZero() && j.LastCheckpoint.After(j.Start) && !j.LastCheckpoint.After(v.now) {
		anchor = j.LastCheckpoint
	}
	if lost := t - anchor.Sub(v.now); lost > 0 {
		return weightOf(j.Resources) * lost.Seconds()
	}
	return 0 // nothing lost yet (and no Inf × 0)
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

// domainOf is the index of domain name in p.domains, added if new; -1 for
// no domain.
func (p *Planner) domainOf(name string) int32 {
	if name == "" {
		return -1
	}
	d, ok := p.domOf[name]
	if !ok {
		d = int32(len(p.domains))
		p.domOf[name] = d
		p.domains = append(p.domains, name)
	}
	return d
}
