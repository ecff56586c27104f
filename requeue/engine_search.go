package requeue

import (
	"slices"

	"github.com/tenurepolicy/tenure/eligibility"
)

// The result of a fit test.
const (
	fitNo   = iota // the contender does not fit
	fitYes         // it fits
	fitDead        // the contender is gone (Place failed), or a bound stopped the search or the pass
)

// serve looks for room for contender ci: as things are, then by a set
// search; it commits what it finds. Step 3 of Run.
func (e *Engine) serve(ci int32) {
	c := &e.conts[ci]
	c.tried = true
	e.searching, e.over, e.shareEnd = true, false, e.res.Checks+max(1, (e.maxChecks-e.res.Checks)/max(1, e.left-e.behind))
	defer func() { e.searching = false }()
	if key := e.classOf(ci); e.stackFull && e.stackClass == key {
		// Every victim ci may use is evicted already (a search of its
		// class found no set in this state): one fit test tells whether a
		// set exists.
		switch e.fit(ci, false) {
		case fitDead:
			e.searchEnded(ci)
			return
		case fitNo:
			e.rolledBack(ci)
			e.res.NoSet++
			return
		}
	}
	e.popTo(0)
	if c.freeAt != e.state {
		// Not tested as things are in this state (the round of placements
		// without eviction did not reach it): try that first.
		switch e.fit(ci, true) {
		case fitYes:
			e.remove(ci)
			e.commit()
			e.newState()
			e.freeFit(c.c.ID, e.after)
			return
		case fitDead:
			e.searchEnded(ci)
			return
		}
	}
	e.search(ci)
}

// searchEnded accounts for a search that ended without a decision: the
// contender is gone, the pass stopped, or the search reached its share,
// whose victims are then deferred unless something else decides them.
func (e *Engine) searchEnded(ci int32) {
	if e.stop != "" || e.conts[ci].gone || !e.over {
		return
	}
	reached := len(e.elig) // the victims the search itself reached
	if e.hopeless(ci) {
		e.noSet(ci)
		return
	}
	if e.stop != "" || e.conts[ci].gone {
		return
	}
	e.res.OverShare++
	for _, k := range e.elig[:reached] {
		e.vs[k].cut = true
	}
}

// hopeless tests contender ci, whose search reached its share, with every
// victim of its class evicted (those its filters deny included), at the
// pass's expense rather than the search's: a contender that does not fit then fits with no subset of
// them (for a monotone Place), and the next ones of its class are tested
// against the same stack. It reports whether ci does not fit; the stack
// then holds ci's list (e.elig) and its denials. Once per class and pass:
// rebuilt after every commit, the stack would cost O(victims) per commit.
func (e *Engine) hopeless(ci int32) bool {
	key := e.classOf(ci)
	if key < 0 || slices.Contains(e.topClasses, key) {
		return false
	}
	e.topClasses = append(e.topClasses, key)
	e.searching, e.over = false, false // the pass pays
	if !e.stackIsPrefix {
		e.popTo(0)
	}
	for !e.done && e.nextEligible(ci) {
	}
	if !e.extendTo(ci, len(e.elig)) || e.stop != "" {
		return false
	}
	n := len(e.stack)
	if !e.pushAll(e.denials) {
		return false
	}
	e.stackFull, e.stackClass = true, key
	switch e.fit(ci, false) {
	case fitNo:
		e.rolledBack(ci)
		e.popTo(n) // noSet evicts the denials again, in order
		return true
	case fitYes:
		return false
	}
	e.stackFull = false
	return false
}

// The end of a gallop.
const (
	gallopFound   = iota // a prefix of the eligible list lets the contender fit
	gallopNone           // none does: not even the whole list
	gallopEnded          // a bound stopped it, or the contender is gone
	gallopRestart        // an Evict error changed the list under way
)

// search looks for an irreducible set of the victims contender ci may use
// whose eviction lets ci fit (see the package doc), and commits it.
func (e *Engine) search(ci int32) {
	for {
		e.popTo(0)
		e.elig, e.denials, e.scan, e.done = e.elig[:0], e.denials[:0], 0, false
		e.stackIsPrefix = true
		lo, hi, r := e.gallop(ci, 0)
		switch r {
		case gallopRestart:
			continue
		case gallopEnded:
			e.searchEnded(ci)
			return
		case gallopNone:
			e.noSet(ci)
			return
		}
		e.stackIsPrefix = false // the reduction leaves the list's order
		switch r := e.reduce(ci, lo, hi); {
		case r == gallopRestart:
			continue
		case r != gallopFound:
			e.searchEnded(ci)
			return
		}
		if e.cfg.MaxLostWork > 0 && e.lostWork(e.set) > e.cfg.MaxLostWork {
			for _, k := range e.set {
				e.vs[k].lost = true
			}
			e.res.OverCap++
			return
		}
		// The set's last victim ends the shortest prefix that lets ci fit
		// (for a monotone Place): the victims below it were looked at,
		// and the denied ones among them kept ci from a cheaper set.
		last := e.set[len(e.set)-1]
		e.recordDenials(ci, last+1)
		for _, k := range e.elig[:hi] {
			if k < last {
				e.vs[k].cheaper = true // the set's own victims are committed below
			}
		}
		e.apply(ci)
		return
	}
}

// noSet ends a search that found no set: every victim ci may use, evicted,
// does not let it fit. Its victims were examined in vain (no_fit). The
// victims the filters denied for ci are then evicted too, in victim
// order: when some of them would let ci fit, their protection is what
// keeps ci waiting, and the shortest such prefix of them is recorded as
// denied (skipped with the filter's reason and Until); the others were
// examined in vain too. With all of them evicted, the stack holds every
// victim of ci's class: the next contenders of the class are tested
// against it (a contender that does not fit with all of them evicted fits
// with no subset of them, for a monotone Place).
func (e *Engine) noSet(ci int32) {
	e.res.NoSet++
	for _, k := range e.elig {
		e.vs[k].examined = true
	}
	if len(e.denials) > 0 {
		base := len(e.stack) // every allowed victim, evicted
		e.elig = append(e.elig[:base], e.denials...)
		lo, hi, r := e.gallop(ci, base)
		if r == gallopFound {
			var p int
			if p, r = e.shortest(ci, lo, hi); r == gallopFound {
				e.recordDenials(ci, e.elig[p-1]+1)
			}
		}
		for _, k := range e.denials {
			e.vs[k].examined = true
		}
		if r == gallopEnded || r == gallopRestart || !e.extendTo(ci, len(e.elig)) {
			e.popTo(0)
			return
		}
	}
	if key := e.classOf(ci); key >= 0 {
		e.stackFull, e.stackClass = true, key
	}
}

// recordDenials records the filters' denials for ci of the victims its
// search passed over that come before rank end in victim order: the
// cheapest victims whose eviction lets ci fit would have held them but for
// their protection.
func (e *Engine) recordDenials(ci, end int32) {
	for _, k := range e.denials {
		if k < end {
			vs := &e.vs[k]
			e.denied(vs, ci, vs.verdict)
			e.observe(e.known[k].job, e.conts[ci].c.ID, eligibility.Decision{Reason: reasonRolledBack}, nil)
		}
	}
}

// gallop finds a prefix of ci's eligible list whose eviction lets ci fit,
// given that ci does not fit with its first lo victims evicted (lo = 0:
// as things are): it evicts the list in order, testing the fit after
// lo+1, lo+2, lo+4, … victims and at the end. It returns the last size
// tested in vain and the first that fitted (the first hi victims stay
// evicted): O(p) evictions and O(log p) fit tests for a shortest fitting
// prefix of p.
func (e *Engine) gallop(ci int32, lo int) (int, int, int) {
	from := lo
	for step := 1; ; step *= 2 {
		if !e.extendTo(ci, from+step) {
			return 0, 0, gallopEnded
		}
		got := len(e.stack)
		if got == lo {
			return 0, 0, gallopNone
		}
		switch e.fit(ci, false) {
		case fitDead:
			return 0, 0, gallopEnded
		case fitYes:
			return lo, got, gallopFound
		}
		e.rolledBack(ci)
		lo = got
		if e.done && got == len(e.elig) {
			return 0, 0, gallopNone
		}
	}
}

// shortest halves the interval a gallop left, (lo, hi], down to the
// shortest prefix of ci's eligible list that lets ci fit (for a monotone
// Place): O(log(hi-lo)) fit tests and O(hi-lo) evictions.
func (e *Engine) shortest(ci int32, lo, hi int) (int, int) {
	errs := e.evictErrs
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		e.popTo(mid)
		if !e.extendTo(ci, mid) {
			return 0, gallopEnded
		}
		if e.evictErrs != errs {
			return 0, gallopRestart
		}
		switch e.fit(ci, false) {
		case fitDead:
			return 0, gallopEnded
		case fitYes:
			hi = mid
		default:
			e.rolledBack(ci)
			lo = mid
		}
	}
	return hi, gallopFound
}

// extendTo evicts the next victims of ci's eligible list, finding them as
// needed, until the stack holds n of them or the list ends. A victim
// whose Evict fails is skipped with ReasonEvictError and leaves the list.
// It reports false when a bound stopped the search or the pass.
func (e *Engine) extendTo(ci int32, n int) bool {
	for len(e.stack) < n {
		i := len(e.stack)
		if i == len(e.elig) && !e.nextEligible(ci) {
			return e.stop == "" && !e.over
		}
		if !e.push(e.elig[i]) {
			if e.stop != "" || e.over {
				return false
			}
			e.elig = slices.Delete(e.elig, i, i+1)
		}
	}
	return true
}

// reduce finds in the first hi victims of ci's eligible list, which let ci
// fit when the first lo do not, an irreducible set, and leaves it in
// e.set: group testing (QuickXplain, Junker 2004) narrows the hi victims
// down, then every victim of the set is tested once more against the set
// itself (reprieve). It returns gallopFound, gallopEnded or gallopRestart.
func (e *Engine) reduce(ci int32, lo, hi int) int {
	errs := e.evictErrs
	e.set = e.set[:0]
	ok := e.qxSplit(ci, lo, hi)
	slices.Sort(e.set) // victim order
	if ok {
		ok = e.reprieve(ci, hi)
	}
	e.popTo(0)
	switch {
	case e.evictErrs != errs:
		return gallopRestart
	case !ok:
		return gallopEnded
	}
	return gallopFound
}

// qxSplit is qx over the first hi victims of ci's eligible list split at
// lo rather than in halves: the gallop left the first hi evicted and
// found that the first lo do not let ci fit, so the first level needs no
// eviction and no test. It leaves the stack empty.
func (e *Engine) qxSplit(ci int32, lo, hi int) bool {
	if lo == 0 {
		e.popTo(0)
		return e.qx(ci, e.elig[:hi])
	}
	e.popTo(lo)
	if !e.qx(ci, e.elig[lo:hi]) { // what the dearer part must give
		return false
	}
	e.popTo(0)
	if !e.pushAll(e.set) {
		return false
	}
	switch e.fit(ci, false) {
	case fitDead:
		return false
	case fitYes:
		e.popTo(0)
		return true
	}
	e.rolledBack(ci)
	ok := e.qx(ci, e.elig[:lo]) // what the cheaper part must add
	e.popTo(0)
	return ok
}

// qx appends to e.set a subset S of cs such that ci fits with the stack
// and S evicted, given that it fits with the stack and cs evicted and not
// with the stack alone; for a Place monotone in the victims evicted, ci
// does not fit with any one of S kept. It looks in the cheaper half
// first, so S holds the cheapest victims it can. O(k·log(len(cs)/k)) fit
// tests for a set of k. It leaves the stack as it found it, or reports
// false (a bound, ci gone, an Evict error).
func (e *Engine) qx(ci int32, cs []int32) bool {
	if len(cs) == 1 {
		e.set = append(e.set, cs[0])
		return true
	}
	base, h := len(e.stack), len(cs)/2
	if !e.pushAll(cs[:h]) {
		return false
	}
	switch e.fit(ci, false) {
	case fitDead:
		return false
	case fitYes: // the cheaper half is enough
		e.popTo(base)
		return e.qx(ci, cs[:h])
	}
	e.rolledBack(ci)
	from := len(e.set)
	if !e.qx(ci, cs[h:]) { // what the expensive half must give, with the cheaper half evicted
		return false
	}
	e.popTo(base)
	if !e.pushAll(e.set[from:]) {
		return false
	}
	switch e.fit(ci, false) {
	case fitDead:
		return false
	case fitYes: // that alone is enough
		e.popTo(base)
		return true
	}
	e.rolledBack(ci)
	ok := e.qx(ci, cs[:h]) // what the cheaper half must add to it
	e.popTo(base)
	return ok
}

// reprieve makes sure the set in e.set lets ci fit and is irreducible even
// when Place is not monotone: it tests the set, and falls back to the
// first p eligible victims (which fitted) when it does not fit; then, most
// expensive first, it drops every victim without which ci still fits,
// until a whole round drops none (kube-scheduler's reprieve). So every
// victim of the final set was tested against that very set: with it
// kept, ci does not fit. A set of one victim needs no round: ci does not
// fit as things are. O(s²) evictions for a set of s.
func (e *Engine) reprieve(ci int32, p int) bool {
	if len(e.set) > 1 || p > 1 {
		switch e.fitsWith(ci, -1) {
		case fitDead:
			return false
		case fitNo:
			e.set = append(e.set[:0], e.elig[:p]...)
		}
	}
	for len(e.set) > 1 {
		dropped := false
		for i := len(e.set) - 1; i >= 0 && len(e.set) > 1; i-- {
			switch e.fitsWith(ci, i) {
			case fitDead:
				return false
			case fitYes:
				e.set = slices.Delete(e.set, i, i+1)
				dropped = true
			}
		}
		if !dropped {
			break
		}
	}
	return true
}

// fitsWith tests whether ci fits with every victim of e.set but the i-th
// (i < 0: all of them) evicted, and pops the stack back to empty.
func (e *Engine) fitsWith(ci int32, i int) int {
	e.popTo(0)
	e.tmp = append(e.tmp[:0], e.set...)
	if i >= 0 {
		e.tmp = slices.Delete(e.tmp, i, i+1)
	}
	if !e.pushAll(e.tmp) {
		e.popTo(0)
		return fitDead
	}
	r := e.fit(ci, false)
	if r == fitNo {
		e.rolledBack(ci)
	}
	e.popTo(0)
	return r
}

// apply commits the set in e.set for contender ci: it evicts the set,
// places ci, commits, and emits the victims' outcomes.
func (e *Engine) apply(ci int32) {
	if e.cfg.MaxVictims > 0 && e.res.Commits+len(e.set) > e.cfg.MaxVictims {
		e.stop = reasonMaxVictims
		return
	}
	e.popTo(0)
	e.searching = false // the set is found: committing it is not the search's cost
	if !e.pushAll(e.set) || e.fit(ci, true) != fitYes {
		e.popTo(0)
		return
	}
	c := &e.conts[ci]
	e.stack = e.stack[:0] // kept: the commit below makes it the base
	e.remove(ci)
	e.commit()
	e.newState()
	e.res.Commits += len(e.set)
	e.res.Sets++
	pos, _ := slices.BinarySearch(e.elig, e.set[len(e.set)-1]) // the list is in victim order
	e.floor += pos + 1
	e.emitSet(c.c.ID)
	e.after = e.known[e.set[0]].job
}

// emitSet emits the committed outcomes of the victims in e.set, evicted
// for contender id.
func (e *Engine) emitSet(id string) {
	n := len(e.set)
	ids := make([]string, n+1+n*(n-1))
	ids[0] = id
	for i, k := range e.set {
		ids[1+i] = e.known[k].job
	}
	with := ids[n+1:]
	for i, k := range e.set {
		o := e.outcome(k)
		o.Kind, o.Allowed, o.Reason = OutcomeCommitted, true, reasonCommitted
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

// rolledBack reports a fit test of contender ci that failed, with the
// victim evicted last ("" for none).
func (e *Engine) rolledBack(ci int32) {
	if e.cfg.Observer != nil {
		job := ""
		if n := len(e.stack); n > 0 {
			job = e.known[e.stack[n-1].k].job
		}
		e.observe(job, e.conts[ci].c.ID, eligibility.Decision{Reason: reasonRolledBack}, nil)
	}
}
