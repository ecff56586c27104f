package queuetree

// ID is a queue's dense integer identifier inside one [Tree]. The zero ID
// is [None], "no queue", so a queue field a caller forgot to set never
// names a real queue; the implicit [Root] is 1 and the queues are 2 and
// up. An array indexed by ID is sized with [Tree.IDLimit]:
//
//	load := make([]float64, tree.IDLimit()) // load[id] for every ID, None included
//
// and the IDs are walked with [Tree.Valid]:
//
//	for id := queuetree.Root; tree.Valid(id); id++ { ... }
//
// IDs are assigned in preorder from the root, visiting children in name
// order, so the same set of queues gets the same IDs whatever the input
// order, and Parent(id) < id for every queue: one pass in increasing ID
// order visits every parent before its children.
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

// Tree is an immutable queue hierarchy with precomputed subtree ranges,
// top-level queues and one jump pointer per queue. Build it with [New] or
// [NewTolerant]; it is safe for concurrent reads and never changes.
//
// Every query accepts any ID: an ID the tree did not issue yields None,
// false or "" rather than a panic. A nil *Tree, like the zero Tree, has no
// IDs at all (IDLimit() == 0, not even Root), so every query on it answers
// that way too. Costs: IDLimit, Valid, Name and Parent are O(1); Lookup is
// one hash-index read; ChildOfLCA is O(1) for queues under different
// top-level queues, else O(log depth) (skew-binary jump pointers, Myers
// 1983); none of them allocates.
type Tree struct {
	names  []string
	parent []ID
	depth  []int32
	size   []int32   // subtree size, self included
	jump   []ID      // skew-binary jump pointer: an ancestor, Root for Root
	top    []ID      // top-level queue above (self if top-level; Root for Root)
	index  nameIndex // name → ID
}

// IDLimit returns the length of a slice indexed by ID: one more than the
// largest ID t issued, so that s[id] is in range for None, Root and every
// queue when len(s) == t.IDLimit(). A tree of n queues issues Root and
// the IDs 2..n+1, so IDLimit() is n+2, not n and not n+1. 0 for a nil or
// zero Tree, which issues no ID. O(1).
func (t *Tree) IDLimit() int {
	if t == nil {
		return 0
	}
	return len(t.parent)
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

// within reports whether d lies in a's subtree (a included): the ID range
// [a, a+size[a]). Both IDs must be valid. It is the one test behind
// ChildOfLCA's climb, and the compiler inlines it.
func within(size []int32, a, d ID) bool { return a <= d && d < a+ID(size[a]) }

// validPair reports whether t is built and both IDs are valid.
func (t *Tree) validPair(a, b ID) bool {
	if t == nil {
		return false
	}
	n := ID(len(t.size))
	return a >= Root && a < n && b >= Root && b < n
}

// ChildOfLCA returns the child, on the path down to b, of the lowest
// common ancestor of a and b (the deepest queue above or equal to both;
// queues under different top-level queues meet at Root), or b itself when
// b is an ancestor of a or a itself (b is then that ancestor).
// Equivalently: the highest ancestor of b, b included, whose subtree does
// not contain a. It is the queue at which a min-runtime reclaim by a job
// in a of a job in b resolves under KAI-Scheduler's lca method. None when
// either ID is invalid. O(1) when a and b are under different top-level
// queues (the answer is then b's top-level queue), else O(log depth); no
// allocation.
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
	// above b contains a, so the loop ends below it.
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

// IsAncestor reports whether a is d or an ancestor of d (false when
// either ID is invalid). O(1): one range test on the preorder IDs.
func (t *Tree) IsAncestor(a, d ID) bool {
	return t.Valid(a) && t.Valid(d) && within(t.size, a, d)
}

// LCA returns the lowest common ancestor of a and b: Root for queues of
// different top-level trees, None when either ID is invalid. O(log depth)
// by a jump-pointer climb, allocation-free.
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
		return Root
	}
	x := a
	for {
		if j := t.jump[x]; !within(size, j, b) {
			x = j
			continue
		}
		p := t.parent[x]
		if within(size, p, b) {
			return p
		}
		x = p
	}
}
