package queuetree

import "iter"

// ID is a queue's dense integer identifier inside one [Tree]. The zero ID
// is [None], "no queue", so a queue field a caller forgot to set never
// names a real queue; the implicit [Root] is 1 and the queues are
// 2..Len(). IDs are assigned in preorder from the root, visiting children
// in name order, so:
//
//   - the same set of queues gets the same IDs whatever the input order;
//   - Parent(id) < id for every queue, so one pass in increasing ID order
//     visits every parent before its children;
//   - a queue's subtree is the contiguous range [id, id+SubtreeSize(id)).
//
// IDs are only meaningful for the tree that issued them.
type ID int32

const (
	// None means "no queue": the zero ID, so an unset queue field is None
	// and never a real queue. It is the parent of Root and the answer of
	// queries given an invalid ID or with no result. Decisions about a job
	// whose queue is None fail closed (see package eligibility).
	None ID = 0
	// Root is the implicit root that joins all top-level queues, so that any
	// two queues have a lowest common ancestor. Its name is "". It is 1, not
	// 0, so that the zero ID is not a queue.
	Root ID = 1
)

// Tree is an immutable queue hierarchy with precomputed depths, subtree
// ranges, top-level queues and one jump pointer per queue. Build it with
// [New] or [NewTolerant]; it is safe for concurrent reads and never changes.
//
// Every query accepts any ID: an ID the tree did not issue yields None,
// false, "" or 0 rather than a panic. A nil *Tree, like the zero Tree, has
// no IDs at all (Len() == 0, not even Root), so every query on it answers
// that way too. Costs: Lookup is one hash-index read; Name, Parent, Depth,
// IsAncestor and SubtreeSize are O(1); LCA and ChildOfLCA are O(1) for
// queues under different top-level queues, else O(log depth), and
// ChildToward is O(log depth) (skew-binary jump pointers, Myers 1983);
// none of them allocates. Path allocates its result.
type Tree struct {
	names  []string
	parent []ID
	depth  []int32
	size   []int32   // subtree size, self included
	jump   []ID      // skew-binary jump pointer: an ancestor, Root for Root
	top    []ID      // top-level queue above (self if top-level; Root for Root)
	index  nameIndex // name → ID
	// repaired is what NewTolerant built the tree from when it repaired
	// problems (nil otherwise), for [UpdateTolerant].
	repaired *repairedInput
	// shifts is how a one-leaf patch made the tree from another (see
	// [Tree.ShiftsFrom]); zero otherwise.
	shifts leafShifts
}

// repairedInput is the input list of a tree NewTolerant repaired, and the
// problems it reported.
type repairedInput struct {
	queues []Queue
	errs   []error
}

// Len returns the number of IDs, the implicit root included: a tree of n
// queues has Len() == n+1 and valid IDs Root..ID(Len()), that is 1..n+1.
// 0 for a nil or zero Tree.
func (t *Tree) Len() int {
	if t == nil || len(t.parent) == 0 {
		return 0
	}
	return len(t.parent) - 1
}

// Valid reports whether id was issued by t (Root included; None never).
func (t *Tree) Valid(id ID) bool { return t != nil && id >= Root && int(id) < len(t.parent) }

// Lookup returns the ID of the queue named name, or None and false when
// there is no such queue ("" included: Root is not looked up by name).
// One hash of name and, usually, one string comparison; no allocation.
func (t *Tree) Lookup(name string) (ID, bool) {
	if t == nil {
		return None, false
	}
	id := t.index.lookup(t.names, name)
	if id == 0 {
		return None, false
	}
	return ID(id), true
}

// Name returns the queue's name; "" for Root and for an invalid ID.
func (t *Tree) Name(id ID) string {
	if !t.Valid(id) {
		return ""
	}
	return t.names[id]
}

// Parent returns the queue's parent: Root for a top-level queue, None for
// Root and for an invalid ID.
func (t *Tree) Parent(id ID) ID {
	if !t.Valid(id) {
		return None
	}
	return t.parent[id]
}

// Depth returns the number of edges from Root: 0 for Root, 1 for a top-level
// queue; 0 for an invalid ID.
func (t *Tree) Depth(id ID) int {
	if !t.Valid(id) {
		return 0
	}
	return int(t.depth[id])
}

// SubtreeSize returns how many queues lie in id's subtree, id included; the
// subtree is exactly the IDs [id, id+SubtreeSize(id)). 0 for an invalid ID.
func (t *Tree) SubtreeSize(id ID) int {
	if !t.Valid(id) {
		return 0
	}
	return int(t.size[id])
}

// IsAncestor reports whether a is d or an ancestor of d (Root is an ancestor
// of every queue). False when either ID is invalid. O(1).
func (t *Tree) IsAncestor(a, d ID) bool {
	if !t.Valid(a) || !t.Valid(d) {
		return false
	}
	return within(t.size, a, d)
}

// within reports whether d lies in a's subtree (a included): the ID range
// [a, a+size[a]). Both IDs must be valid. It is the one test behind
// IsAncestor, LCA and ChildOfLCA, and the compiler inlines it.
func within(size []int32, a, d ID) bool { return a <= d && d < a+ID(size[a]) }

// validPair reports whether t is built and both IDs are valid.
func (t *Tree) validPair(a, b ID) bool {
	if t == nil {
		return false
	}
	n := ID(len(t.size))
	return a >= Root && a < n && b >= Root && b < n
}

// LCA returns the lowest common ancestor of a and b: the deepest queue that
// is an ancestor of both (a itself when a is an ancestor of b). Queues under
// different top-level queues meet at Root. None when either ID is invalid.
// O(1) when a and b are under different top-level queues, else
// O(log depth); no allocation.
func (t *Tree) LCA(a, b ID) ID {
	if !t.validPair(a, b) {
		return None
	}
	size := t.size
	switch {
	case within(size, a, b):
		return a
	case within(size, b, a):
		return b
	case t.top[a] != t.top[b]:
		return Root // under different top-level queues: O(1)
	}
	// Climb from a through ancestors that are not ancestors of b, taking the
	// jump pointer whenever it does not overshoot; the answer is the parent of
	// the highest such ancestor. Every ID met is valid, and the top-level
	// queue above a is an ancestor of b, so the loop ends below it.
	jump, parent := t.jump, t.parent
	x := a
	for {
		if j := jump[x]; !within(size, j, b) {
			x = j
			continue
		}
		p := parent[x]
		if within(size, p, b) {
			return p
		}
		x = p
	}
}

// ChildOfLCA returns the child of LCA(a, b) on the path down to b, or b
// itself when b is an ancestor of a (b is then the LCA). Equivalently: the
// highest ancestor of b, b included, whose subtree does not contain a.
// It is the queue at which a min-runtime reclaim by a of a job in b
// resolves, and equals ChildToward(LCA(a, b), b) when b is not an ancestor
// of a — in one climb instead of two, and in O(1) when a and b are under
// different top-level queues (the answer is then b's top-level queue).
// None when either ID is invalid. O(log depth), no allocation.
func (t *Tree) ChildOfLCA(a, b ID) ID {
	if !t.validPair(a, b) {
		return None
	}
	size := t.size
	if within(size, b, a) {
		return b
	}
	if top := t.top[b]; !within(size, top, a) {
		return top
	}
	// Climb from b through ancestors whose subtree does not contain a, taking
	// the jump pointer whenever it does not overshoot. The top-level queue
	// above b contains a, so the loop ends below it. (LCA's climb, written
	// out again: both are hot paths, and they stop at different steps.)
	jump, parent := t.jump, t.parent
	x := b
	for {
		if j := jump[x]; !within(size, j, a) {
			x = j
			continue
		}
		if p := parent[x]; !within(size, p, a) {
			x = p
			continue
		}
		return x
	}
}

// ChildToward returns the child of ancestor on the path down to descendant:
// the ancestor of descendant at depth Depth(ancestor)+1. It returns None
// unless ancestor is a strict ancestor of descendant. O(log depth), no
// allocation.
func (t *Tree) ChildToward(ancestor, descendant ID) ID {
	if ancestor == descendant || !t.IsAncestor(ancestor, descendant) {
		return None
	}
	target := t.depth[ancestor] + 1
	x := descendant
	for t.depth[x] > target {
		if j := t.jump[x]; t.depth[j] >= target {
			x = j
		} else {
			x = t.parent[x]
		}
	}
	return x
}

// Ancestors yields id, its parent, and so on up to and including Root.
// Nothing for an invalid ID. Each step is O(1).
func (t *Tree) Ancestors(id ID) iter.Seq[ID] {
	return func(yield func(ID) bool) {
		if !t.Valid(id) {
			return
		}
		for x := id; x != None; x = t.parent[x] {
			if !yield(x) {
				return
			}
		}
	}
}

// Children yields id's children in name order (which is also increasing ID
// order). Nothing for an invalid ID. Each step is O(1).
func (t *Tree) Children(id ID) iter.Seq[ID] {
	return func(yield func(ID) bool) {
		if !t.Valid(id) {
			return
		}
		end := id + ID(t.size[id])
		for c := id + 1; c < end; c += ID(t.size[c]) {
			if !yield(c) {
				return
			}
		}
	}
}

// Path returns the names from the top-level queue down to id, for display
// (join it with "/" or " → "). Empty for Root and for an invalid ID.
// O(depth); allocates the result.
func (t *Tree) Path(id ID) []string {
	if !t.Valid(id) || id == Root {
		return nil
	}
	path := make([]string, t.depth[id])
	for x, i := id, len(path)-1; x != Root; x, i = t.parent[x], i-1 {
		path[i] = t.names[x]
	}
	return path
}

// IDs yields every ID the tree issued in increasing order: Root first,
// then the queues in preorder (every parent before its children). Nothing
// for a nil or zero Tree. Each step is O(1).
func (t *Tree) IDs() iter.Seq[ID] {
	return func(yield func(ID) bool) {
		for id := Root; int(id) <= t.Len(); id++ {
			if !yield(id) {
				return
			}
		}
	}
}
