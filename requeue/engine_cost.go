package requeue

import (
	"cmp"
	"math"
	"time"
)

// defaultVictimCost is the cost rule of a nil [EngineConfig.VictimCost]:
// a Start after now (clock skew) costs 0, as much as a victim started at
// now, never less. O(1), no allocation.
func defaultVictimCost(now time.Time, v *Victim) float64 {
	r := v.Resources
	if !(r > 0) || math.IsInf(r, 1) { // 0, negative, NaN; +Inf is kept out of 0·Inf
		r = 1
	}
	since := v.Start
	if v.LastCheckpoint.After(since) && !v.LastCheckpoint.After(now) {
		since = v.LastCheckpoint
	}
	if since.IsZero() {
		return math.Inf(1)
	}
	d := now.Sub(since)
	if d <= 0 {
		return 0
	}
	return r * d.Hours()
}

// victimCost is the configured cost of v, NaN read as +Inf so that costs
// are totally ordered.
func (e *Engine) victimCost(v *Victim) float64 {
	f := e.cfg.VictimCost
	if f == nil {
		f = defaultVictimCost
	}
	c := f(e.now, v)
	if math.IsNaN(c) {
		return math.Inf(1)
	}
	return c
}

// setCost is what the engine compares sets by: the work they lose (the sum
// of the victims' costs), then, with the default victim order, the highest
// priority among them (lower first), then their total overrun in hours
// (larger first); with a custom [EngineConfig.VictimOrder], the rank of
// their last victim in that order (earlier first).
type setCost struct {
	work    float64
	prio    int32
	overrun float64
	last    int32 // the largest victim rank (Engine.known order)
}

// compareSetCost orders set costs, cheapest first; a NaN sum (a custom
// rule's -Inf added to +Inf) compares as +Inf. byRank breaks ties of work
// by the victim order (a custom VictimOrder), not by priority and overrun.
func compareSetCost(a, b setCost, byRank bool) int {
	aw, bw := a.work, b.work
	if math.IsNaN(aw) {
		aw = math.Inf(1)
	}
	if math.IsNaN(bw) {
		bw = math.Inf(1)
	}
	if byRank {
		return cmp.Or(cmp.Compare(aw, bw), cmp.Compare(a.last, b.last))
	}
	return cmp.Or(cmp.Compare(aw, bw), cmp.Compare(a.prio, b.prio), cmp.Compare(b.overrun, a.overrun))
}

// costOf returns the cost of the set of victim ranks s. O(len(s)).
func (e *Engine) costOf(s []int32) setCost {
	c := setCost{prio: math.MinInt32, last: -1}
	for _, k := range s {
		vs := &e.vs[k]
		c.work += vs.cost
		c.prio = max(c.prio, e.victims[e.known[k].victim].Priority)
		c.overrun += vs.overrun.Hours()
		c.last = max(c.last, k)
	}
	return c
}

// victimKey holds the keys of the default victim order for one entry;
// rank is the entry's rank by job ID, its index before the sort.
type victimKey struct {
	cost     float64
	overrun  time.Duration
	priority int32
	rank     int32
}

// compareVictimKeys is the default victim order: cheapest first by the
// cost rule, then lowest priority, then largest overrun, then ID (the
// entries' rank is their order by ID).
func compareVictimKeys(a, b victimKey) int {
	return cmp.Or(cmp.Compare(a.cost, b.cost), cmp.Compare(a.priority, b.priority),
		cmp.Compare(b.overrun, a.overrun), cmp.Compare(a.rank, b.rank))
}

// lostWork is the work evicting the victims of ranks s throws away, in
// resource-seconds: the default cost rule's, whatever VictimCost says
// (+Inf for a victim with neither Start nor LastCheckpoint).
func (e *Engine) lostWork(s []int32) float64 {
	w := 0.0
	for _, k := range s {
		w += defaultVictimCost(e.now, &e.victims[e.known[k].victim]) * 3600
	}
	return w
}
