package requeue

// sweep places, in contender order, every contender in e.heap's shapes
// that fits without an eviction, committing each one: each time it takes
// the first, in contender order, not known to fail in the current state.
// Placing one changes the state, so the shapes that did not fit before are
// tried again. after is the first victim of the set committed just before
// ("" at the start of the pass).
//
// e.heap holds the shapes to examine, each with its cursor set to its
// first contender. Contenders of one shape are interchangeable: one that
// does not fit parks its whole shape until the state changes.
func (e *Engine) sweep(after string) {
	e.heapInit()
	e.parked = e.parked[:0]
	for len(e.heap) > 0 {
		if !e.sweepTop(after) {
			return
		}
	}
}

// sweepTop examines the shape at the top of the heap (one examination):
// it parks the shape when it is known not to fit in the current state or
// the capacity bound or the fit bound rules its cursor contender out, leaves it untried when the round's budget is
// spent, and otherwise tries its cursor contender (placeTop). It reports
// false when the pass must stop.
func (e *Engine) sweepTop(after string) bool {
	if e.res.Checks >= e.maxChecks {
		e.stop = ReasonMaxChecks
		return false
	}
	e.res.Checks++
	sh := &e.shapes[e.heap[0]]
	if sh.failedAt == e.state {
		e.park()
		return true
	}
	if ci := sh.cursor; e.capBound != nil && e.conts[ci].capacity != capMay {
		if !e.askCapacity(ci) {
			return false
		}
		if e.conts[ci].capacity == capNever {
			e.failed(sh)
			return true
		}
	}
	if e.bound != nil && sh.hintAt != e.state {
		if !e.mayFit(e.conts[sh.cursor].c.ID) {
			e.failed(sh)
			return true
		}
		sh.hintAt = e.state
	}
	if e.budget <= 0 {
		// The per-round bound: the shape stays untried in this state.
		e.popTop()
		return true
	}
	if e.res.Attempts >= e.maxAttempts {
		e.stop = ReasonMaxAttempts
		return false
	}
	return e.placeTop(sh, after)
}

// placeTop tries the cursor contender of shape sh, at the top of the heap,
// without eviction: placed, it is committed and the parked shapes return
// to the heap; not fitting, it parks its shape; a Place error drops it for
// the rest of the pass. It reports false when the model broke its
// contract (the pass stops).
func (e *Engine) placeTop(sh *shapeState, after string) bool {
	ci := sh.cursor
	c := &e.conts[ci]
	cp := e.save()
	e.res.Attempts++
	ok, err := e.model.Place(e.j, c.c.ID)
	if !ok || err != nil {
		e.undo(cp)
		switch {
		case e.err != nil:
			return false
		case err != nil:
			next := c.next
			e.remove(ci)
			e.cerrs = append(e.cerrs, rankedError{ci, err})
			e.advance(next)
		default:
			e.budget--
			e.failed(sh)
		}
		return true
	}
	// c is placed: keep it.
	next := c.next
	e.remove(ci)
	e.advance(next)
	e.commit()
	e.freeFit(c.c.ID, after)
	e.newState()
	e.unpark()
	return true
}

// failed records that the shape at the top of the heap does not fit in
// the current state, and parks it.
func (e *Engine) failed(sh *shapeState) {
	sh.failedAt = e.state
	e.park()
}

// mayFit asks the model's fit bound about one job in the current state.
func (e *Engine) mayFit(job string) bool {
	e.hintJobs, e.hintFits = append(e.hintJobs[:0], job), append(e.hintFits[:0], true)
	e.bound.MayFit("", e.hintJobs, e.hintFits)
	e.hintJobs[0] = ""
	return e.hintFits[0]
}

// advance moves the shape at the top of the heap to its next contender,
// ci, or takes it out of the heap when it has none (ci < 0).
func (e *Engine) advance(ci int32) {
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
