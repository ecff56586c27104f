package runtime

import (
	"slices"
	"time"

	"github.com/tenurepolicy/tenure/queuetree"
)

// followShifts is the resolver for t and c when r was built without
// problems for a tree that t was patched from by one-leaf patches
// ([queuetree.Tree.ShiftsFrom]: one queue added, or one queue without
// children removed or moved) and c holds the same settings as r's Config:
// r's per-queue arrays patched the same way (the entry of a removed queue
// cut out, an added queue's inherited from its parent, a moved queue's
// own setting carried along) and the tables' source IDs shifted. The
// result is the resolver NewResolver(t, c) builds. It returns nil when
// that does not hold, or when a removed queue had a setting (c then names
// a queue t lacks, which NewResolver reports). Cost: the O(q) comparison
// of c, then O(n + q) copies; no name is looked up in t.
func (r *Resolver) followShifts(t *queuetree.Tree, c Config) *Resolver {
	if r == nil || !r.clean || r.given != c.Method ||
		r.defaults != [2]time.Duration{c.DefaultPreempt, c.DefaultReclaim} {
		return nil
	}
	shifts, ok := t.ShiftsFrom(r.tree)
	if !ok || !r.sameInput(r.tree, c) {
		return nil
	}
	n, dropped := r.follow(t, shifts)
	if dropped != 0 {
		return nil // a removed queue had a setting
	}
	return n
}

// follow returns a copy of r (built without problems, or with negative
// durations only) for t, which was made from r's tree by shifts (none: t
// is r's tree): the per-queue arrays copied with the entry of a removed
// queue cut out, an added queue's inherited from its parent and a moved
// queue's own setting carried along, and the tables copied with their
// source IDs shifted. A removed queue's own setting is dropped and its k
// returned (0 when it had none): the copy's owners and negatives counts no
// longer count it, and its entries are left in owns and the tables, where
// nothing refers to them. owns itself is shared with r. O(n + q) copies,
// no name looked up.
func (r *Resolver) follow(t *queuetree.Tree, shifts []queuetree.Shift) (n *Resolver, dropped int32) {
	which, pre, rec := r.which, r.preIdx, r.recIdx
	if len(shifts) == 0 {
		which, pre, rec = slices.Clone(which), slices.Clone(pre), slices.Clone(rec)
	}
	var carried int32 // the own setting of a moved (or removed) queue
	for _, s := range shifts {
		if s.Delta < 0 {
			carried = which[s.At]
			which, pre, rec = cut(which, s.At), cut(pre, s.At), cut(rec, s.At)
			continue
		}
		// An addition is always the last shift, so s.At and its parent
		// are t's IDs; the parent, before s.At, is not shifted.
		p := t.Parent(s.At)
		pi, ri := pre[p], rec[p]
		if carried != 0 {
			if r.owns[carried].hasPreempt {
				pi = carried
			}
			if r.owns[carried].hasReclaim {
				ri = carried
			}
		}
		which, pre, rec = inserted(which, s.At, carried), inserted(pre, s.At, pi), inserted(rec, s.At, ri)
		carried = 0
	}
	c := *r
	c.tree, c.which, c.preIdx, c.recIdx = t, which, pre, rec
	c.preTab = shiftSources(r.preTab, shifts)
	c.recTab = [2][]Resolution{shiftSources(r.recTab[0], shifts), shiftSources(r.recTab[1], shifts)}
	if carried != 0 {
		c.owners--
		if r.owns[carried].negative() {
			c.negatives--
		}
	}
	return &c, carried
}

// cut returns a copy of a without its entry at.
func cut(a []int32, at queuetree.ID) []int32 {
	out := make([]int32, len(a)-1)
	copy(out, a[:at])
	copy(out[at:], a[at+1:])
	return out
}

// inserted returns a copy of a with v inserted at at.
func inserted(a []int32, at queuetree.ID, v int32) []int32 {
	out := make([]int32, len(a)+1)
	copy(out, a[:at])
	out[at] = v
	copy(out[at+1:], a[at:])
	return out
}

// shiftSources returns a copy of tab with each entry's source queue
// mapped through shifts. A moved queue's source (mapped to None by its
// removal) becomes its ID after the move, the last shift's At; a removed
// queue's stays None (its entry is no longer referred to).
func shiftSources(tab []Resolution, shifts []queuetree.Shift) []Resolution {
	out := slices.Clone(tab)
	if len(shifts) == 0 {
		return out
	}
	last := shifts[len(shifts)-1]
	for k := 1; k < len(out); k++ {
		src := out[k].Source
		if src == queuetree.None {
			continue // an entry whose field is unset: never read
		}
		for _, s := range shifts {
			src = s.Map(src)
		}
		if src == queuetree.None && last.Delta > 0 {
			src = last.At
		}
		out[k].Source = src
	}
	return out
}
