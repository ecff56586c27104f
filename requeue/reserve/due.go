package reserve

import (
	"errors"
	"time"

	"github.com/tenurepolicy/tenure/clock"
	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/requeue"
)

// nominator names the reservation's nominations in outcomes.
const nominator = "reservation"

// runDue runs, with a model, the requeue pass of each reservation whose
// planned start has come: the holder as the only contender, every job on
// its nodes nominated.
func (p *Planner) runDue(in *Input, m requeue.Model, res *Result) error {
	var errs []error
	for i := range p.held {
		h := &p.held[i]
		if h.Start.After(p.now) || h.terminating {
			continue // not due, or its victims are still leaving
		}
		if h.passes == 0 && !h.Draining {
			h.Reason = reasonDue
			p.observe(h.Holder, eligibility.Decision{Allowed: true, Reason: reasonDue})
		}
		h.passes++
		h.lastPass, h.victims = p.now, h.victims[:0]
		res.Due = append(res.Due, h.Reservation)
		if m == nil {
			continue
		}
		out, err := p.eng.Run(p.now, p.passInput(h, in), m)
		if err != nil {
			errs = append(errs, err)
		}
		res.Passes = append(res.Passes, out)
		for _, o := range out.Outcomes {
			if o.Kind == requeue.OutcomeCommitted {
				h.victims = append(h.victims, o.Job)
			}
		}
		p.wake(res, out.Wake)
		if !placed(&out) {
			if p.nodesEmpty(h) {
				h.unfit = true // released at the next Plan: its nodes are empty and it still does not fit
			}
			p.wake(res, p.nextRelease(h))
		}
	}
	return errors.Join(errs...)
}

// passInput is the engine's input for h's pass: the holder, and the jobs
// on its nodes that overstay (their release has come: the plan counted them
// gone by now).
func (p *Planner) passInput(h *held, in *Input) requeue.EngineInput {
	var ein requeue.EngineInput
	ein.Contenders = []requeue.Contender{in.Pending[p.pending[h.Holder]].Contender}
	seen := map[string]struct{}{}
	for _, name := range h.Nodes {
		nd := &p.nodes[p.nodeOf[name]]
		for _, r := range p.rel[nd.lo:nd.hi] {
			if r.at > 0 {
				continue // not due to leave yet: the plan counts on it staying
			}
			id := in.Running[r.job].ID
			if _, ok := seen[id]; ok {
				continue // a gang on several of the nodes
			}
			seen[id] = struct{}{}
			ein.Nominations = append(ein.Nominations, requeue.VictimNomination{Job: id, Nominator: nominator})
			ein.Victims = append(ein.Victims, in.Running[r.job].Victim)
		}
	}
	return ein
}

// nodesEmpty reports whether no job runs on h's nodes.
func (p *Planner) nodesEmpty(h *held) bool {
	for _, name := range h.Nodes {
		if nd := &p.nodes[p.nodeOf[name]]; nd.hi > nd.lo {
			return false
		}
	}
	return true
}

// placed reports whether a pass with one contender placed it.
func placed(out *requeue.EngineResult) bool {
	return len(out.FitWithoutEviction) > 0 || out.Sets > 0
}

// nextRelease is the earliest instant after now at which a job on h's
// nodes is gone for sure; zero for none.
func (p *Planner) nextRelease(h *held) time.Time {
	first := never
	for _, name := range h.Nodes {
		nd := &p.nodes[p.nodeOf[name]]
		for _, r := range p.rel[nd.lo:nd.hi] {
			if r.at > 0 {
				first = min(first, r.at)
			}
		}
	}
	if first == never {
		return time.Time{}
	}
	return p.at(first)
}

// Backfill decides whether pending job r may start on node at now, with
// the reservations of the last [Planner.Plan]: on a node no reservation
// holds, or one r holds, it may; on another's, only when r would leave
// before that reservation's planned start, by its expected runtime and by
// its min-runtime protection (ending exactly at the start is in time), and
// never on a draining reservation's nodes. A denial's Until is the planned
// start (zero once it has passed: the answer then changes when the holder
// starts, not with time). A node the last plan did not list is denied
// (fail closed). O(1); no allocation.
func (p *Planner) Backfill(now time.Time, r *Request, node string) eligibility.Decision {
	n, ok := p.nodeOf[node]
	if !ok || r == nil {
		return eligibility.Decision{Reason: ReasonUnknownNode}
	}
	o := p.nodes[n].owner
	if o < 0 {
		return eligibility.Decision{Allowed: true, Reason: reasonNotReserved}
	}
	h := &p.held[o]
	if h.Holder == r.ID {
		return eligibility.Decision{Allowed: true, Reason: reasonHolder}
	}
	var until time.Time
	if h.Start.After(now) && !h.Draining {
		until = h.Start
	}
	switch {
	case h.Draining:
		return eligibility.Decision{Reason: ReasonReserved}
	case r.Expected <= 0:
		return eligibility.Decision{Reason: ReasonNoExpectedRuntime, Until: until}
	case clock.AddSaturating(now, r.Expected).After(h.Start) || clock.AddSaturating(now, max(0, r.MinRuntime)).After(h.Start):
		return eligibility.Decision{Reason: ReasonReserved, Until: until}
	}
	return eligibility.Decision{Allowed: true, Reason: reasonBackfill}
}
