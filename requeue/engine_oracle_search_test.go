package requeue_test

import (
	"cmp"
	"slices"

	"github.com/tenurepolicy/tenure/eligibility"
	"github.com/tenurepolicy/tenure/requeue"
	"github.com/tenurepolicy/tenure/requeue/cluster"
)

// The oracle's set search, step by step as the engine documents it.

// serve looks for a set for cn and commits the cheapest found.
func (o *oracle) serve(cn requeue.Contender) {
	var best, losers []int
	var bestCost [3]float64
	var cross []int
	inCross := map[int]bool{}
	found, seen, checks := 0, 0, 0
	truncated := false
	cut, crossed := false, 0
	overflow := false
	var failed []int
	o.pend, o.setFit = nil, false
	for _, g := range slices.Clone(o.order) {
		if !o.live(g) {
			continue
		}
		if seen >= o.G || checks >= o.G*o.S {
			cut = true
			break
		}
		// The group, looked at again while the filters' denials free
		// room in the window: denied victims count neither against it nor
		// (all of a group's denied) as a group seen.
		var set []int
		ok, empty := false, false
		for {
			cand, cut := o.eligible(g, cn, &checks)
			if len(cand) == 0 {
				truncated, empty = truncated || cut, true
				break
			}
			seen++
			for _, k := range cand {
				if !inCross[k] && len(cross) >= o.S {
					overflow = true
				} else if !inCross[k] {
					inCross[k] = true
					cross = append(cross, k)
				}
			}
			var dropped []int
			set, dropped, ok = o.evaluate(cn, cand)
			losers = append(losers, dropped...)
			if o.gone[cn.ID] {
				return
			}
			if ok {
				truncated = truncated || cut
				break
			}
			denied := func(k int) bool { return o.denied(k, cn) }
			nd := 0
			for _, k := range cand {
				if denied(k) {
					nd++
				}
			}
			if nd > 0 {
				checks -= nd
				if nd == len(cand) {
					seen--
				}
				cross = slices.DeleteFunc(cross, denied)
			}
			if nd == 0 || !cut {
				truncated = truncated || cut
				break
			}
		}
		if empty {
			continue
		}
		if !ok {
			failed = append(failed, g)
			if found == 0 && crossed == 0 && seen == 2 {
				crossed = seen
				slices.Sort(cross)
				set, dropped, ok := o.evaluate(cn, cross)
				losers = append(losers, dropped...)
				if o.gone[cn.ID] {
					return
				}
				if ok {
					best, found = set, 1
					break
				}
			}
			continue
		}
		found++
		if c := o.cost(set); best == nil || compareCost(c, bestCost) < 0 {
			losers = append(losers, best...)
			best, bestCost = set, c
		} else {
			losers = append(losers, set...)
		}
		if found >= o.K {
			break
		}
	}
	if found == 0 && seen > crossed && seen > 1 {
		slices.Sort(cross)
		set, dropped, ok := o.evaluate(cn, cross)
		losers = append(losers, dropped...)
		if ok {
			best, found = set, 1
		}
	}
	if found == 0 && (cut || truncated) {
		o.bounded = true
	}
	if !o.gone[cn.ID] {
		// The groups that made no room go to the end of the list.
		for _, g := range failed {
			if o.live(g) {
				i := slices.Index(o.order, g)
				o.order = append(slices.Delete(o.order, i, i+1), g)
			}
		}
	}
	if o.gone[cn.ID] {
		return
	}
	if found > 0 {
		o.apply(cn, best, losers)
	}
	if o.stop != "" {
		return
	}
	// The failed accumulations count against their open victims' shares,
	// unless the capacity bound ruled cn out, or no set let cn fit though
	// every eligible victim was tried.
	hopeless := o.never != nil && o.never(cn.ID) || !o.setFit && !cut && !truncated && !overflow
	for _, k := range o.pend {
		if nv := o.vs[k]; nv.open && !hopeless {
			if nv.fails++; nv.fails >= o.perV {
				o.giveUp(k, requeue.ReasonMaxVictimAttempts)
			}
		}
	}
}

// eligible returns the open victims of group g that cn may use, at most
// S of them and within the search's G·S looks (cut says it stopped
// early); a victim found not eligible (denied or CanContend false) too
// often is given up; eligible looks do not count.
func (o *oracle) eligible(g int, cn requeue.Contender, checks *int) (cand []int, cut bool) {
	for _, k := range o.groups[g].members {
		nv := o.vs[k]
		if !nv.open {
			continue
		}
		if len(cand) >= o.S || *checks >= o.G*o.S {
			return cand, true
		}
		if !o.denied(k, cn) {
			*checks++ // a denied victim is out of the window
		}
		if !o.denied(k, cn) && o.canContend(&nv.v, &cn) {
			cand = append(cand, k)
			continue
		}
		if nv.checks++; nv.checks >= o.perCheck {
			o.giveUp(k, requeue.ReasonMaxVictimChecks)
		}
	}
	return cand, false
}

// cost is a set's cost: lost work, highest priority, minus total overrun;
// with a custom victim order: lost work, then the rank of its last victim
// in that order.
func (o *oracle) cost(set []int) [3]float64 {
	c := [3]float64{0, -1 << 31, 0}
	for _, k := range set {
		c[0] += o.vs[k].cost
		if o.cfg.VictimOrder != nil {
			c[1] = max(c[1], float64(k))
			continue
		}
		c[1] = max(c[1], float64(o.vs[k].v.Priority))
		c[2] -= o.vs[k].overrun.Hours()
	}
	return c
}

func compareCost(a, b [3]float64) int {
	return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1]), cmp.Compare(a[2], b[2]))
}

// evaluate accumulates, reprieves, asks the filters about the set found,
// and starts again without the denied victims.
func (o *oracle) evaluate(cn requeue.Contender, ks []int) (set, dropped []int, ok bool) {
	ks = slices.Clone(ks)
	for {
		set, d, ok := o.accumulate(cn, ks)
		if !ok {
			return nil, nil, false
		}
		denied := false
		for _, k := range set {
			if !o.allowed(k, cn) {
				denied = true
			}
		}
		if !denied {
			// Only a set the filters allow makes its reprieved victims
			// losers to a cheaper set.
			return set, d, true
		}
		ks = slices.DeleteFunc(ks, func(k int) bool { return o.denied(k, cn) })
	}
}

// evictAll evicts the victims of set from a copy of the current state; an
// Evict error decides the victim. It returns nil on an error.
func (o *oracle) evictAll(set []int) *cluster.Model {
	trial := o.cur.Clone()
	for _, k := range set {
		if err := trial.Evict(nil, o.vs[k].v.ID); err != nil {
			o.evictError(k, err)
			return nil
		}
	}
	return trial
}

func (o *oracle) evictError(k int, err error) {
	nv := o.vs[k]
	if nv.open {
		nv.open = false
		o.res.Outcomes = append(o.res.Outcomes, requeue.Outcome{Job: nv.v.ID, Nominators: nv.nominators, Kind: requeue.OutcomeSkipped,
			Decision: eligibility.Decision{Reason: requeue.ReasonEvictError}, Err: err})
	}
}

// accumulate evicts the victims of ks in order until cn fits, then
// reprieves every victim it can, most expensive first, until a round drops
// none.
func (o *oracle) accumulate(cn requeue.Contender, ks []int) (set, dropped []int, ok bool) {
	trial := o.cur.Clone()
	fit := false
	for _, k := range ks {
		if !o.vs[k].open || o.denied(k, cn) {
			continue
		}
		if err := trial.Evict(nil, o.vs[k].v.ID); err != nil {
			o.evictError(k, err)
			trial = o.evictAll(set) // undo the failed eviction's partial changes
			continue
		}
		set = append(set, k)
		if o.place(trial, cn) != nil {
			fit = true
			break
		}
		if o.gone[cn.ID] {
			break
		}
	}
	for _, k := range set {
		o.vs[k].examined = true
	}
	if o.gone[cn.ID] {
		return nil, nil, false
	}
	if !fit {
		o.pend = append(o.pend, set...)
		return nil, nil, false
	}
	o.setFit = true
	known := len(set) - 1
	for len(set) > 1 {
		drop := false
		for i := len(set) - 1; i >= 0 && len(set) > 1; i-- {
			if i == known {
				continue
			}
			without := append(slices.Clone(set[:i]), set[i+1:]...)
			if m := o.evictAll(without); m != nil && o.place(m, cn) != nil {
				dropped = append(dropped, set[i])
				set, drop = without, true
			}
		}
		if !drop {
			break
		}
		known = -1
	}
	return set, dropped, true
}

// apply commits set for cn.
func (o *oracle) apply(cn requeue.Contender, set, losers []int) {
	if o.cfg.MaxVictims > 0 && o.res.Commits+len(set) > o.cfg.MaxVictims {
		o.stop = requeue.ReasonMaxVictims
		return
	}
	m := o.evictAll(set)
	if m == nil {
		return
	}
	next := o.place(m, cn)
	if next == nil {
		return
	}
	o.cur, o.gone[cn.ID] = next, true
	o.res.Commits += len(set)
	o.res.Sets++
	for i, k := range set {
		nv := o.vs[k]
		var with []string
		for j, k2 := range set {
			if j != i {
				with = append(with, o.vs[k2].v.ID)
			}
		}
		o.res.Outcomes = append(o.res.Outcomes, requeue.Outcome{Job: nv.v.ID, Nominators: nv.nominators, Kind: requeue.OutcomeCommitted,
			Decision: eligibility.Decision{Allowed: true, Reason: requeue.ReasonCommitted}, Contenders: []string{cn.ID}, With: with,
			NotBefore: nv.notBefore, Annotation: eligibility.FormatNotBefore(nv.notBefore)})
		nv.open = false
	}
	for _, k := range losers {
		o.vs[k].cheaper = true
	}
	o.after = o.vs[set[0]].v.ID
	o.fill(o.after)
}

// finish decides the victims still open.
func (o *oracle) finish() {
	for _, nv := range o.vs {
		if !nv.open {
			continue
		}
		out := requeue.Outcome{Job: nv.v.ID, Nominators: nv.nominators}
		switch {
		case o.stop != "":
			out.Kind, out.Reason = requeue.OutcomeDeferred, o.stop
		case nv.denyRank >= 0:
			out.Kind, out.Reason, out.Until = requeue.OutcomeSkipped, nv.deny, nv.denyUntil
		case nv.cheaper:
			out.Kind, out.Reason = requeue.OutcomeKept, requeue.ReasonCheaperSet
		case nv.examined:
			out.Kind, out.Reason = requeue.OutcomeKept, requeue.ReasonNoFit
		case o.bounded:
			out.Kind, out.Reason = requeue.OutcomeDeferred, requeue.ReasonSetSearchBound
		default:
			out.Kind, out.Reason = requeue.OutcomeKept, requeue.ReasonNoContender
		}
		o.res.Outcomes = append(o.res.Outcomes, out)
	}
}
