package requeue

import (
	"cmp"
	"time"

	"github.com/tenurepolicy/tenure/eligibility"
)

// attempt is one sweep: the placements without eviction of step 2 (victim
// nil), or the placements in one victim's resources.
type attempt struct {
	victim *Victim
	after  string // placements without eviction: the victim committed just before
	first  int    // where this attempt's contenders start in Engine.out

	denyRank   int32 // contender order of the first denial, -1 if none
	denyReason eligibility.Reason
	denyUntil  time.Time
	bounded    bool // a bound (or a broken model) stopped the sweep
	cut        bool // the per-victim bound left shapes untried
}

func (a *attempt) deny(rank int32, d eligibility.Decision) {
	if a.denyRank < 0 || rank < a.denyRank {
		a.denyRank, a.denyReason = rank, cmp.Or(d.Reason, ReasonFiltered)
	}
	if !d.Until.IsZero() && (a.denyUntil.IsZero() || d.Until.Before(a.denyUntil)) {
		a.denyUntil = instant(d.Until)
	}
}

// sweep tries contenders until every one left in e.heap has been tried in
// the current state: each time it takes the first, in contender order, not
// known to fail in that state. Placing one changes the state, so the shapes
// that did not fit before are tried again. Without a victim (step 2 of
// Run), each placement is committed at once; with one, the placements are
// left for the caller to commit or roll back.
//
// e.heap holds the shapes to examine, each with its cursor set to its first
// eligible contender. Contenders of one shape are interchangeable: one that
// does not fit parks its whole shape until the state changes, and one that
// fitted but was denied by a filter lets the next of its shape go straight
// to the filters.
func (e *Engine) sweep(a *attempt) {
	v := a.victim
	e.heapInit()
	e.parked = e.parked[:0]
	defer func() {
		// A bound reached while looking for a shape's next contender (in
		// advance) also cuts the sweep short.
		a.bounded = a.bounded || e.stop != ""
	}()
	for len(e.heap) > 0 {
		if e.res.Checks >= e.maxChecks {
			e.stop, a.bounded = ReasonMaxChecks, true
			return
		}
		e.res.Checks++
		s := e.heap[0]
		sh := &e.shapes[s]
		if sh.failedAt == e.state {
			e.failed(sh, v)
			continue
		}
		ci := sh.cursor
		c := &e.conts[ci]
		fits := sh.fitAt == e.state
		if fits && v != nil {
			if d, ok := e.filter(v, &c.c); !ok {
				a.deny(ci, d)
				e.advance(c.next, v)
				continue
			}
		}
		if !fits && e.bound != nil && sh.hintAt != e.state {
			if !e.mayFit(c.c.ID) {
				e.failed(sh, v)
				continue
			}
			sh.hintAt = e.state
		}
		if !fits && e.budget <= 0 {
			// The per-victim bound: the shape stays untried in this state.
			e.popTop()
			a.cut = true
			continue
		}
		if e.res.Attempts >= e.maxAttempts {
			e.stop, a.bounded = ReasonMaxAttempts, true
			return
		}
		cp := e.save()
		e.res.Attempts++
		ok, err := e.model.Place(e.j, c.c.ID)
		var denial eligibility.Decision
		denied := false
		if ok && err == nil && v != nil && !fits {
			denial, ok = e.filter(v, &c.c)
			denied = !ok
		}
		if !ok || err != nil {
			e.undo(cp)
			if e.err != nil {
				a.bounded = true
				return
			}
			if v != nil {
				e.observe(v.ID, c.c.ID, eligibility.Decision{Reason: ReasonRolledBack}, err)
			}
			switch {
			case err != nil:
				next := c.next
				e.remove(ci)
				e.cerrs = append(e.cerrs, rankedError{ci, err})
				e.advance(next, v)
			case denied:
				e.budget--
				sh.fitAt = e.state
				a.deny(ci, denial)
				e.advance(c.next, v)
			default:
				e.budget--
				e.failed(sh, v)
			}
			continue
		}
		// c is placed: keep it.
		next := c.next
		e.remove(ci)
		e.advance(next, v)
		if v != nil {
			e.out = append(e.out, c.c.ID)
		} else {
			e.commit()
			e.res.FitWithoutEviction = append(e.res.FitWithoutEviction, FreeFit{Contender: c.c.ID, After: a.after})
			e.observe(c.c.ID, a.after, eligibility.Decision{Allowed: true, Reason: ReasonFitWithoutEviction}, nil)
		}
		e.newState()
		e.unpark()
	}
}

// failed records that the shape at the top of the heap does not fit in
// the current state, and parks it. Without a victim, that state has no
// uncommitted eviction: the shape may then be tried for the next victim.
func (e *Engine) failed(sh *shapeState, v *Victim) {
	sh.failedAt = e.state
	if v == nil {
		sh.checkedAt = e.state
	}
	e.park()
}

// mayFit asks the model's fit bound about one job in the current state.
func (e *Engine) mayFit(job string) bool {
	e.hintJobs, e.hintFits = append(e.hintJobs[:0], job), append(e.hintFits[:0], true)
	e.bound.MayFit("", e.hintJobs, e.hintFits)
	e.hintJobs[0] = ""
	return e.hintFits[0]
}

// advance moves the shape at the top of the heap to its next eligible
// contender from ci on, or takes it out of the heap when it has none.
func (e *Engine) advance(ci int32, v *Victim) {
	ci = e.eligibleFrom(ci, v)
	if ci < 0 {
		e.popTop()
		return
	}
	e.shapes[e.heap[0]].cursor = ci
	e.down(0)
}

// park moves the shape at the top of the heap aside until the state
// changes.
func (e *Engine) park() { e.parked = append(e.parked, e.popTop()) }

// unpark returns the parked shapes to the heap.
func (e *Engine) unpark() {
	for _, s := range e.parked {
		e.heap = append(e.heap, s)
		e.up(len(e.heap) - 1)
	}
	e.parked = e.parked[:0]
}

// The heap orders shapes by their cursor, which is the cursor contender's
// index in contender order.

func (e *Engine) heapLess(i, j int) bool {
	return e.shapes[e.heap[i]].cursor < e.shapes[e.heap[j]].cursor
}

func (e *Engine) heapInit() {
	for i := len(e.heap)/2 - 1; i >= 0; i-- {
		e.down(i)
	}
}

func (e *Engine) popTop() int32 {
	s := e.heap[0]
	last := len(e.heap) - 1
	e.heap[0] = e.heap[last]
	e.heap = e.heap[:last]
	if last > 0 {
		e.down(0)
	}
	return s
}

func (e *Engine) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !e.heapLess(i, p) {
			return
		}
		e.heap[i], e.heap[p] = e.heap[p], e.heap[i]
		i = p
	}
}

func (e *Engine) down(i int) {
	n := len(e.heap)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		m := l
		if r := l + 1; r < n && e.heapLess(r, l) {
			m = r
		}
		if !e.heapLess(m, i) {
			return
		}
		e.heap[i], e.heap[m] = e.heap[m], e.heap[i]
		i = m
	}
}
