package queuetree

import "iter"

// Test-only queries: walkers and measures no embedder needs, kept here so
// that the tests check the precomputed arrays (depth, size, jump, top) and
// ChildOfLCA's climb against oracles.

// Depth returns the number of edges from Root (0 for Root and an invalid ID).
func Depth(t *Tree, id ID) int {
	if !t.Valid(id) {
		return 0
	}
	return int(t.depth[id])
}

// SubtreeSize returns how many queues lie in id's subtree, id included: the
// IDs [id, id+SubtreeSize(id)). 0 for an invalid ID.
func SubtreeSize(t *Tree, id ID) int {
	if !t.Valid(id) {
		return 0
	}
	return int(t.size[id])
}

// IsAncestor reports whether a is d or an ancestor of d (false when
// either ID is invalid). O(1).
func IsAncestor(t *Tree, a, d ID) bool {
	return t.Valid(a) && t.Valid(d) && within(t.size, a, d)
}

// LCA returns the lowest common ancestor of a and b: Root for queues
// under different top-level queues, None when either ID is invalid.
// O(log depth), by the jump-pointer climb ChildOfLCA makes, so that the
// tests check the jump arrays against a naive oracle.
func LCA(t *Tree, a, b ID) ID {
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

// ChildToward returns the child of ancestor on the path down to
// descendant, None unless ancestor is a strict ancestor of descendant.
func ChildToward(t *Tree, ancestor, descendant ID) ID {
	if ancestor == descendant || !IsAncestor(t, ancestor, descendant) {
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

// Ancestors yields id, its parent, ..., Root; nothing for an invalid ID.
func Ancestors(t *Tree, id ID) iter.Seq[ID] {
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

// Children yields id's children in name order; nothing for an invalid ID.
func Children(t *Tree, id ID) iter.Seq[ID] {
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

// Path returns the names from the top-level queue down to id; nil for Root
// and an invalid ID.
func Path(t *Tree, id ID) []string {
	if !t.Valid(id) || id == Root {
		return nil
	}
	path := make([]string, t.depth[id])
	for x, i := id, len(path)-1; x != Root; x, i = t.parent[x], i-1 {
		path[i] = t.names[x]
	}
	return path
}

// IDs yields Root..IDLimit()-1.
func IDs(t *Tree) iter.Seq[ID] {
	return func(yield func(ID) bool) {
		for id := Root; t.Valid(id); id++ {
			if !yield(id) {
				return
			}
		}
	}
}
