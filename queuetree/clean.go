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
// and [NewTolerant] then take the full path (check, build), which reports
// every problem. On a clean list both paths build the same tree.
//
// Cost: O(n + Σ k log k) for n queues and sibling groups of size k, and
// the length of the names: each group is sorted on the 8 bytes that follow
// its names' longest common prefix, so siblings such as "team-0417" and
// "team-0418" rarely need a full string comparison.
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
	// One pointer-free backing for the scratch arrays.
	scratch := make([]int32, 4*n+3)
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
	t := number(queues, par, start, kids, fill)
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
// buf as scratch, and returns buf for reuse.
func sortByName(queues []Queue, g []int32, buf []keyedSlot) []keyedSlot {
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
	compare := func(a, b keyedSlot) int {
		if c := cmp.Compare(a.key, b.key); c != 0 {
			return c
		}
		return strings.Compare(queues[a.slot-1].Name[lcp:], queues[b.slot-1].Name[lcp:])
	}
	if len(buf) <= 12 {
		for i := 1; i < len(buf); i++ {
			for j := i; j > 0 && compare(buf[j-1], buf[j]) > 0; j-- {
				buf[j-1], buf[j] = buf[j], buf[j-1]
			}
		}
	} else {
		slices.SortFunc(buf, compare)
	}
	for i := range buf {
		g[i] = buf[i].slot
	}
	return buf
}

// number lays the tree out: IDs in preorder from Root, children in the
// order of kids. It records each slot's ID in slotID (n+1 long) and
// returns nil when fewer than all queues are reached (a cycle).
func number(queues []Queue, par, start, kids, slotID []int32) *Tree {
	n := len(queues)
	t := allocTree(n + 2)
	stack := make([]int32, 1, n+1)
	next := Root
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		id := next
		next++
		slotID[s] = int32(id)
		if s != 0 {
			t.names[id] = queues[s-1].Name
			t.parent[id] = ID(slotID[par[s-1]]) // numbered earlier
		}
		for k := start[s+1] - 1; k >= start[s]; k-- {
			stack = append(stack, kids[k])
		}
	}
	if int(next) != n+2 {
		return nil
	}
	t.link()
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
