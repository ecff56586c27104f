package queuetree

import (
	"cmp"
	"slices"
	"strings"
)

// The general patch: any changes to a tree's list, laid out over the old
// tree's IDs plus the added queues, the children lists filled in name
// order (the unchanged ones in the old preorder, the changed queues
// merged in), then numbered and linked as a clean build does.

// patchNodes is the working set of a patch: nodes 0..L are the IDs of
// the tree patched (L its largest ID), nodes above L the added queues.
// par is each node's parent node, dead marks None, the removed queues
// and the nodes not used, and extra the nodes whose parent changed
// (moved or added), which are placed among their new siblings by name.
type patchNodes struct {
	old   []string // the names of nodes 0..L (the patched tree's, by ID)
	added []string // the names of the nodes above L
	par   []int32
	dead  []bool
	extra []int32
	live  int // live nodes, Root included
}

// name returns node v's name.
func (w *patchNodes) name(v int32) string {
	if int(v) < len(w.old) {
		return w.old[v]
	}
	return w.added[int(v)-len(w.old)]
}

// patch builds the tree of t's queues with the changes ch applied (names
// distinct and non-empty), or returns nil when the changed list has a
// problem (an unknown parent or a cycle); the caller then asks New, which
// reports it. See [Apply] for the cost.
func (t *Tree) patch(ch []change) *Tree {
	if n, ok := t.patchLeaf(ch); ok {
		return n
	}
	w, ok := t.patchNodes(ch)
	if !ok {
		return nil
	}
	nodes := len(w.par)
	scratch := make([]int32, 3*nodes+1+w.live)
	start, fill, newID := scratch[:nodes+1:nodes+1], scratch[nodes+1:2*nodes+1:2*nodes+1], scratch[2*nodes+1:3*nodes+1:3*nodes+1]
	kids := scratch[3*nodes+1:]
	for v := Root + 1; int(v) < nodes; v++ {
		if !w.dead[v] {
			start[w.par[v]+1]++
		}
	}
	for v := 1; v <= nodes; v++ {
		start[v] += start[v-1]
	}
	copy(fill, start[:nodes])
	w.fillChildren(start, kids, fill)
	n := numberNodes(w, start, kids, newID, fill)
	if n == nil {
		return nil // a cycle
	}
	n.index = t.index.patched(n.names, newID, len(t.names))
	return n
}

// fillChildren fills the children lists (kids[start[v]:start[v+1]] for
// node v, fill a copy of start's positions that it consumes) in name
// order.
func (w *patchNodes) fillChildren(start, kids, fill []int32) {
	nodes := len(w.par)
	// The queues that kept their parent, in increasing ID: a preorder,
	// which visits each queue's children in name order. Then the moved
	// and added queues, sorted by parent and name, are merged into their
	// groups: each sibling a changed queue joins is compared once.
	isExtra := make([]bool, nodes)
	for _, v := range w.extra {
		isExtra[v] = true
	}
	for v := Root + 1; int(v) < nodes; v++ {
		if !w.dead[v] && !isExtra[v] {
			kids[fill[w.par[v]]] = int32(v)
			fill[w.par[v]]++
		}
	}
	byName := func(a, b int32) int { return strings.Compare(w.name(a), w.name(b)) }
	slices.SortFunc(w.extra, func(a, b int32) int {
		if c := cmp.Compare(w.par[a], w.par[b]); c != 0 {
			return c
		}
		return byName(a, b)
	})
	var merged []int32
	for i, j := 0, 0; i < len(w.extra); i = j {
		p := w.par[w.extra[i]]
		j = i + 1
		for j < len(w.extra) && w.par[w.extra[j]] == p {
			j++
		}
		g := kids[start[p]:start[p+1]]
		merged = mergeByName(merged[:0], g[:len(g)-(j-i)], w.extra[i:j], byName)
		copy(g, merged)
	}
}

// patchNodes lays out the working set of t with the changes ch, and
// reports false when a parent is unknown (never named, or removed while a
// child that kept it stays).
func (t *Tree) patchNodes(ch []change) (patchNodes, bool) {
	var w patchNodes
	l := len(t.names) // nodes 0..l-1 are t's IDs
	w.old = t.names
	addedAt := map[string]int32{}
	for _, c := range ch {
		if c.kind() == added {
			addedAt[c.name] = int32(l + len(w.added))
			w.added = append(w.added, c.name)
		}
	}
	nodes := l + len(w.added)
	w.par = make([]int32, nodes)
	w.dead = make([]bool, nodes)
	for id := range t.parent {
		w.par[id] = int32(t.parent[id])
	}
	w.dead[None] = true
	w.live = t.Len()
	for _, c := range ch {
		if c.kind() == removed {
			w.dead[c.id] = true
			w.live--
		}
	}
	for _, c := range ch {
		k := c.kind()
		if k == unchanged || k == removed {
			continue
		}
		p := int32(Root)
		if c.parent != "" {
			id, ok := t.Lookup(c.parent)
			a, isAdded := addedAt[c.parent]
			switch {
			case ok && !w.dead[id]:
				p = int32(id)
			case isAdded:
				p = a
			default:
				return w, false // unknown or removed parent
			}
		}
		v := int32(c.id)
		if k == added {
			v = addedAt[c.name]
			w.live++
		}
		w.par[v] = p
		w.extra = append(w.extra, v)
	}
	for v := Root + 1; int(v) < l; v++ {
		if !w.dead[v] && w.dead[w.par[v]] {
			return w, false // its parent was removed
		}
	}
	return w, true
}

// numberNodes lays the patched tree out as number does a clean list's:
// IDs in preorder from Root, children in the order of kids, each queue
// linked as it is numbered. The two walks share their shape but not their
// slots (here tree IDs and added queues, there input positions), and
// number's is a clean build's hot loop, so each reads its names directly. It records each node's new ID in newID (None
// for a dead node), uses stack (at least as long as the live nodes) as
// scratch, and returns nil when fewer than all live nodes are reached (a
// cycle among moved or added queues).
func numberNodes(w patchNodes, start, kids, newID, stack []int32) *Tree {
	t := allocTree(w.live + 1)
	t.jump[Root], t.top[Root] = Root, Root
	stack[0] = int32(Root)
	top := 1
	next := Root
	for top > 0 {
		top--
		v := stack[top]
		id := next
		next++
		newID[v] = int32(id)
		if v != int32(Root) {
			p := ID(newID[w.par[v]]) // numbered earlier
			t.names[id] = w.name(v)
			t.parent[id] = p
			t.linkOne(id, p)
		}
		for k := start[v+1] - 1; k >= start[v]; k-- {
			stack[top] = kids[k]
			top++
		}
	}
	if int(next) != w.live+1 {
		return nil
	}
	t.sizes()
	return t
}

// mergeByName appends to out the merge of a and b, each sorted by byName
// (and no name in both), and returns it.
func mergeByName(out, a, b []int32, byName func(x, y int32) int) []int32 {
	for len(a) > 0 && len(b) > 0 {
		if byName(b[0], a[0]) < 0 {
			out, b = append(out, b[0]), b[1:]
		} else {
			out, a = append(out, a[0]), a[1:]
		}
	}
	return append(append(out, a...), b...)
}
