package reserve

import (
	"slices"
	"time"

	"github.com/tenurepolicy/tenure/clock"
	"github.com/tenurepolicy/tenure/eligibility"
)

// review releases the reservations that no longer stand, then re-plans or
// drains those whose holder did not start after its due pass.
func (p *Planner) review(in *Input, res *Result) {
	kept := p.held[:0]
	for _, h := range p.held {
		if why := p.standing(&h, in); why != "" {
			p.release(&h, why, res)
			continue
		}
		kept = append(kept, h)
	}
	clear(p.held[len(kept):])
	p.held = kept
	p.markOwners()
	for i := 0; i < len(p.held); i++ {
		h := &p.held[i]
		if h.Start.After(p.now) || h.passes == 0 || h.Draining {
			continue // not due yet, due for its first pass now, or draining
		}
		if h.Replans < p.cfg.maxReplans() {
			if !p.replan(in, i) {
				p.release(h, reasonNoPlannedStart, res)
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
	for _, name := range h.Nodes {
		n, ok := p.nodeOf[name]
		if !ok {
			return reasonNodeGone
		}
		if p.nodes[n].capacity < r.Units {
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
	h.Start, h.LostWork, h.Reason, h.passes = p.at(c.at), c.loss, reasonReplanned, 0
	h.Replans++
	for _, n := range c.nodes {
		p.nodes[n].owner = int32(i)
	}
	p.observe(h.Holder, eligibility.Decision{Allowed: true, Reason: reasonReplanned, Until: h.Start})
	return true
}

// takeNew takes reservations for the pending jobs that qualify, in order,
// while fewer than Config.Max are held.
func (p *Planner) takeNew(in *Input, res *Result) {
	clear(p.tried)
	var next time.Time // when the next job reaches After
	for i := range in.Pending {
		if len(p.held) >= p.cfg.Max {
			return
		}
		r := &in.Pending[i]
		if p.holds(r.ID) {
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
			continue
		}
		c, ok := p.choose(r, -1)
		if !ok {
			p.tried[key] = struct{}{}
			p.observe(r.ID, eligibility.Decision{Reason: reasonNoPlannedStart})
			continue
		}
		p.take(r, c)
	}
	p.wake(res, next)
}

// take holds the nodes of c for r.
func (p *Planner) take(r *Request, c choice) {
	h := held{Reservation: Reservation{Holder: r.ID, Nodes: p.names(c.nodes, nil), Start: p.at(c.at),
		LostWork: c.loss, Taken: p.now, Reason: reasonTaken}}
	for _, n := range c.nodes {
		p.nodes[n].owner = int32(len(p.held))
	}
	p.held = append(p.held, h)
	clear(p.tried) // the nodes left changed
	p.observe(r.ID, eligibility.Decision{Allowed: true, Reason: reasonTaken, Until: h.Start})
}

// holds reports whether job id holds a reservation.
func (p *Planner) holds(id string) bool {
	return slices.ContainsFunc(p.held, func(h held) bool { return h.Holder == id })
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
