package queuetree

// ID is a queue's dense integer identifier inside one [Tree]: [None] is
// 0, [Root] 1, the queues 2 and up, a preorder (Parent(id) < id). A slice
// indexed by ID has [Tree.IDLimit] elements.
type ID int32

const (
	// None means "no queue": the zero ID, Root's parent, and the answer
	// of a query given an invalid ID or with no result.
	None ID = 0
	// Root is the implicit root that joins the top-level queues. Its name
	// is "".
	Root ID = 1
)

// Tree is an immutable queue hierarchy. Build it with [New]; it
// is safe for concurrent reads. The package doc gives
// the cost of each query.
type Tree struct {
	names  []string
	parent []ID
	depth  []int32
	size   []int32   // subtree size, self included
	jump   []ID      // skew-binary jump pointer: an ancestor, Root for Root
	top    []ID      // top-level queue above (self if top-level; Root for Root)
	index  nameIndex // name → ID
}

// IDLimit returns the length of a slice indexed by ID, one more than the
// largest ID t issued: n+2 for n queues; 0 for a nil or zero Tree.
func (t *Tree) IDLimit() int {
	if t == nil {
		return 0
	}
	return len(t.parent)
}

// Valid reports whether id was issued by t (Root included; None never).
func (t *Tree) Valid(id ID) bool { return t != nil && id >= Root && int(id) < len(t.parent) }

// Lookup returns the ID of the queue named name, or None and false when
// there is none ("" included: Root has no name to look up).
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

// ChildOfLCA returns the highest ancestor of b, b included, whose subtree
// does not contain a: the child of LCA(a, b) on the path down to b, or b
// itself when b is a or an ancestor of a. None when either ID is invalid.
// O(1) when a and b are under different top-level queues (the answer is
// b's top-level queue), else O(log depth).
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
