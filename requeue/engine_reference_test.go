package requeue_test

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/tenurepolicy/tenure/requeue"
)

// referenceResult is what the evict-all-then-reprieve baseline did.
type referenceResult struct {
	served  int                 // contenders placed by an eviction
	free    int                 // contenders placed without one
	evicted int                 // victims evicted
	sets    map[string][]string // the set of each contender served by eviction
}

// referenceRun is the naive baseline the engine's search is measured
// against: evict-all-then-reprieve, written the obvious way over the
// model's Evict and Place and a journal. Contenders go in the engine's
// order (highest priority, oldest, ID); one that fits as things are is
// placed; otherwise every open victim it may use (CanContend, allowed by
// every filter, not in cooldown) is evicted and, if it then fits, each
// victim, most expensive first, is put back when the contender still fits
// without it (kube-scheduler's reprieve, SelectVictimsOnNode, over the
// whole model); the rest is committed. No bound, no hint: O(m²)
// evictions for m victims per contender.
func referenceRun(now time.Time, cfg requeue.EngineConfig, in requeue.EngineInput, m requeue.Model) referenceResult {
	res := referenceResult{sets: map[string][]string{}}
	byID := map[string]*requeue.Victim{}
	for _, v := range in.Victims {
		if o, ok := byID[v.ID]; ok {
			requeue.MergeVictim(o, &v)
			continue
		}
		v := v
		byID[v.ID] = &v
	}
	var victims []*requeue.Victim
	seen := map[string]bool{}
	for _, n := range in.Nominations {
		if v, ok := byID[n.Job]; ok && !seen[n.Job] && !now.Before(v.NotBefore) {
			seen[n.Job] = true
			victims = append(victims, v)
		}
	}
	cost := func(v *requeue.Victim) float64 {
		if cfg.VictimCost != nil {
			return cfg.VictimCost(now, v)
		}
		return requeue.DefaultVictimCost(now, v)
	}
	// Most expensive first, the reverse of the engine's default victim
	// order (cheapest, lowest priority, largest overrun, ID first): the
	// reprieve order.
	slices.SortFunc(victims, func(a, b *requeue.Victim) int {
		return cmp.Or(cmp.Compare(cost(b), cost(a)), cmp.Compare(b.Priority, a.Priority),
			cmp.Compare(a.Overrun(now), b.Overrun(now)), strings.Compare(b.ID, a.ID))
	})
	conts := slices.Clone(in.Contenders)
	slices.SortFunc(conts, func(a, b requeue.Contender) int {
		return cmp.Or(cmp.Compare(b.Priority, a.Priority), a.Queued.Compare(b.Queued), strings.Compare(a.ID, b.ID))
	})
	var j requeue.Journal
	fits := func(c string, evict []*requeue.Victim) bool {
		cp := j.Checkpoint()
		defer func() { _ = j.Rollback(cp) }()
		for _, v := range evict {
			if m.Evict(&j, v.ID) != nil {
				return false
			}
		}
		ok, err := m.Place(&j, c)
		return ok && err == nil
	}
	keep := func(c string, evict []*requeue.Victim) {
		for _, v := range evict {
			_ = m.Evict(&j, v.ID)
		}
		_, _ = m.Place(&j, c)
		_ = j.Commit()
	}
	gone := map[string]bool{}
	for _, c := range conts {
		if fits(c.ID, nil) {
			keep(c.ID, nil)
			res.free++
			gone[c.ID] = true
		}
	}
	for _, c := range conts {
		if gone[c.ID] {
			continue
		}
		if fits(c.ID, nil) {
			keep(c.ID, nil)
			res.free++
			continue
		}
		var set []*requeue.Victim
		for _, v := range victims {
			if gone[v.ID] || !canContend(cfg, v, &c) || !allowedBy(cfg, now, v, &c) {
				continue
			}
			set = append(set, v)
		}
		if len(set) == 0 || !fits(c.ID, set) {
			continue
		}
		for i := 0; i < len(set); {
			without := slices.Delete(slices.Clone(set), i, i+1)
			if fits(c.ID, without) {
				set = without
				continue
			}
			i++
		}
		keep(c.ID, set)
		for _, v := range set {
			gone[v.ID] = true
		}
		res.served++
		res.evicted += len(set)
		for _, v := range set {
			res.sets[c.ID] = append(res.sets[c.ID], v.ID)
		}
	}
	return res
}

func canContend(cfg requeue.EngineConfig, v *requeue.Victim, c *requeue.Contender) bool {
	if cfg.CanContend != nil {
		return cfg.CanContend(v, c)
	}
	return c.Priority > v.Priority
}

func allowedBy(cfg requeue.EngineConfig, now time.Time, v *requeue.Victim, c *requeue.Contender) bool {
	for _, f := range cfg.Filters {
		if !f.FilterVictim(now, v, c).Allowed {
			return false
		}
	}
	return true
}
