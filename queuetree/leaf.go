package queuetree

import (
	"slices"
	"weak"
)

// The one-leaf patches: the changes a watch reports most, one queue added,
// or one without children removed or moved, in one pass of copies over
// the arrays.
// IDs are a preorder, so a leaf added at ID k shifts every ID from k on
// by one (and a leaf removed at k every ID after it back by one): the
// arrays are copied with one entry inserted or cut out, every stored ID
// at or after k is shifted, and only the leaf's ancestors change
// otherwise (their subtree sizes). No name is read but the new leaf's
// siblings' (to find its place among them), and no jump pointer but the
// new leaf's is computed: a queue's jump pointer depends on its ancestors
// alone, which a leaf never is.

// Shift is how a one-leaf patch renumbered a tree's queues (IDs are a
// preorder, so one queue added or removed moves the IDs after it by one).
// [Tree.ShiftsFrom] reports the shifts between two trees, so that a
// caller holding arrays by ID (runtime's resolver does) can patch them
// the same way instead of rebuilding them.
type Shift struct {
	// At is where the change happened: with Delta 1 the added leaf's ID
	// in the new tree, every ID from At on having moved up by one; with
	// Delta -1 the removed leaf's ID in the old tree, every ID after it
	// having moved down by one.
	At    ID
	Delta ID
}

// Map returns the ID that id of the tree before the shift has after it:
// None for the removed leaf (and for None).
func (s Shift) Map(id ID) ID {
	switch {
	case id == None || (s.Delta < 0 && id == s.At):
		return None
	case id >= s.At:
		return id + s.Delta
	}
	return id
}

// ShiftsFrom reports whether t was made from prev by one-leaf patches
// only, and how: [Apply] and [Update] make a tree that way when the list
// changed by one queue added, one queue without children removed (one
// shift), or one queue without children moved (two: its removal, then its
// addition). Otherwise, and for a tree built any other way, it returns
// nil and false. Map each of prev's IDs through the shifts in order to
// get its ID in t; a removed queue maps to None, and so does a moved one
// (the second shift adds it again, under its new parent). O(1); the
// result is a copy (at most two shifts), the caller's to keep.
func (t *Tree) ShiftsFrom(prev *Tree) ([]Shift, bool) {
	if t == nil || prev == nil || t.shifts.n == 0 || t.shifts.from.Value() != prev {
		return nil, false
	}
	return slices.Clone(t.shifts.s[:t.shifts.n]), true
}

// leafShifts records which tree a one-leaf patch made a tree from (weakly,
// so that a chain of patched trees keeps none of its predecessors alive)
// and the shifts, at most two.
type leafShifts struct {
	from weak.Pointer[Tree]
	s    [2]Shift
	n    int
}

// shiftFrom returns v moved by delta when it is at least k, the shift of
// an ID by a one-leaf patch at k.
func shiftFrom(v, k, delta ID) ID {
	if v >= k {
		return v + delta
	}
	return v
}

// leafSlot returns the ID a new leaf named name takes under p: the ID of
// p's first child whose name sorts after name, or the end of p's subtree.
// O(children of p).
func (t *Tree) leafSlot(p ID, name string) ID {
	k, end := p+1, p+ID(t.size[p])
	for k < end && t.names[k] < name {
		k += ID(t.size[k])
	}
	return k
}

// withLeaf returns t with a leaf named name (a name t does not have)
// added under p (a valid ID): the tree New builds from t's list plus that
// queue. O(n) copies and shifts, plus a hash of name.
func (t *Tree) withLeaf(name string, p ID) *Tree {
	k := t.leafSlot(p, name)
	old := len(t.parent)
	n := allocTree(old + 1)
	copy(n.names, t.names[:k])
	n.names[k] = name
	copy(n.names[k+1:], t.names[k:])
	// IDs below k are ancestors or earlier queues: stored IDs below k, so
	// those entries copy as they are.
	copy(n.parent, t.parent[:k])
	copy(n.jump, t.jump[:k])
	copy(n.top, t.top[:k])
	for i := int(k); i < old; i++ {
		n.parent[i+1] = shiftFrom(t.parent[i], k, 1)
		n.jump[i+1] = shiftFrom(t.jump[i], k, 1)
		n.top[i+1] = shiftFrom(t.top[i], k, 1)
	}
	copy(n.depth, t.depth[:k])
	copy(n.depth[k+1:], t.depth[k:])
	copy(n.size, t.size[:k])
	copy(n.size[k+1:], t.size[k:])
	n.parent[k] = p
	n.linkOne(k, p)
	n.size[k] = 1
	for a := p; a != None; a = n.parent[a] {
		n.size[a]++
	}
	n.index = t.index.shifted(n.names, k, 1, "")
	n.shifts = leafShifts{from: weak.Make(t), s: [2]Shift{{At: k, Delta: 1}}, n: 1}
	return n
}

// withoutLeaf returns t without the queue k, which has no children: the
// tree New builds from t's list without it. O(n) copies and shifts.
func (t *Tree) withoutLeaf(k ID) *Tree {
	old := len(t.parent)
	n := allocTree(old - 1)
	copy(n.names, t.names[:k])
	copy(n.names[k:], t.names[k+1:])
	copy(n.parent, t.parent[:k])
	copy(n.jump, t.jump[:k])
	copy(n.top, t.top[:k])
	// No queue has the leaf k as parent, ancestor or top-level queue, so
	// every stored ID after k moves back by one.
	for i := int(k) + 1; i < old; i++ {
		n.parent[i-1] = shiftFrom(t.parent[i], k, -1)
		n.jump[i-1] = shiftFrom(t.jump[i], k, -1)
		n.top[i-1] = shiftFrom(t.top[i], k, -1)
	}
	copy(n.depth, t.depth[:k])
	copy(n.depth[k:], t.depth[k+1:])
	copy(n.size, t.size[:k])
	copy(n.size[k:], t.size[k+1:])
	for a := t.parent[k]; a != None; a = n.parent[a] {
		n.size[a]--
	}
	n.index = t.index.shifted(n.names, k, -1, t.names[k])
	n.shifts = leafShifts{from: weak.Make(t), s: [2]Shift{{At: k, Delta: -1}}, n: 1}
	return n
}

// patchLeaf serves the changes a watch reports most, one at a time: when
// ch holds one effective change, and it adds a queue under a parent t
// has, removes a queue without children, or moves one to a parent t has
// (not itself), it returns the patched tree and true. A
// change with a problem (an unknown parent) returns nil and true. It
// returns false for any other changes, which take the general patch.
func (t *Tree) patchLeaf(ch []change) (*Tree, bool) {
	var c *change
	for i := range ch {
		if ch[i].kind() != unchanged {
			if c != nil {
				return nil, false
			}
			c = &ch[i]
		}
	}
	if c == nil || (c.id != None && t.size[c.id] != 1) {
		return nil, false
	}
	if c.kind() == removed {
		return t.withoutLeaf(c.id), true
	}
	p := Root
	if c.parent != "" {
		var ok bool
		if p, ok = t.Lookup(c.parent); !ok || p == c.id {
			return nil, true // an unknown parent, or a queue its own parent
		}
	}
	if c.kind() == added {
		return t.withLeaf(c.name, p), true
	}
	return t.withMoved(c.id, p), true
}

// withMoved returns t with the queue k, which has no children, moved
// under p (a valid ID, not k): the tree New builds from t's list with k's
// parent changed, in one pass of copies. k lands at j, its place among
// p's children with k taken out; the entries between k and j slide by
// one toward k's old place, and so do the IDs they store, which is the
// removal of k followed by the addition at j (the two shifts recorded).
func (t *Tree) withMoved(k, p ID) *Tree {
	name := t.names[k]
	j := t.leafSlot(p, name)
	if j > k {
		j-- // counted with k still in place
	}
	n := allocTree(len(t.parent))
	// m maps an ID of t to its ID in n.
	lo, hi, d := j, k-1, ID(1) // k moves up to j: [j, k) slides down one place
	if j > k {
		lo, hi, d = k+1, j, -1 // k moves down to j: (k, j] slides up one place
	}
	m := func(v ID) ID {
		switch {
		case v == k:
			return j
		case v >= lo && v <= hi:
			return v + d
		}
		return v
	}
	first := min(j, k) // entries before it, and the IDs they store, stay
	copy(n.names, t.names[:first])
	copy(n.parent, t.parent[:first])
	copy(n.jump, t.jump[:first])
	copy(n.top, t.top[:first])
	copy(n.depth, t.depth[:first])
	copy(n.size, t.size[:first])
	for i := first; int(i) < len(t.parent); i++ {
		if i == k {
			continue
		}
		to := m(i)
		n.names[to] = t.names[i]
		n.parent[to], n.jump[to], n.top[to] = m(t.parent[i]), m(t.jump[i]), m(t.top[i])
		n.depth[to], n.size[to] = t.depth[i], t.size[i]
	}
	n.names[j] = name
	n.parent[j] = m(p)
	n.linkOne(j, n.parent[j])
	n.size[j] = 1
	for a := m(t.parent[k]); a != None; a = n.parent[a] {
		n.size[a]--
	}
	for a := n.parent[j]; a != None; a = n.parent[a] {
		n.size[a]++
	}
	n.index = t.index.moved(k, j)
	n.shifts = leafShifts{from: weak.Make(t), s: [2]Shift{{At: k, Delta: -1}, {At: j, Delta: 1}}, n: 2}
	return n
}
