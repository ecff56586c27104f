package requeue

import (
	"slices"

	"github.com/tenurepolicy/tenure/eligibility"
)

// The result of a fit test.
const (
	fitNo   = iota // the contender does not fit
	fitYes         // it fits (its placement is recorded in the journal)
	fitDead        // the contender is gone (Place failed) or a bound stopped the pass
)

// serve looks for room for contender ci: first without eviction, then by a
// set search; it commits what it finds. Step 3 of Run.
func (e *Engine) serve(ci int32) {
	c := &e.conts[ci]
	sh := &e.shapes[c.shape]
	if !e.askCapacity(ci) {
		return
	}
	if e.never = c.capacity == capNever; sh.failedAt != e.state && !e.never {
		// Not known not to fit as things are (the per-victim bound left
		// its shape untried): try that first.
		if e.placeFree(ci) {
			return
		}
		if e.stop != "" || c.gone {
			return
		}
	}
	if sh.setFailedAt == e.state && sh.setClosed == e.closed && sh.setOrder == e.reordered && c.c.Priority == sh.setPrio && c.c.Queue == sh.setQueue &&
		e.cfg.CanContend == nil && (len(e.cfg.Filters) == 0 || sh.setNoFit) {
		// A contender of its shape and priority failed in this state, with
		// the same open victims: its search would be this one's. (With
		// filters, only if no set let it fit: the filters, which may tell
		// contenders apart, were not asked.)
		if e.res.Checks >= e.maxChecks {
			e.stop = ReasonMaxChecks
			return
		}
		e.res.Checks++
		return
	}
	if e.search(ci) && e.apply(ci) {
		e.chargeFails()
		return
	}
	if e.stop == "" && !c.gone {
		e.chargeFails()
	}
	if e.stop == "" && !c.gone && !e.cut {
		// The search looked at every group: the same one fails the same way.
		sh.setFailedAt, sh.setClosed, sh.setQueue, sh.setPrio = e.state, e.closed, c.c.Queue, c.c.Priority
		sh.setOrder, sh.setNoFit = e.reordered, !e.setFit
	}
}

// askCapacity asks the model's CapacityBounder, once per contender and
// pass (one examination), whether contender ci may fit after some
// eviction, and notes the answer in its capacity. It reports false when
// a bound stopped the pass.
func (e *Engine) askCapacity(ci int32) bool {
	c := &e.conts[ci]
	if e.capBound == nil || c.capacity != capUnasked {
		return true
	}
	if e.res.Checks >= e.maxChecks {
		e.stop = ReasonMaxChecks
		return false
	}
	e.res.Checks++
	c.capacity = capMay
	if !e.capBound.MayEverFit(c.c.ID) {
		c.capacity = capNever
	}
	return true
}

// placeFree tries contender ci without eviction in the current state and
// commits it if it fits. It reports whether ci was placed.
func (e *Engine) placeFree(ci int32) bool {
	c := &e.conts[ci]
	sh := &e.shapes[c.shape]
	cp := e.save()
	switch e.fit(ci) {
	case fitYes:
		e.remove(ci)
		e.commit()
		e.freeFit(c.c.ID, e.after)
		e.newState()
		return true
	case fitNo:
		sh.failedAt = e.state
	}
	e.undo(cp)
	return false
}

// hint asks the model's fit bound whether contender ci may fit once the
// running job victim is evicted from the current state ("": as things
// are); true without a bound.
func (e *Engine) hint(victim string, ci int32) bool {
	if e.bound == nil {
		return true
	}
	e.hintJobs, e.hintFits = append(e.hintJobs[:0], e.conts[ci].c.ID), append(e.hintFits[:0], true)
	e.bound.MayFit(victim, e.hintJobs, e.hintFits)
	e.hintJobs[0] = ""
	return e.hintFits[0]
}

// fit tests whether contender ci fits in the current state, as things are.
func (e *Engine) fit(ci int32) int { return e.fitIf(ci, e.hint("", ci)) }

// fitIf tests whether contender ci fits in the current state, given the
// fit bound's answer may (asked before the last eviction, about it): no
// Place when it is false. A Place error drops the contender for the rest
// of the pass. On fitYes the placement stays, for the caller to keep or
// roll back.
func (e *Engine) fitIf(ci int32, may bool) int {
	c := &e.conts[ci]
	if e.res.Checks >= e.maxChecks {
		e.stop = ReasonMaxChecks
		return fitDead
	}
	e.res.Checks++
	if !may {
		return fitNo
	}
	if e.res.Attempts >= e.maxAttempts {
		e.stop = ReasonMaxAttempts
		return fitDead
	}
	e.res.Attempts++
	if e.tx != nil {
		// A savepoint right before the placement: an undo then rolls the
		// model's own transactions back after the newer journal steps.
		e.save()
	}
	ok, err := e.model.Place(e.j, c.c.ID)
	switch {
	case err != nil:
		e.remove(ci)
		e.cerrs = append(e.cerrs, rankedError{ci, err})
		return fitDead
	case ok:
		return fitYes
	}
	return fitNo
}

// search looks for sets of open victims whose eviction lets contender ci
// fit: in each group (domain), cheapest first, it accumulates the victims
// eligible for ci until ci fits, then reprieves every one it can (see
// reprieve). It stops after SetCandidates sets or MaxSetGroups groups
// with eligible victims. When no group alone makes room, it accumulates
// across the groups it examined, cheapest victim first: once after the
// first two (a gang that needs two domains is then served at once, by
// that set), and at the end over all of them. The groups that made no
// room alone move to the end of the list, so that the next searches look
// at others first. The cheapest set found is left in e.best; search
// reports whether there is one, and e.cut whether a bound kept it from
// looking at every group. Nothing stays evicted.
func (e *Engine) search(ci int32) bool {
	e.best, e.cross, e.losers, e.failedGroups = e.best[:0], e.cross[:0], e.losers[:0], e.failedGroups[:0]
	e.pendFails, e.setFit, e.hopeless = e.pendFails[:0], false, false
	e.stamp++
	st := searchState{}
	for g := e.ghead; g >= 0; {
		gr := &e.groups[g]
		next := gr.next
		if gr.live == 0 || gr.stamp == e.stamp {
			g = next
			continue
		}
		if st.seen >= e.maxSetGroups || st.checks >= e.maxSetGroups*e.maxSetSize {
			st.cut = true
			break
		}
		gr.stamp = e.stamp
		if !e.searchGroup(ci, g, &st) {
			return false
		}
		if st.found >= e.setCandidates {
			break
		}
		if st.found == 0 && st.crossed == 0 && st.seen == 2 {
			// Two groups made no room alone: the contender may need room
			// in several (a gang); try them together once now.
			slices.Sort(e.cross) // victim order: cheapest first
			if st.crossed = st.seen; e.evaluate(ci, e.cross) {
				e.best = append(e.best[:0], e.set...)
				st.found++
				break
			}
			if e.stop != "" || e.conts[ci].gone {
				return false
			}
		}
		g = next
	}
	if st.found == 0 && st.seen > st.crossed && st.seen > 1 && e.evaluateAll(ci) {
		e.best = append(e.best[:0], e.set...)
		st.found++
	}
	if e.stop == "" && !e.conts[ci].gone {
		for _, g := range e.failedGroups {
			e.toBack(g)
		}
	}
	e.cut = st.found == 0 && (st.cut || st.truncated)
	// Hopeless: the CapacityBounder ruled ci out, or no set let ci fit and
	// the search tried every eligible victim (each group whole, and all of
	// them together).
	e.hopeless = e.never || !e.setFit && !st.cut && !st.truncated && !st.overflow
	e.setBounded = e.setBounded || e.cut
	return st.found > 0 && e.stop == "" && !e.conts[ci].gone
}

// evaluateAll evaluates the eligible victims of every group the search
// examined, cheapest first.
func (e *Engine) evaluateAll(ci int32) bool {
	slices.Sort(e.cross)
	return e.evaluate(ci, e.cross)
}

// chargeFails counts the last search's failed accumulations against their
// open victims' shares (MaxAttemptsPerVictim), unless the contender was
// hopeless: it did not fit even with every eligible victim evicted. Such a
// contender says nothing against the victims, and must not use up their
// shares before a contender that can be served.
func (e *Engine) chargeFails() {
	if e.hopeless || e.stop != "" {
		return
	}
	for _, k := range e.pendFails {
		if vs := &e.vs[k]; vs.status == vOpen {
			if vs.fails++; int(vs.fails) >= e.perVictim {
				e.giveUp(k, ReasonMaxVictimAttempts)
			}
		}
	}
}

// searchState is one set search's progress.
type searchState struct {
	found, seen, checks int
	crossed             int  // the groups seen when the search last accumulated across them
	truncated, cut      bool // a group, or the list, was not looked at whole
	overflow            bool // an eligible victim was left out of e.cross
	best                setCost
}

// searchGroup evaluates group g for contender ci: it keeps the set found
// if it is the cheapest so far, or notes that the group made no room.
// The victims the filters denied for ci leave the search's window (they
// count neither against MaxSetSize nor, when all of a group's are denied,
// against MaxSetGroups), and a group cut short by the window is looked at
// again without them. It returns false when the search must stop (a
// bound, or ci is gone).
func (e *Engine) searchGroup(ci, g int32, st *searchState) bool {
	for {
		if !e.eligibleIn(ci, e.members(g), &st.checks) {
			return false
		}
		if len(e.cand) == 0 {
			st.truncated = st.truncated || e.truncated
			return true
		}
		st.seen++
		e.addCross(e.cand, st)
		if e.evaluate(ci, e.cand) {
			st.truncated = st.truncated || e.truncated
			e.keep(st)
			return e.stop == "" && !e.conts[ci].gone
		}
		if e.stop != "" || e.conts[ci].gone {
			return false
		}
		nd := e.dropDenied(ci, st)
		if nd == 0 || !e.truncated {
			st.truncated = st.truncated || e.truncated
			e.failedGroups = append(e.failedGroups, g)
			return true
		}
	}
}

// addCross adds the victims of ks to the accumulation across groups.
func (e *Engine) addCross(ks []int32, st *searchState) {
	for _, k := range ks {
		if e.vs[k].stamp != e.stamp {
			if len(e.cross) >= e.maxSetSize {
				st.overflow = true // the accumulation across groups leaves it out
				continue
			}
			e.vs[k].stamp = e.stamp
			e.cross = append(e.cross, k)
		}
	}
}

// keep keeps the set in e.set if it is the cheapest found so far.
func (e *Engine) keep(st *searchState) {
	st.found++
	if cost := e.costOf(e.set); len(e.best) == 0 || compareSetCost(cost, st.best, e.cfg.VictimOrder != nil) < 0 {
		e.losers = append(e.losers, e.best...)
		e.best, st.best = append(e.best[:0], e.set...), cost
	} else {
		e.losers = append(e.losers, e.set...)
	}
}

// dropDenied takes the victims of e.cand the filters denied for ci out of
// the search's window and of e.cross, and returns how many there were; a
// group all of whose victims were denied does not count as seen.
func (e *Engine) dropDenied(ci int32, st *searchState) int {
	denied := func(k int32) bool { return e.vs[k].filterFor == ci+1 && !e.vs[k].filterOK }
	nd := 0
	for _, k := range e.cand {
		if denied(k) {
			nd++
		}
	}
	if nd == 0 {
		return 0
	}
	st.checks -= nd
	if nd == len(e.cand) {
		st.seen--
	}
	e.cross = slices.DeleteFunc(e.cross, denied)
	return nd
}

// eligibleIn collects into e.cand the open victims of ks that contender ci
// may use (CanContend; the filters are asked later, about the victims of a
// set that lets ci fit), at most MaxSetSize of them, and looks at no more
// than the search's MaxSetGroups·MaxSetSize (e.truncated says it stopped
// early). Every victim looked at is an examination; one that MaxChecksPerVictim
// examinations found not eligible (CanContend false, or a filter denied it
// for ci) is given up; eligible examinations do not count. It returns
// false when a bound stopped the pass.
func (e *Engine) eligibleIn(ci int32, ks []int32, checks *int) bool {
	c := &e.conts[ci].c
	e.cand, e.truncated = e.cand[:0], false
	for _, k := range ks {
		vs := &e.vs[k]
		if vs.status != vOpen {
			continue
		}
		if len(e.cand) >= e.maxSetSize || *checks >= e.maxSetGroups*e.maxSetSize {
			e.truncated = true
			break
		}
		if e.res.Checks >= e.maxChecks {
			e.stop = ReasonMaxChecks
			return false
		}
		e.res.Checks++
		denied := vs.filterFor == ci+1 && !vs.filterOK // a filter denied it for this contender: out of the window
		if !denied {
			*checks++
		}
		if !denied && e.canContend(&e.victims[e.known[k].victim], c) {
			e.cand = append(e.cand, k)
			continue
		}
		if vs.checks++; int(vs.checks) >= e.perVictimChecks {
			e.giveUp(k, ReasonMaxVictimChecks)
		}
	}
	return true
}

func (e *Engine) canContend(v *Victim, c *Contender) bool {
	if e.cfg.CanContend == nil {
		return c.Priority > v.Priority
	}
	return e.cfg.CanContend(v, c)
}

// denied records a filter's denial of victim vs for the contender of rank
// rank: the first denial in contender order gives the reason, the earliest
// Until the wake-up.
func (e *Engine) denied(vs *vstate, rank int32, d eligibility.Decision) {
	if vs.denyRank < 0 || rank < vs.denyRank {
		vs.denyRank, vs.deny = rank, cmp0(d.Reason, ReasonFiltered)
	}
	if !d.Until.IsZero() && (vs.denyUntil.IsZero() || d.Until.Before(vs.denyUntil)) {
		vs.denyUntil = instant(d.Until)
	}
}

func cmp0(r, def eligibility.Reason) eligibility.Reason {
	if r == "" {
		return def
	}
	return r
}

// evaluate finds in ks an irreducible set that lets contender ci fit and
// that the filters allow evicting for ci, leaves it in e.set and reports
// whether there is one; everything is rolled back. The filters are asked
// only about the victims of a set that lets ci fit (so a victim is skipped
// for its protection only when the protection is what keeps it running),
// at most once per victim and contender; a denied victim leaves ks and
// the search starts again without it. The victims reprieved from a set
// the filters denied are taken off e.losers again.
func (e *Engine) evaluate(ci int32, ks []int32) bool {
	e.evalKs = append(e.evalKs[:0], ks...) // ks (e.cand, e.cross) stays whole
	ks = e.evalKs
	reprieved := len(e.losers)
	for e.accumulate(ci, ks) {
		denied := false
		for _, k := range e.set {
			if !e.allowed(k, ci) {
				denied = true
			}
		}
		if !denied {
			return true
		}
		// The set may not serve ci, with or without the victims its
		// reprieve dropped: they lost to no cheaper set.
		e.losers = e.losers[:reprieved]
		ks = slices.DeleteFunc(ks, func(k int32) bool { return e.vs[k].filterFor == ci+1 && !e.vs[k].filterOK })
	}
	e.losers = e.losers[:reprieved]
	return false
}

// allowed asks the filters, once per contender, whether victim k may be
// evicted for contender ci, and records a denial.
func (e *Engine) allowed(k, ci int32) bool {
	vs := &e.vs[k]
	if vs.filterFor != ci+1 {
		d, ok := e.filter(&e.victims[e.known[k].victim], &e.conts[ci].c)
		vs.filterFor, vs.filterOK = ci+1, ok
		if !ok {
			e.denied(vs, ci, d)
			// The fit found with this victim evicted is rolled back.
			e.observe(e.known[k].job, e.conts[ci].c.ID, eligibility.Decision{Reason: ReasonRolledBack}, nil)
		}
	}
	return vs.filterOK
}

// accumulate evicts the victims of ks, in order, until contender ci fits;
// then it reprieves. It leaves the irreducible set in e.set and reports
// whether there is one; everything is rolled back. The victims of a failed
// accumulation are noted, to count it against their share (chargeFails).
func (e *Engine) accumulate(ci int32, ks []int32) bool {
	if (e.never || e.setBound != nil) && e.ruledOut(ci, ks) {
		return false
	}
	cp := e.save()
	e.set = e.set[:0]
	r := fitNo
	for _, k := range ks {
		if vs := &e.vs[k]; vs.status != vOpen || (vs.filterFor == ci+1 && !vs.filterOK) {
			continue
		}
		may := e.hint(e.known[k].job, ci)
		if !e.evict(k) {
			if e.stop != "" {
				break
			}
			continue
		}
		e.set = append(e.set, k)
		if r = e.fitIf(ci, may); r == fitNo {
			e.rolledBack(ci)
		}
		if r != fitNo {
			break
		}
	}
	e.undo(cp)
	for _, k := range e.set {
		e.vs[k].examined = true
	}
	if r == fitYes && e.stop == "" {
		e.setFit = true
		return e.reprieve(ci)
	}
	if r == fitNo && e.stop == "" {
		e.pendFails = append(e.pendFails, e.set...) // charged by the search's end
	}
	return false
}

// ruledOut settles an accumulation of the victims of ks that contender ci
// may use without a placement attempt when it cannot make room: always
// for a contender the CapacityBounder ruled out (e.never), otherwise when
// the set bound (SetFitBounder), asked once (one examination), says no
// eviction of them lets ci fit. A settled accumulation is settled as one
// that evicted them all in vain would be (its victims examined, its
// failure noted against their shares, one rolled-back event naming its
// last victim), and ruledOut reports true; also when a bound stopped the
// pass.
func (e *Engine) ruledOut(ci int32, ks []int32) bool {
	ids, set := e.boundIDs[:0], e.set[:0]
	for _, k := range ks {
		if vs := &e.vs[k]; vs.status == vOpen && (vs.filterFor != ci+1 || vs.filterOK) {
			set = append(set, k)
			if !e.never {
				ids = append(ids, e.known[k].job)
			}
		}
	}
	e.set = set
	switch {
	case len(set) == 0:
		return false
	case e.never:
		if !e.tryEvict() {
			return true
		}
	default:
		if e.res.Checks >= e.maxChecks {
			e.stop = ReasonMaxChecks
			return true
		}
		e.res.Checks++
		may := e.setBound.MayFitAfter(ids, e.conts[ci].c.ID)
		clear(ids)
		e.boundIDs = ids[:0]
		if !may {
			break
		}
		return false
	}
	for _, k := range e.set {
		e.vs[k].examined = true
	}
	e.pendFails = append(e.pendFails, e.set...) // charged by the search's end
	if len(e.set) > 0 {
		e.rolledBack(ci) // one event for the settled set (tryEvict may have closed them all)
	}
	return true
}

// tryEvict evicts, in order, the victims of e.set not yet evicted without
// error in this pass, and rolls it all back: an accumulation for a
// contender the CapacityBounder ruled out meets the Evict errors the
// accumulation that evicts them would meet (the victim skipped with
// ReasonEvictError), and only those. It leaves in e.set the victims still
// open, and reports false when a bound stopped the pass.
func (e *Engine) tryEvict() bool {
	i := slices.IndexFunc(e.set, func(k int32) bool { return !e.vs[k].evictable })
	if i < 0 {
		return true // every one was evicted before: nothing to meet
	}
	cp, ok, closed := e.save(), true, false
	for _, k := range e.set[i:] {
		if vs := &e.vs[k]; !vs.evictable && !e.evict(k) {
			closed = true
			if e.stop != "" {
				ok = false
				break
			}
		}
	}
	e.undo(cp)
	if closed {
		e.set = slices.DeleteFunc(e.set, func(k int32) bool { return e.vs[k].status != vOpen })
	}
	return ok
}

// evict evicts victim k (an examination); an Evict error rolls the
// partial changes back and skips the victim with ReasonEvictError.
func (e *Engine) evict(k int32) bool {
	if e.res.Checks >= e.maxChecks {
		e.stop = ReasonMaxChecks
		return false
	}
	e.res.Checks++
	before := e.save()
	err := e.model.Evict(e.j, e.known[k].job)
	if err == nil {
		e.vs[k].evictable = true
		return true
	}
	e.undo(before)
	if e.vs[k].status == vOpen {
		o := e.outcome(k)
		o.Kind, o.Reason, o.Err = OutcomeSkipped, ReasonEvictError, err
		e.close(k, vDecided)
		e.emit(o)
	}
	return false
}

// rolledBack reports a fit test of contender ci that failed, after the
// eviction of the last victim of e.set.
func (e *Engine) rolledBack(ci int32) {
	if e.cfg.Observer != nil {
		job := ""
		if len(e.set) > 0 {
			job = e.known[e.set[len(e.set)-1]].job
		}
		e.observe(job, e.conts[ci].c.ID, eligibility.Decision{Reason: ReasonRolledBack}, nil)
	}
}

// reprieve makes e.set, which lets contender ci fit, irreducible: most
// expensive first, it drops every victim without which ci still fits,
// until a whole round drops none. So every victim of the final set was
// tested against that very set: with it kept, ci does not fit (first-fit
// placement need not be monotone, so a victim found necessary once is
// tested again after a drop). The last victim accumulated needs no test in
// the first round: the set without it is what was tried just before it.
// O(s²) evictions for a set of s victims per round.
func (e *Engine) reprieve(ci int32) bool {
	known := len(e.set) - 1
	for len(e.set) > 1 {
		dropped := false
		for i := len(e.set) - 1; i >= 0 && len(e.set) > 1; i-- {
			if i == known {
				continue
			}
			switch e.fitsWithout(ci, i) {
			case fitDead:
				return false
			case fitYes:
				e.losers = append(e.losers, e.set[i])
				e.set = slices.Delete(e.set, i, i+1)
				dropped = true
			}
		}
		if !dropped {
			break
		}
		known = -1
	}
	return true
}

// fitsWithout tests whether contender ci fits with every victim of e.set
// but the i-th evicted, and rolls it all back.
func (e *Engine) fitsWithout(ci int32, i int) int {
	cp := e.save()
	r, may := fitNo, true
	last := len(e.set) - 1
	if last == i {
		last--
	}
	for j, k := range e.set {
		if j == i {
			continue
		}
		if j == last {
			may = e.hint(e.known[k].job, ci)
		}
		if !e.evict(k) {
			r = fitDead
			if e.stop == "" {
				r = fitNo // the victim is gone: this set cannot be committed
			}
			break
		}
	}
	if r == fitNo {
		if r = e.fitIf(ci, may); r == fitNo {
			e.rolledBack(ci)
		}
	}
	e.undo(cp)
	return r
}

// apply commits the set in e.best for contender ci: it evicts the set,
// places ci, commits, and emits the victims' outcomes; then it places what
// fits in the room left. It reports whether ci was placed.
func (e *Engine) apply(ci int32) bool {
	if e.cfg.MaxVictims > 0 && e.res.Commits+len(e.best) > e.cfg.MaxVictims {
		e.stop = ReasonMaxVictims
		return false
	}
	cp := e.save()
	for _, k := range e.best {
		if !e.evict(k) {
			e.undo(cp)
			return false
		}
	}
	if e.fitIf(ci, true) != fitYes { // the search found that it fits
		e.undo(cp)
		return false
	}
	c := &e.conts[ci]
	e.remove(ci)
	e.commit()
	e.newState()
	e.res.Commits += len(e.best)
	e.res.Sets++
	e.emitSet(c.c.ID)
	for _, k := range e.losers {
		e.vs[k].cheaper = true
	}
	e.after = e.known[e.best[0]].job
	if e.stop == "" {
		e.fill(e.after)
	}
	return true
}

// emitSet emits the committed outcomes of the victims in e.best, evicted
// for contender id.
func (e *Engine) emitSet(id string) {
	n := len(e.best)
	ids := make([]string, n+1+n*(n-1))
	ids[0] = id
	for i, k := range e.best {
		ids[1+i] = e.known[k].job
	}
	with := ids[n+1:]
	for i, k := range e.best {
		o := e.outcome(k)
		o.Kind, o.Allowed, o.Reason = OutcomeCommitted, true, ReasonCommitted
		o.Contenders = ids[0:1:1]
		if n > 1 {
			w := with[: 0 : n-1]
			w = append(w, ids[1:1+i]...)
			w = append(w, ids[2+i:1+n]...)
			o.With, with = w, with[n-1:]
		}
		vs := &e.vs[k]
		o.NotBefore, o.Annotation = vs.notBefore, eligibility.FormatNotBefore(vs.notBefore)
		e.close(k, vCommitted)
		e.emit(o)
	}
}
