package queuetree

import (
	"cmp"
	"errors"
	"slices"
)

// Queue is one entry of the input list: a queue and the name of its parent.
// An empty Parent makes the queue top-level (a child of the implicit [Root]).
type Queue struct {
	Name   string
	Parent string
}

// New builds a Tree from queues, strictly: if anything is wrong it returns a
// nil Tree and an error joining (errors.Join) one [*Problem] per problem found
// — every empty name, duplicate name, unknown parent and cycle, in that order,
// each group in input order of [Problem.Index] (for a cycle, the position of
// its member with the smallest name). The input is
// not modified or retained.
//
// Cost: O(n log n) time for n queues (a sort by name), O(n) memory, no
// recursion, so deep chains are fine.
func New(queues []Queue) (*Tree, error) {
	ents, index, problems := check(queues, false)
	if len(problems) > 0 {
		errs := make([]error, len(problems))
		for i, p := range problems {
			errs[i] = p
		}
		return nil, errors.Join(errs...)
	}
	return build(ents, index), nil
}

// NewTolerant builds a usable Tree from an inconsistent list, for schedulers
// that must keep running on whatever snapshot they have, and returns the
// problems it repaired (nil when there were none). The repairs are:
//
//   - an entry with an empty name is dropped;
//   - of entries sharing a name, the first in input order is kept and the
//     later ones are dropped (so IDs then depend on which one came first);
//   - a queue whose parent is unknown becomes top-level (as KAI-Scheduler
//     treats an orphan queue);
//   - a cycle is broken by making its member with the smallest name
//     top-level; the rest of the cycle then hangs below it.
//
// When the list has no problem, NewTolerant returns the same tree as [New].
// Cost as for New.
func NewTolerant(queues []Queue) (*Tree, []error) {
	ents, index, problems := check(queues, true)
	var errs []error
	for _, p := range problems {
		errs = append(errs, p)
	}
	return build(ents, index), errs
}

// entry is a queue after checking: sorted by name, parent as an index into
// the same sorted slice (-1 for top-level).
type entry struct {
	name   string
	parent int32
}

// check validates queues and returns the entries sorted by name with parent
// indexes resolved. With repair it applies NewTolerant's repairs and marks the
// problems repaired; without, the entries are only meaningful when no problem
// was found.
func check(queues []Queue, repair bool) ([]entry, map[string]int32, []*Problem) {
	var problems []*Problem
	type item struct {
		Queue
		index int
	}
	items := make([]item, 0, len(queues))
	for i, q := range queues {
		if q.Name == "" {
			problems = append(problems, &Problem{Kind: EmptyName, Index: i, Parent: q.Parent,
				Repaired: repair, Repair: "entry dropped"})
			continue
		}
		items = append(items, item{q, i})
	}
	// By name, then input position, so among duplicates the first in input
	// order comes first (a stable order without the cost of a stable sort).
	slices.SortFunc(items, func(a, b item) int {
		if c := cmp.Compare(a.Name, b.Name); c != 0 {
			return c
		}
		return cmp.Compare(a.index, b.index)
	})
	kept := items[:0]
	var dups []*Problem
	for i, it := range items {
		if i > 0 && it.Name == items[i-1].Name {
			first := kept[len(kept)-1].index
			dups = append(dups, &Problem{Kind: DuplicateName, Index: it.index, First: first,
				Queue: it.Name, Parent: it.Parent, Repaired: repair, Repair: "later entry dropped"})
			continue
		}
		kept = append(kept, it)
	}
	slices.SortFunc(dups, byIndex)
	problems = append(problems, dups...)

	ents := make([]entry, len(kept))
	index := make(map[string]int32, len(kept))
	for i, it := range kept {
		index[it.Name] = int32(i)
	}
	var orphans []*Problem
	for i, it := range kept {
		ents[i] = entry{name: it.Name, parent: -1}
		if it.Parent == "" {
			continue
		}
		j, found := index[it.Parent]
		if !found {
			orphans = append(orphans, &Problem{Kind: UnknownParent, Index: it.index, Queue: it.Name,
				Parent: it.Parent, Repaired: repair, Repair: "made top-level"})
			continue
		}
		ents[i].parent = j
	}
	slices.SortFunc(orphans, byIndex)
	problems = append(problems, orphans...)

	// Cycles: the parent links form a functional graph; walk each unvisited
	// entry's chain, in name order, with an explicit path (no recursion).
	const (
		unseen = iota
		onPath
		done
	)
	state := make([]uint8, len(ents))
	pos := make([]int32, len(ents))
	var path []int32
	var cycles []*Problem
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
			cyc := path[pos[v]:]
			// Start the cycle at its smallest name (smallest index: ents are
			// sorted by name) and follow parent links from there.
			low := slices.Min(cyc)
			members := make([]string, 0, len(cyc))
			for u := low; ; {
				members = append(members, ents[u].name)
				u = ents[u].parent
				if u == low {
					break
				}
			}
			cycles = append(cycles, &Problem{Kind: Cycle, Index: kept[low].index, Queue: ents[low].name,
				Parent: kept[low].Parent, Members: members, Repaired: repair, Repair: "made " + ents[low].name + " top-level"})
			if repair {
				ents[low].parent = -1
			}
		}
		for _, u := range path {
			state[u] = done
		}
	}
	slices.SortFunc(cycles, byIndex)
	problems = append(problems, cycles...)
	return ents, index, problems
}

// byIndex orders problems by the input position of the entry concerned.
func byIndex(a, b *Problem) int { return cmp.Compare(a.Index, b.Index) }

// build lays out an acyclic, resolved entry list as a Tree: IDs in preorder
// from the implicit root, children visited in name order, so the same set of
// queues always gets the same IDs. index (name → position in ents) is reused
// as the tree's name → ID map: its values are overwritten in place.
func build(ents []entry, index map[string]int32) *Tree {
	n := len(ents) + 1 // plus the root
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

	t := &Tree{
		names:  make([]string, n),
		parent: make([]ID, n),
		depth:  make([]int32, n),
		size:   make([]int32, n),
		jump:   make([]ID, n),
		top:    make([]ID, n),
		byName: index,
	}
	// Iterative preorder. The stack holds slots; children are pushed in
	// reverse so they pop in name order.
	slotID := make([]ID, n)
	stack := []int32{0}
	next := ID(0)
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
			t.byName[e.name] = int32(id)
			t.parent[id] = slotID[e.parent+1] // the parent was numbered earlier
		}
		for k := start[s+1] - 1; k >= start[s]; k-- {
			stack = append(stack, kids[k])
		}
	}
	// Depth and jump pointers top-down (Parent(id) < id), sizes bottom-up.
	t.jump[Root] = Root
	for id := ID(1); id < ID(n); id++ {
		p := t.parent[id]
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
	for id := ID(n - 1); id >= 0; id-- {
		t.size[id]++
		if id != Root {
			t.size[t.parent[id]] += t.size[id]
		}
	}
	return t
}
