package requeue

// tick counts one examination. It reports false, counting nothing, when
// the pass reached MaxChecks (the pass stops) or the search under way its
// share (e.over: the search stops).
func (e *Engine) tick() bool {
	if e.searching && e.res.Checks >= e.shareEnd {
		e.over = true // shareEnd <= MaxChecks: a search stops at its share first
		return false
	}
	if e.res.Checks >= e.maxChecks {
		e.stop = reasonMaxChecks
		return false
	}
	e.res.Checks++
	return true
}

// push evicts victim k on top of the stack (an examination). An Evict
// error rolls the partial changes back and skips the victim with
// ReasonEvictError. It reports whether k was evicted.
func (e *Engine) push(k int32) bool {
	if !e.tick() {
		return false
	}
	m := e.save()
	err := e.model.Evict(e.j, e.known[k].job)
	if err == nil {
		e.newState()
		e.stack = append(e.stack, level{k, m})
		return true
	}
	e.undo(m)
	e.evictErrs++
	if e.vs[k].status == vOpen {
		o := e.outcome(k)
		o.Kind, o.Reason, o.Err = OutcomeSkipped, ReasonEvictError, err
		e.close(k, vDecided)
		e.emit(o)
	}
	return false
}

// pushAll evicts the victims of ks on top of the stack, in order, and
// reports whether it evicted them all.
func (e *Engine) pushAll(ks []int32) bool {
	for _, k := range ks {
		if !e.push(k) {
			return false
		}
	}
	return true
}

// popTo rolls the stack back until it holds n victims.
func (e *Engine) popTo(n int) {
	if len(e.stack) > n {
		e.stackFull = false
		e.undo(e.stack[n].m)
		e.stack = e.stack[:n]
	}
}

// fit tests whether contender ci fits in the current state: a fit test
// (an examination, and one of MaxAttempts), answered without Place when
// its shape did not fit in this state or the model's FitBounder rules it
// out. A Place error drops the contender for the rest of the pass. With
// keep, a placement stays for the caller to commit; otherwise the test
// leaves the state as it found it.
func (e *Engine) fit(ci int32, keep bool) int {
	c := &e.conts[ci]
	if !e.tick() {
		return fitDead
	}
	if e.res.Attempts >= e.maxAttempts {
		e.stop = reasonMaxAttempts
		return fitDead
	}
	e.res.Attempts++
	sh := &e.shapes[c.shape]
	if sh.failedAt == e.state {
		return e.fitNo(ci)
	}
	if e.bound != nil && !e.mayFit(c.c.ID) {
		sh.failedAt = e.state
		return e.fitNo(ci)
	}
	cp := e.save()
	e.res.Places++
	ok, err := e.model.Place(e.j, c.c.ID)
	switch {
	case err != nil:
		e.undo(cp)
		e.remove(ci)
		e.cerrs = append(e.cerrs, rankedError{ci, err})
		return fitDead
	case ok && keep:
		return fitYes
	}
	e.undo(cp)
	if !ok {
		sh.failedAt = e.state
		return e.fitNo(ci)
	}
	return fitYes
}

// fitNo notes that contender ci did not fit in the current state: as
// things are when the stack is empty, which spares it a second test as
// things are in this state (its own test: the notes do not depend on the
// hints).
func (e *Engine) fitNo(ci int32) int {
	if len(e.stack) == 0 {
		e.conts[ci].freeAt = e.state
	}
	return fitNo
}

// mayFit asks the model's fit bound about one job in the current state.
func (e *Engine) mayFit(job string) bool {
	e.hintJobs, e.hintFits = append(e.hintJobs[:0], job), append(e.hintFits[:0], true)
	e.bound.MayFit("", e.hintJobs, e.hintFits)
	e.hintJobs[0] = ""
	return e.hintFits[0]
}
