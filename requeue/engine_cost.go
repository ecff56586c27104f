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
