package queuetree

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"weak"
)

// Edit is one change to a tree's queue list, for [Apply]: the queue named
// Name gets the parent named Parent ("" for top-level), added when the
// list has no such queue and moved when it has one. With Remove set, the
// queue named Name is removed instead, and Parent is ignored.
type Edit struct {
	Name   string
	Parent string
	Remove bool
}

// Apply returns the tree of prev's queue list changed by edits, applied in
// order: an event-driven scheduler (one that learns of each added, changed
// and deleted queue from a watch, as a controller does) keeps its tree
// current without rebuilding it. The result is exactly the tree [New]
// builds from the changed list (the same IDs, names and links), and prev
// itself when the edits change nothing. A nil or zero prev is the empty
// list (with no edits, the result is then New(nil): Root alone).
//
// prev's queue list is the tree's own: for a tree [NewTolerant] repaired,
// the list after the repairs, so a repair stays (a queue made top-level
// because its parent was unknown stays top-level when that parent is
// added later). A tolerant scheduler that wants the repairs redone on
// every change keeps its own copy of the list, changes it, and calls
// [UpdateTolerant].
//
// An edit with an empty name, or one that removes a queue the list does
// not have at that point, is an error; so is a changed list with a problem
// New reports (an unknown parent, such as the parent of a queue that was
// removed while its children were kept, or a cycle), and the error is
// then New's for the changed list written out as prev's queues in ID
// order followed by the added ones in the order of their first edit.
// The tree is then nil, and prev is unchanged (a Tree never changes).
//
// Cost: the string work is a hash per edited name and per new parent
// name, a sort of the changed queues by name, and a comparison with each
// sibling a changed queue joins (a merge into their group); no other name
// is read. Then the arrays are copied, which is O(n): IDs are a preorder, so
// adding, removing or moving one queue shifts the IDs after it. One edit
// that adds a queue, or removes or moves one without children, is one
// pass of copies with an entry inserted or cut out (see
// [Tree.ShiftsFrom]); other edits are renumbered and relinked in linear
// integer passes. The name index is copied and patched (a removed name
// leaves a marker that lookups pass over) and rebuilt only when names
// and markers would fill half of it. The package documentation says
// which rebuild this is; the README gives measured costs.
func Apply(prev *Tree, edits ...Edit) (*Tree, error) {
	ch, err := prev.finalStates(edits)
	switch {
	case err != nil:
		return nil, err
	case prev.Len() == 0:
		return New(prev.changedList(ch))
	case !effective(ch):
		return prev, nil
	}
	if t := prev.patch(ch); t != nil {
		return t, nil
	}
	return New(prev.changedList(ch))
}

// change is a queue's state after a sequence of edits: its name, whether
// it is absent, its parent's name, its ID in the tree the edits apply to
// (None for a queue that tree does not have) and its parent's name there.
type change struct {
	name, parent, from string
	absent             bool
	id                 ID
}

// finalStates replays edits over t's list and returns, once per name
// edited and in the order of its first edit, the state the edits leave
// it in.
func (t *Tree) finalStates(edits []Edit) ([]change, error) {
	at := make(map[string]int, len(edits))
	ch := make([]change, 0, len(edits))
	for i, e := range edits {
		if e.Name == "" {
			return nil, fmt.Errorf("queuetree: edit %d has an empty name", i)
		}
		k, seen := at[e.Name]
		if !seen {
			id, ok := t.Lookup(e.Name)
			k = len(ch)
			at[e.Name] = k
			from := t.Name(t.Parent(id))
			ch = append(ch, change{name: e.Name, absent: !ok, id: id, parent: from, from: from})
		}
		c := &ch[k]
		if e.Remove {
			if c.absent {
				return nil, fmt.Errorf("queuetree: edit %d removes queue %q, which the list does not have", i, e.Name)
			}
			c.absent = true
			continue
		}
		c.absent, c.parent = false, e.Parent
	}
	return ch, nil
}

// effective reports whether the changes ch (against tree t's queues)
// change the list: a queue of t removed or given another parent, or a
// queue added.
func effective(ch []change) bool {
	for _, c := range ch {
		if c.kind() != unchanged {
			return true
		}
	}
	return false
}

// changeKind is what a change does to the list.
type changeKind uint8

const (
	unchanged changeKind = iota
	removed
	moved
	added
)

// kind classifies c.
func (c *change) kind() changeKind {
	switch {
	case c.id == None && c.absent:
		return unchanged // added, then removed again
	case c.id == None:
		return added
	case c.absent:
		return removed
	case c.parent == c.from:
		return unchanged // moved back, or given the parent it has
	}
	return moved
}

// changedList writes out t's list with the changes ch applied: t's queues
// in ID order (a moved queue with its new parent, a removed one left
// out), then the added queues in the order of ch. For the error of a
// changed list with a problem.
func (t *Tree) changedList(ch []change) []Queue {
	byID := make(map[ID]*change, len(ch))
	list := make([]Queue, 0, t.Len()+len(ch))
	for i := range ch {
		if ch[i].id != None {
			byID[ch[i].id] = &ch[i]
		}
	}
	for id := Root + 1; int(id) <= t.Len(); id++ {
		q := Queue{Name: t.names[id], Parent: t.names[t.parent[id]]}
		if c := byID[id]; c != nil {
			if c.absent {
				continue
			}
			q.Parent = c.parent
		}
		list = append(list, q)
	}
	for _, c := range ch {
		if c.kind() == added {
			list = append(list, Queue{Name: c.name, Parent: c.parent})
		}
	}
	return list
}

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

// patchLeaf serves the changes a watch reports most, one at a time: when
// ch holds one effective change, and it adds a queue under a parent t
// has, removes a queue without children, or moves one to a parent t has
// (not itself), it returns the patched tree and true (see leaf.go). A
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
	n := t.withoutLeaf(c.id) // moved: removed, then added
	m := n.withLeaf(c.name, shiftFrom(p, c.id+1, -1))
	m.shifts = leafShifts{from: weak.Make(t), s: [2]Shift{n.shifts.s[0], m.shifts.s[0]}, n: 2}
	return m, true
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
