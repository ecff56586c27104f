package sim

import (
	"fmt"
	"slices"

	"github.com/tenurepolicy/tenure/eligibility/evictionbudget"
	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/requeue/reserve"
)

// What the reserve policy does with a Cycle.Reserve result, and how its
// reservations bound where jobs go (Cycle.Backfill).

// applyPass applies due reservation r's requeue pass as the requeue pass
// applies the engine's: each committed victim (already freed by the
// model) is evicted, its eviction recorded, and it gets the cooldown
// the engine named; the holder starts in startPlaced.
func (t *tenureReserve) applyPass(r *reserve.Reservation, out *requeue.EngineResult) {
	s := t.s
	holder := t.model.ids[r.Holder]
	for _, o := range out.Outcomes {
		k := o.Kind.String()
		if o.Kind != requeue.OutcomeCommitted {
			k += "/" + string(o.Reason)
		}
		t.counts["pass "+k]++
		v := t.model.ids[o.Job]
		switch {
		case o.Kind == requeue.OutcomeCommitted:
			s.recordEviction(v)
			s.evictFreed(v, holder, causeRequeue)
			t.notBefore[v] = o.NotBefore
		case o.Kind == requeue.OutcomeSkipped && o.Reason == evictionbudget.ReasonExhausted:
			s.budgetHold(v, secCeil(o.Until))
		}
	}
	if n := len(out.ContenderProblems); n > 0 {
		panic(fmt.Sprintf("simulate: internal error: reservation pass refused its holder: %v", out.ContenderProblems[0].Err))
	}
}

// startPlaced starts the holders the due passes placed (with or without
// evictions), in queue order; the model keeps only committed placements.
func (t *tenureReserve) startPlaced() {
	s := t.s
	for i := range t.in.Pending {
		id := t.model.ids[t.in.Pending[i].ID]
		if t.model.placed[id] {
			s.q.remove(id)
			s.book(id)
			t.counts["started by a pass"]++
		}
	}
	clear(t.model.placed)
}

// setHeld records the plan's reservations and masks their nodes.
func (t *tenureReserve) setHeld(held []reserve.Reservation) {
	s := t.s
	for _, n := range t.masked {
		t.owner[n] = -1
		s.c.SetMask(int(n), false)
	}
	t.masked = t.masked[:0]
	t.held = held
	t.heldIDs = t.heldIDs[:0]
	clear(t.holder)
	for i, r := range held {
		id := t.model.ids[r.Holder]
		t.heldIDs = append(t.heldIDs, id)
		t.holder[id] = true
		for _, name := range r.Nodes {
			n := t.nodeIndex(name)
			t.owner[n] = int32(i)
			t.masked = append(t.masked, int32(n))
			s.c.SetMask(n, true)
		}
	}
	slices.Sort(t.masked)
}

// nodeIndex is the index of the node named name (its index, in decimal).
func (t *tenureReserve) nodeIndex(name string) int {
	n := 0
	for _, c := range name {
		n = n*10 + int(c-'0')
	}
	return n
}

// tally counts the plan's decisions for the report's note.
func (t *tenureReserve) tally(res *reserve.Result) {
	s := t.s
	for _, r := range res.Held {
		if r.Taken.Equal(s.nowT) && r.Replans == 0 {
			t.counts["granted"]++
			s.m.reservations++
		}
		if r.Replans > t.replans[r.Holder] {
			t.counts["replanned"]++
		}
		t.replans[r.Holder] = r.Replans
	}
	for _, r := range res.Released {
		t.counts["released/"+string(r.Reason)]++
		delete(t.replans, r.Holder)
	}
	t.counts["due passes"] += len(res.Due)
}

// open lists the reserved nodes Cycle.Backfill lets pending job id use.
func (t *tenureReserve) open(id int32) []int32 {
	t.openBuf = t.openBuf[:0]
	if len(t.masked) == 0 {
		return nil
	}
	r := t.request(id)
	for _, n := range t.masked {
		if t.s.pol.cyc.Backfill(r, t.names[n]).Allowed {
			t.openBuf = append(t.openBuf, n)
		}
	}
	return t.openBuf
}

// usable reports whether job id may use node n: no reservation holds it,
// or Cycle.Backfill allows.
func (t *tenureReserve) usable(n int, id int32) bool {
	if t.owner[n] < 0 {
		return true
	}
	return t.s.pol.cyc.Backfill(t.request(id), t.names[n]).Allowed
}

// passFit is fitFor during Cycle.Reserve, whose due passes place holders
// on the reservations of this plan, which the masks do not show yet: the
// first node (first fit, whatever -placement) where a task fits and
// Cycle.Backfill, which answers from this plan, allows it. O(nodes).
func (t *tenureReserve) passFit(id int32) int {
	s := t.s
	j := &s.jobs[id]
	r := t.request(id)
	for n := range s.c.Nodes {
		if s.c.Free[n].Fits(j) && s.pol.cyc.Backfill(r, t.names[n]).Allowed {
			return n
		}
	}
	return -1
}

// started counts a job that starts on another job's reserved node (a
// backfill) and, when a holder starts, asks for the next cycle, whose
// plan releases its reservation.
func (t *tenureReserve) started(id int32) {
	s := t.s
	if t.holder[id] {
		s.wakeAt(s.now)
		return
	}
	for _, n := range s.st[id].nodes {
		if n >= 0 && t.owner[n] >= 0 {
			t.counts["backfilled"]++
			return
		}
	}
}
