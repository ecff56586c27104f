package reserve

import (
	"slices"
	"time"

	"github.com/tenurepolicy/tenure/clock"
	"github.com/tenurepolicy/tenure/eligibility"
)

// review releases the reservations that no longer stand (beyond
// Config.Max, the latest taken), then re-plans or drains those whose
// holder did not start after its due pass (see settled).
func (p *Planner) review(in *Input, res *Result) {
	kept := p.held[:0]
	for i, h := range p.held {
		why := p.standing(&h, in)
		if why == "" && i >= p.cfg.Max {
			why = reasonNotQualified // Renew lowered Max
		}
		if why != "" {
			p.release(&h, why, res)
			delete(p.pending, h.Holder)
			continue
		}
		kept = append(kept, h)
	}
	clear(p.held[len(kept):])
	p.held = kept
	p.markOwners()
	p.markTerminating(in)
	for i := 0; i < len(p.held); i++ {
		h := &p.held[i]
		if h.Start.After(p.now) && !h.Draining {
			p.moveEarlier(in, i)
			continue
		}
		if !p.settled(h) {
			continue
		}
		if h.Replans < p.cfg.maxReplans() {
			if !p.replan(in, i) {
				p.release(h, reasonNoPlannedStart, res)
				delete(p.pending, h.Holder)
				p.held = slices.Delete(p.held, i, i+1)
				p.markOwners()
				i--
			}
			continue
		}
		h.Draining, h.Reason, h.passes = true, reasonDraining, 0
		p.observe(h.Holder, eligibility.Decision{Allowed: true, Reason: reasonDraining})
	}
}

// moveEarlier plans held reservation i again, before its start, and
// takes the new plan when it starts strictly earlier (nodes freed sooner
// than planned): as Slurm's backfill plans its reservations afresh each
// cycle. It is no re-plan (Replans is unchanged).
func (p *Planner) moveEarlier(in *Input, i int) {
	h := &p.held[i]
	r := &in.Pending[p.pending[h.Holder]]
	c, ok := p.choose(r, int32(i))
	if !ok || !p.at(c.at).Before(h.Start) {
		return
	}
	for _, name := range h.Nodes {
		p.nodes[p.nodeOf[name]].owner = -1
	}
	h.Nodes = p.names(c.nodes, h.Nodes[:0])
	h.Start, h.LostWork, h.Reason = p.at(c.at), c.loss, reasonMoved
	for _, n := range c.nodes {
		p.nodes[n].owner = int32(i)
	}
	p.observe(h.Holder, eligibility.Decision{Allowed: true, Reason: reasonMoved, Until: h.Start})
}

// settled reports whether h's due pass failed to start its holder for
// good: a pass ran at an earlier instant than this plan's, and none of
// the victims it committed is still running (terminating victims are
// waited for). Draining reservations are never re-planned.
func (p *Planner) settled(h *held) bool {
	return !h.Draining && h.passes > 0 && !h.Start.After(p.now) && p.now.After(h.lastPass) && !h.terminating
}

// markTerminating marks the reservations whose last pass committed a
// victim still listed as running. O(jobs) when any has victims.
func (p *Planner) markTerminating(in *Input) {
	clear(p.seen)
	for i := range p.held {
		p.held[i].terminating = false
		for _, v := range p.held[i].victims {
			p.seen[v] = struct{}{}
		}
	}
	if len(p.seen) == 0 {
		return
	}
	for i := range in.Running {
		if _, ok := p.seen[in.Running[i].ID]; ok {
			for k := range p.held {
				if slices.Contains(p.held[k].victims, in.Running[i].ID) {
					p.held[k].terminating = true
				}
			}
		}
	}
}

// standing says why h no longer stands at this plan, or "" when it does.
func (p *Planner) standing(h *held, in *Input) eligibility.Reason {
	i := p.pending[h.Holder]
	if i < 0 {
		if slices.ContainsFunc(in.Running, func(j Job) bool { return j.ID == h.Holder }) {
			return reasonStarted
		}
		return reasonLeft
	}
	r := &in.Pending[i]
	if !validRequest(r) || !p.cfg.qualifies(r) || r.Tasks != len(h.Nodes) {
		return reasonNotQualified
	}
	if h.unfit {
		return reasonNoFit
	}
	for _, name := range h.Nodes {
		n, ok := p.nodeOf[name]
		if !ok {
			return reasonNodeGone
		}
		if p.nodes[n].capacity < r.Units || (p.cfg.Fits != nil && !p.cfg.Fits(r, name)) {
			return reasonNotQualified
		}
	}
	return ""
}

// release ends h with reason why.
func (p *Planner) release(h *held, why eligibility.Reason, res *Result) {
	h.Reason = why
	res.Released = append(res.Released, h.Reservation)
	p.observe(h.Holder, eligibility.Decision{Reason: why})
}

// replan plans held reservation i again over the nodes no other one holds
// (its own included); false when no set has a planned start.
func (p *Planner) replan(in *Input, i int) bool {
	h := &p.held[i]
	r := &in.Pending[p.pending[h.Holder]]
	for _, name := range h.Nodes {
		p.nodes[p.nodeOf[name]].owner = -1
	}
	c, ok := p.choose(r, -1)
	if !ok {
		return false
	}
	h.Nodes = p.names(c.nodes, h.Nodes[:0])
	h.Start, h.LostWork, h.Reason, h.passes, h.victims = p.at(c.at), c.loss, reasonReplanned, 0, nil
	h.Replans++
	for _, n := range c.nodes {
		p.nodes[n].owner = int32(i)
	}
	p.observe(h.Holder, eligibility.Decision{Allowed: true, Reason: reasonReplanned, Until: h.Start})
	return true
}

// maxFailedPlans bounds the plans a Plan may find unservable (distinct
// request shapes no set of nodes can serve): each costs O(nodes), so a
// queue of many odd shapes cannot make a cycle quadratic. The jobs after
// them are considered at the next Plan.
const maxFailedPlans = 16

// takeNew takes reservations for the pending jobs that qualify, in order,
// while fewer than Config.Max are held. A job listed twice counts at its
// first entry.
func (p *Planner) takeNew(in *Input, res *Result) {
	clear(p.tried)
	clear(p.seen)
	var next time.Time // when the next job reaches After
	failed := 0
	for i := range in.Pending {
		if len(p.held) >= p.cfg.Max || failed >= maxFailedPlans {
			break
		}
		r := &in.Pending[i]
		if _, dup := p.seen[r.ID]; dup {
			continue
		}
		p.seen[r.ID] = struct{}{}
		if _, holder := p.pending[r.ID]; holder {
			continue
		}
		if !validRequest(r) {
			p.observe(r.ID, eligibility.Decision{Reason: reasonBadRequest})
			continue
		}
		if !p.cfg.qualifies(r) {
			continue
		}
		if q := clock.AddSaturating(r.Queued, p.cfg.After); q.After(p.now) {
			next = eligibility.Earliest(next, q)
			continue
		}
		key := shape{r.Tasks, r.Units, r.OneDomain}
		if _, ok := p.tried[key]; ok {
			p.observe(r.ID, eligibility.Decision{Reason: reasonNoPlannedStart})
			continue
		}
		c, ok := p.choose(r, -1)
		if !ok {
			p.tried[key] = struct{}{}
			failed++
			p.observe(r.ID, eligibility.Decision{Reason: reasonNoPlannedStart})
			continue
		}
		p.take(int32(i), r, c)
	}
	if len(p.held) < p.cfg.Max {
		p.wake(res, next)
	}
}

// take holds the nodes of c for r, the i-th pending job.
func (p *Planner) take(i int32, r *Request, c choice) {
	p.pending[r.ID] = i
	h := held{Reservation: Reservation{Holder: r.ID, Nodes: p.names(c.nodes, nil), Start: p.at(c.at),
		LostWork: c.loss, Taken: p.now, Reason: reasonTaken}}
	for _, n := range c.nodes {
		p.nodes[n].owner = int32(len(p.held))
	}
	p.held = append(p.held, h)
	clear(p.tried) // the nodes left changed
	p.observe(r.ID, eligibility.Decision{Allowed: true, Reason: reasonTaken, Until: h.Start})
}

// names appends the names of nodes ns to dst, in name order.
func (p *Planner) names(ns []int32, dst []string) []string {
	for _, n := range ns {
		dst = append(dst, p.nodes[n].name)
	}
	slices.Sort(dst)
	return dst
}

// markOwners marks every held node with its reservation.
func (p *Planner) markOwners() {
	for n := range p.nodes {
		p.nodes[n].owner = -1
	}
	for i := range p.held {
		for _, name := range p.held[i].Nodes {
			if n, ok := p.nodeOf[name]; ok {
				p.nodes[n].owner = int32(i)
			}
		}
	}
}

// validRequest reports whether r can be planned: an ID, and at least one
// task of at least one unit.
func validRequest(r *Request) bool { return r.ID != "" && r.Tasks >= 1 && r.Units >= 1 }
