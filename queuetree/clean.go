package queuetree

import (
	"cmp"
	"slices"
	"strings"
)

// buildClean builds the tree of a list without any problem, the common
// case, in one pass per step and without a global sort: the names go into
// a hash index (which finds empty names and duplicates), parents are
// resolved through it, each queue's children are sorted by name, and a
// preorder from Root numbers the queues, which reaches every queue unless
// some lie on a cycle. It returns nil as soon as it meets a problem; [New]
// then takes the full path (check, build), which reports and repairs
// every problem. On a clean list both paths build the same tree.
//
// Cost: O(n + Σ k log k) for n queues and sibling groups of size k, and
// the length of the names: a group of more than smallGroup siblings is
// sorted on the 8 bytes that follow its names' longest common prefix, so
// siblings such as "team-0417" and "team-0418" rarely need a full string
// comparison; a smaller group (most of them) by insertion on the names.
func buildClean(queues []Queue) *Tree {
	n := len(queues)
	if int64(n) >= 1<<31-2 {
		return nil
	}
	idx := newNameIndex(n)
	for i := range queues {
		if queues[i].Name == "" || !idx.insertQueue(queues, uint32(i+1)) {
			return nil
		}
	}
	// Slots: 0 is Root, input position i is slot i+1 (the index's values).
	// One pointer-free backing for the scratch arrays (the last n+1 are
	// number's stack).
	scratch := make([]int32, 5*n+4)
	par, start, kids := scratch[:n], scratch[n:2*n+2], scratch[2*n+2:3*n+2]
	for i := range queues {
		var p uint32
		if name := queues[i].Parent; name != "" {
			if p = idx.lookupQueue(queues, name); p == 0 {
				return nil // unknown parent
			}
		}
		par[i] = int32(p)
		start[p+1]++
	}
	for s := 1; s < len(start); s++ {
		start[s] += start[s-1]
	}
	fill := scratch[3*n+2 : 4*n+3] // start[:n+1], consumed while filling
	copy(fill, start[:n+1])
	for i, p := range par {
		kids[fill[p]] = int32(i + 1)
		fill[p]++
	}
	sortChildren(queues, start, kids)
	t := number(queues, par, start, kids, fill, scratch[4*n+3:])
	if t == nil {
		return nil // a cycle: its queues are not reachable from Root
	}
	// The index's values become IDs: slot v's ID is fill[v] (see number).
	for i, s := range idx.slots {
		if s != 0 {
			idx.slots[i] = slotOf(s, uint32(fill[uint32(s)]))
		}
	}
	t.index = idx
	return t
}

// sortChildren sorts each slot's children kids[start[s]:start[s+1]] by name.
func sortChildren(queues []Queue, start, kids []int32) {
	var buf []keyedSlot
	for s := 0; s+1 < len(start); s++ {
		if g := kids[start[s]:start[s+1]]; len(g) > 1 {
			buf = sortByName(queues, g, buf)
		}
	}
}

// keyedSlot is a slot with the 8 bytes of its name that follow its
// group's common prefix, as a big-endian number.
type keyedSlot struct {
	key  uint64
	slot int32
}

// sortByName sorts the slots g by name (the names are distinct), using
// buf as scratch, and returns buf for reuse. A small group is sorted by
// insertion, comparing the names themselves; a larger one on keys: the 8
// bytes of each name that follow the group's longest common prefix.
func sortByName(queues []Queue, g []int32, buf []keyedSlot) []keyedSlot {
	if len(g) <= smallGroup {
		for i := 1; i < len(g); i++ {
			s := g[i]
			name := queues[s-1].Name
			j := i
			for ; j > 0 && queues[g[j-1]-1].Name > name; j-- {
				g[j] = g[j-1]
			}
			g[j] = s
		}
		return buf
	}
	first := queues[g[0]-1].Name
	lcp := len(first)
	for _, s := range g[1:] {
		name := queues[s-1].Name
		k := 0
		for k < lcp && k < len(name) && name[k] == first[k] {
			k++
		}
		lcp = k
	}
	buf = buf[:0]
	for _, s := range g {
		buf = append(buf, keyedSlot{namePrefix(queues[s-1].Name[lcp:]), s})
	}
	slices.SortFunc(buf, func(a, b keyedSlot) int {
		if c := cmp.Compare(a.key, b.key); c != 0 {
			return c
		}
		return strings.Compare(queues[a.slot-1].Name[lcp:], queues[b.slot-1].Name[lcp:])
	})
	for i := range buf {
		g[i] = buf[i].slot
	}
	return buf
}

// smallGroup is the largest sibling group sortByName sorts by insertion.
const smallGroup = 12

// number lays the tree out: IDs in preorder from Root, children in the
// order of kids, each queue linked (depth, top-level queue, jump pointer)
// as it is numbered, while its parent's entries are still in cache. It
// records each slot's ID in slotID (n+1 long), uses stack (n+1 long) as
// scratch, and returns nil when fewer than all queues are reached (a
// cycle).
func number(queues []Queue, par, start, kids, slotID, stack []int32) *Tree {
	n := len(queues)
	t := allocTree(n + 2)
	t.jump[Root], t.top[Root] = Root, Root
	stack[0] = 0
	top := 1 // stack[:top] are the slots still to number
	next := Root
	for top > 0 {
		top--
		s := stack[top]
		id := next
		next++
		slotID[s] = int32(id)
		if s != 0 {
			p := ID(slotID[par[s-1]]) // numbered earlier
			t.names[id] = queues[s-1].Name
			t.parent[id] = p
			t.linkOne(id, p)
		}
		for k := start[s+1] - 1; k >= start[s]; k-- {
			stack[top] = kids[k]
			top++
		}
	}
	if int(next) != n+2 {
		return nil
	}
	t.sizes()
	return t
}

// allocTree returns a Tree with every array m long (IDs and slot None),
// the ID-typed and the int32 arrays each carved from one backing array.
func allocTree(m int) *Tree {
	ids := make([]ID, 3*m)
	ints := make([]int32, 2*m)
	return &Tree{
		names:  make([]string, m),
		parent: ids[:m:m],
		jump:   ids[m : 2*m : 2*m],
		top:    ids[2*m:],
		depth:  ints[:m:m],
		size:   ints[m:],
	}
}
