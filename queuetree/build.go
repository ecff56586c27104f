package queuetree

import (
	"cmp"
	"errors"
	"slices"
	"strings"
)

// Queue is one entry of the input list: a queue and the name of its parent.
// An empty Parent makes the queue top-level (a child of the implicit [Root]).
type Queue struct {
	Name   string
	Parent string
}

// New builds a Tree from queues. On a clean list it returns the Tree and a
// nil error. Otherwise it returns the Tree built from the list repaired
// beside an error joining one [*Problem] per problem, each saying how it
// was repaired: every empty name and later duplicate (dropped), unknown
// parent (the queue made top-level, as KAI-Scheduler treats one) and cycle
// (cut at its member with the smallest name), in that order, each group in
// input order. A scheduler that must keep running uses the Tree and logs
// the error; a strict caller stops on the error. Entries that cannot be
// kept are checked too (an empty name or a later duplicate with an unknown
// parent, a duplicate that would close a cycle if kept instead:
// [Problem.Dropped]), so fixing the reported problems reveals no new ones;
// a cycle that needs two duplicates at once is not predicted. The Tree is
// never nil; the input is not retained. O(n log n).
func New(queues []Queue) (*Tree, error) {
	if t := buildClean(queues); t != nil {
		return t, nil
	}
	ents, problems := check(queues)
	errs := make([]error, len(problems))
	for i, p := range problems {
		errs[i] = p
	}
	return build(ents), errors.Join(errs...)
}

// entry is a queue after checking: sorted by name, parent as an index into
// the same sorted slice (-1 for top-level).
type entry struct {
	name   string
	parent int32
}

// check validates queues and returns the entries sorted by name with parent
// indexes resolved and New's repairs applied, and the problems, grouped by
// kind in the order New documents.
func check(queues []Queue) ([]entry, []*Problem) {
	kept, problems, dropped := dedupe(queues)
	ents, index, orphans, closers := resolveParents(queues, kept, dropped)
	problems = append(problems, orphans...)
	cycles, cuts := findCycles(queues, kept, ents)
	if len(closers) > 0 {
		cycles = append(cycles, closedCycles(ents, index, cuts, closers)...)
	}
	for _, c := range cuts {
		ents[c].parent = -1
	}
	slices.SortFunc(cycles, byIndex)
	problems = append(problems, cycles...)
	return ents, problems
}

// dedupe returns the input positions of the entries kept (non-empty names,
// the first entry of each name), sorted by name; the empty_name and then
// duplicate_name problems, each group in input order; and the problems of
// the entries dropped that could still hide an unknown parent or a cycle
// (every empty name, and each later duplicate whose parent differs from
// the kept entry's).
func dedupe(queues []Queue) (kept []int32, problems, dropped []*Problem) {
	// Sort input positions, not entries: the positions hold no pointers, so
	// the sort moves plain integers (no write barriers) and compares names
	// through them.
	items := make([]int32, 0, len(queues))
	for i, q := range queues {
		if q.Name == "" {
			p := &Problem{Kind: kindEmptyName, Index: i, Parent: q.Parent, Repair: "entry dropped"}
			problems = append(problems, p)
			dropped = append(dropped, p)
			continue
		}
		items = append(items, int32(i))
	}
	// By name, then input position, so among duplicates the first in input
	// order comes first (a stable order without the cost of a stable sort).
	// Each name's first 8 bytes, as a big-endian number, order most pairs
	// without touching the strings; equal prefixes compare in full.
	prefix := make([]uint64, len(queues))
	for _, at := range items {
		prefix[at] = namePrefix(queues[at].Name)
	}
	slices.SortFunc(items, func(a, b int32) int {
		if c := cmp.Compare(prefix[a], prefix[b]); c != 0 {
			return c
		}
		if c := strings.Compare(queues[a].Name, queues[b].Name); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	kept = items[:0]
	var dups []*Problem
	for i, at := range items {
		it := &queues[at]
		if i > 0 && it.Name == queues[items[i-1]].Name {
			fi := kept[len(kept)-1]
			p := &Problem{Kind: kindDuplicateName, Index: int(at), First: int(fi),
				Queue: it.Name, Parent: it.Parent, Repair: "later entry dropped"}
			dups = append(dups, p)
			if it.Parent != queues[fi].Parent { // an identical entry adds nothing
				dropped = append(dropped, p)
			}
			continue
		}
		kept = append(kept, at)
	}
	slices.SortFunc(dups, byIndex)
	return kept, append(problems, dups...), dropped
}

// resolveParents lays the kept entries out in name order with their parent
// as an index (-1 for top-level) and builds the name → index map. It
// returns the unknown_parent problems in input order — of kept entries
// (which New makes top-level) and of dropped ones — and the
// dropped duplicates whose parent is known, which may close a cycle.
func resolveParents(queues []Queue, kept []int32, dropped []*Problem) ([]entry, map[string]int32, []*Problem, []*Problem) {
	ents := make([]entry, len(kept))
	index := make(map[string]int32, len(kept))
	for i, at := range kept {
		index[queues[at].Name] = int32(i)
	}
	var orphans []*Problem
	for i, at := range kept {
		it := &queues[at]
		ents[i] = entry{name: it.Name, parent: -1}
		if it.Parent == "" {
			continue
		}
		j, found := index[it.Parent]
		if !found {
			orphans = append(orphans, &Problem{Kind: kindUnknownParent, Index: int(at), Queue: it.Name,
				Parent: it.Parent, Repair: "made top-level"})
			continue
		}
		ents[i].parent = j
	}
	var closers []*Problem
	for _, d := range dropped {
		if d.Parent == "" {
			continue
		}
		if _, found := index[d.Parent]; !found {
			orphans = append(orphans, &Problem{Kind: kindUnknownParent, Index: d.Index, Queue: d.Queue,
				Parent: d.Parent, Dropped: d.Kind, Repair: "entry dropped"})
		} else if d.Kind == kindDuplicateName {
			closers = append(closers, d)
		}
	}
	slices.SortFunc(orphans, byIndex)
	return ents, index, orphans, closers
}

// findCycles returns a cycle problem per cycle of the kept parent links,
// and each cycle's member with the smallest name (where New cuts it). The links form a functional graph; each unvisited entry's chain is
// walked, in name order, with an explicit path (no recursion). O(n).
func findCycles(queues []Queue, kept []int32, ents []entry) (cycles []*Problem, cuts []int32) {
	const (
		unseen = iota
		onPath
		done
	)
	state := make([]uint8, len(ents))
	pos := make([]int32, len(ents))
	var path []int32
	for start := range ents {
		path = path[:0]
		v := int32(start)
		for v >= 0 && state[v] == unseen {
			state[v] = onPath
			pos[v] = int32(len(path))
			path = append(path, v)
			v = ents[v].parent
		}
		if v >= 0 && state[v] == onPath {
			// Start the cycle at its smallest name (smallest index: ents are
			// sorted by name) and follow parent links from there.
			low := slices.Min(path[pos[v]:])
			var members []string
			for u := low; ; {
				members = append(members, ents[u].name)
				if u = ents[u].parent; u == low {
					break
				}
			}
			cycles = append(cycles, &Problem{Kind: kindCycle, Index: int(kept[low]), Queue: ents[low].name,
				Parent: queues[kept[low]].Parent, Members: members, Repair: "made " + ents[low].name + " top-level"})
			cuts = append(cuts, low)
		}
		for _, u := range path {
			state[u] = done
		}
	}
	return cycles, cuts
}

// closedCycles returns a cycle problem for each dropped duplicate d (a
// duplicate_name problem whose parent is a known name) that would close a
// cycle if it replaced the kept entry of its name: that is, when d's name
// is reachable from d's parent by the kept parent links (ents, before any
// repair). cuts holds the smallest member of each kept cycle.
//
// Reachability is answered in O(1) per duplicate: cutting each kept cycle
// at its smallest member c turns the kept links into a forest F, in which
// c is a root and the rest of its cycle is a chain below it, ending at c's
// own parent x. Following the kept links from a queue visits its ancestors
// in F and, when its F-root is a cut c, then x and its ancestors, that is
// the whole cycle. A preorder numbering of F tests ancestry. Listing a
// cycle's members costs its length.
func closedCycles(ents []entry, index map[string]int32, cuts []int32, closers []*Problem) []*Problem {
	fparent := make([]int32, len(ents))
	for i := range ents {
		fparent[i] = ents[i].parent
	}
	for _, c := range cuts {
		fparent[c] = -1
	}
	pre, size, root := forestIntervals(fparent)
	ancestorOrSelf := func(a, v int32) bool { return pre[a] <= pre[v] && pre[v] < pre[a]+size[a] }
	isCut := make(map[int32]bool, len(cuts))
	for _, c := range cuts {
		isCut[c] = true
	}

	var out []*Problem
	for _, d := range closers {
		self, par := index[d.Queue], index[d.Parent]
		r := root[par]
		if !ancestorOrSelf(self, par) && !(isCut[r] && ancestorOrSelf(self, ents[r].parent)) {
			continue
		}
		out = append(out, &Problem{Kind: kindCycle, Index: d.Index, Queue: d.Queue, Parent: d.Parent,
			Members: cycleMembers(ents, self, par), Dropped: kindDuplicateName, Repair: "entry dropped"})
	}
	return out
}

// forestIntervals numbers the forest given by parent links (-1 for a root)
// in an iterative preorder: each entry gets its interval [pre, pre+size)
// and its root, so that a is an ancestor-or-self of v exactly when pre[v]
// lies in a's interval. O(n).
func forestIntervals(fparent []int32) (pre, size, root []int32) {
	n := int32(len(fparent))
	// Children lists (CSR).
	start := make([]int32, n+1)
	for _, p := range fparent {
		if p >= 0 {
			start[p+1]++
		}
	}
	for i := int32(1); i <= n; i++ {
		start[i] += start[i-1]
	}
	kids := make([]int32, start[n])
	fill := slices.Clone(start[:n])
	for i, p := range fparent {
		if p >= 0 {
			kids[fill[p]] = int32(i)
			fill[p]++
		}
	}
	pre, size, root = make([]int32, n), make([]int32, n), make([]int32, n)
	var stack []int32
	next := int32(0)
	for r := int32(0); r < n; r++ {
		if fparent[r] >= 0 {
			continue
		}
		stack = append(stack[:0], r)
		for len(stack) > 0 {
			v := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			pre[v], root[v] = next, r
			next++
			stack = append(stack, kids[start[v]:start[v+1]]...)
		}
	}
	order := make([]int32, n) // entries by preorder
	for v := int32(0); v < n; v++ {
		size[v] = 1
		order[pre[v]] = v
	}
	for k := n - 1; k >= 0; k-- { // children come later in preorder
		if p := fparent[order[k]]; p >= 0 {
			size[p] += size[order[k]]
		}
	}
	return pre, size, root
}

// cycleMembers lists the cycle that entry self closes by taking par as its
// parent: self, then par, then the kept links back to self, rotated to
// start from the smallest name.
func cycleMembers(ents []entry, self, par int32) []string {
	members := []string{ents[self].name}
	for u := par; u != self; u = ents[u].parent {
		members = append(members, ents[u].name)
	}
	low := 0
	for i := range members {
		if members[i] < members[low] {
			low = i
		}
	}
	return append(members[low:], members[:low]...)
}

// byIndex orders problems by the input position of the entry concerned.
func byIndex(a, b *Problem) int { return cmp.Compare(a.Index, b.Index) }

// build lays out an acyclic, resolved entry list as a Tree: IDs in preorder
// from the implicit root, children visited in name order, so the same set of
// queues always gets the same IDs. It is the path for lists with problems
// (see [buildClean] for the common case).
func build(ents []entry) *Tree {
	n := len(ents) + 1 // IDs issued: the root and one per entry
	// Children lists (CSR), filled in name order because ents are sorted.
	// Slot 0 is the root; entry i is slot i+1.
	start := make([]int32, n+1)
	for _, e := range ents {
		start[e.parent+1+1]++
	}
	for i := 1; i <= n; i++ {
		start[i] += start[i-1]
	}
	kids := make([]int32, len(ents))
	fill := slices.Clone(start[:n])
	for i, e := range ents {
		p := e.parent + 1
		kids[fill[p]] = int32(i + 1)
		fill[p]++
	}

	// Every array has one slot per ID plus slot None (0), which stays zero:
	// no name, parent None, an empty subtree, so no query ever matches it.
	t := allocTree(n + 1)
	// Iterative preorder. The stack holds slots; children are pushed in
	// reverse so they pop in name order.
	slotID := make([]ID, n)
	stack := []int32{0}
	next := Root
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		id := next
		next++
		slotID[s] = id
		if s == 0 {
			t.parent[id] = None
		} else {
			e := ents[s-1]
			t.names[id] = e.name
			t.parent[id] = slotID[e.parent+1] // the parent was numbered earlier
		}
		for k := start[s+1] - 1; k >= start[s]; k-- {
			stack = append(stack, kids[k])
		}
	}
	t.link()
	t.index = indexNames(t.names)
	return t
}

// link fills depth, top-level queue and jump pointer top-down (Parent(id) <
// id), then subtree sizes bottom-up, once parents are set. O(n).
func (t *Tree) link() {
	last := ID(len(t.parent) - 1) // the largest ID
	t.jump[Root] = Root
	t.top[Root] = Root
	for id := Root + 1; id <= last; id++ {
		t.linkOne(id, t.parent[id])
	}
	t.sizes()
}

// linkOne fills id's depth, top-level queue and jump pointer from its
// parent p's, which must be filled already.
func (t *Tree) linkOne(id, p ID) {
	t.depth[id] = t.depth[p] + 1
	if p == Root {
		t.top[id] = id
	} else {
		t.top[id] = t.top[p]
	}
	jp := t.jump[p]
	if t.depth[p]-t.depth[jp] == t.depth[jp]-t.depth[t.jump[jp]] {
		t.jump[id] = t.jump[jp]
	} else {
		t.jump[id] = p
	}
}

// sizes fills subtree sizes bottom-up (children have larger IDs), once
// parents are set. O(n).
func (t *Tree) sizes() {
	for id := ID(len(t.parent) - 1); id >= Root; id-- {
		t.size[id]++
		if id != Root {
			t.size[t.parent[id]] += t.size[id]
		}
	}
}

// namePrefix returns the first 8 bytes of name as a big-endian number,
// padded with zero bytes: prefixes order as the names do, except that
// names equal in their first 8 bytes (or shorter names that are padded
// alike) tie and must be compared in full.
func namePrefix(name string) uint64 {
	if len(name) >= 8 {
		// One 8-byte load: the compiler combines these reads.
		return uint64(name[0])<<56 | uint64(name[1])<<48 | uint64(name[2])<<40 | uint64(name[3])<<32 |
			uint64(name[4])<<24 | uint64(name[5])<<16 | uint64(name[6])<<8 | uint64(name[7])
	}
	var p uint64
	for i := 0; i < 8; i++ {
		p <<= 8
		if i < len(name) {
			p |= uint64(name[i])
		}
	}
	return p
}
