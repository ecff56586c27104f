package queuetree

import "slices"

// Update returns a tree for queues, reusing prev when it can: when queues
// describes exactly prev's queues — the same names with the same parents,
// in any order, each name once and none empty — it returns prev itself
// and reused true (for a prev [NewTolerant] repaired, a copy without the
// record of its repairs, and reused false); otherwise it returns the tree
// [New](queues) returns (the same IDs, names and links), and New's error
// for a list with a problem. A nil or zero prev is never reused.
//
// It is for a scheduler that rebuilds its view of the queues every
// scheduling session (KAI-Scheduler's framework.Session), where the queue
// list rarely changes between sessions and comes in map order. The check
// is exact, never a hash comparison: every name of queues is looked up in
// prev, its parent compared by name, and the count of queues compared
// with prev's, so a list that differs from prev's in any way (a rename, a
// move, an added, removed or duplicated queue) is not reused.
//
// Cost: an unchanged list costs O(n), one index read and one string
// comparison per queue, no sort; it allocates only a bit set of one bit
// per queue. A changed list costs the same check, which also finds what
// changed, plus an incremental rebuild ([Apply]'s patch: no unchanged
// queue's name is hashed again, only the siblings of a changed queue are
// compared with it, and the arrays are copied with the IDs shifted or
// renumbered); only a list with a problem, or one in which more than half
// of prev's queues changed, pays for New's O(n log n) build.
// Because a Tree is immutable, handing prev out again is safe even while
// other goroutines read it, and every ID it issued keeps its meaning.
//
// Update is strict, as New is: a list with a problem is an error and a nil
// tree, even when prev was built from that very list by [NewTolerant]. A
// scheduler that builds tolerantly updates with [UpdateTolerant].
func Update(prev *Tree, queues []Queue) (t *Tree, reused bool, err error) {
	ch, same := prev.compare(queues)
	if same {
		t = prev.withoutRepairs()
		return t, t == prev, nil
	}
	if t := prev.patchIfAny(ch); t != nil {
		return t, false, nil
	}
	t, err = New(queues)
	return t, false, err
}

// compare reports whether queues lists exactly t's queues with their
// parents (same), and otherwise returns the changes that turn t's list
// into queues, or nil when the changes cannot be patched in: queues has
// an empty or repeated name, or changes more than half of t's queues.
// With as many entries as t has queues, every entry found in t with its
// parent, and no name repeated (each ID seen is marked), the lists are
// equal. O(n); allocates the bit set for trees of more than 62 queues,
// and the changes.
func (t *Tree) compare(queues []Queue) (ch []change, same bool) {
	if t.Len() == 0 {
		return nil, false
	}
	var small [1]uint64
	seen := small[:]
	if words := (t.Len() + 64) / 64; words > 1 {
		seen = make([]uint64, words)
	}
	var added map[string]bool
	found := 0
	for i := range queues {
		q := &queues[i]
		v := t.index.lookup(t.names, q.Name)
		if v == 0 {
			if q.Name == "" || added[q.Name] {
				return nil, false
			}
			if added == nil {
				added = map[string]bool{}
			}
			added[q.Name] = true
			ch = append(ch, change{name: q.Name, parent: q.Parent, id: None})
			continue
		}
		id := ID(v)
		w, bit := id/64, uint64(1)<<(id%64)
		if seen[w]&bit != 0 {
			return nil, false
		}
		seen[w] |= bit
		found++
		if from := t.names[t.parent[id]]; from != q.Parent {
			ch = append(ch, change{name: q.Name, parent: q.Parent, from: from, id: id})
		}
	}
	if found == t.Len()-1 && ch == nil {
		return nil, true
	}
	for id := Root + 1; found < t.Len()-1 && int(id) <= t.Len(); id++ {
		if seen[id/64]&(uint64(1)<<(id%64)) == 0 {
			ch = append(ch, change{name: t.names[id], from: t.names[t.parent[id]], absent: true, id: id})
			found++
		}
	}
	if 2*len(ch) > t.Len()-1 {
		return nil, false
	}
	return ch, false
}

// withoutRepairs returns t for a list that describes its queues exactly:
// t itself when NewTolerant repaired nothing, else a copy that shares its
// arrays (they never change) without the record of the repairs. That
// record is the input t was built from, with its problems, and the list
// at hand is another one, clean: [UpdateTolerant] and [ApplyTolerant]
// must not take it for this list's input and redo its repairs.
func (t *Tree) withoutRepairs() *Tree {
	if t.repaired == nil {
		return t
	}
	n := *t
	n.repaired, n.shifts = nil, leafShifts{}
	return &n
}

// patchIfAny is t.patch(ch), and nil for no changes.
func (t *Tree) patchIfAny(ch []change) *Tree {
	if ch == nil {
		return nil
	}
	return t.patch(ch)
}

// UpdateTolerant is [Update] for a scheduler that builds with
// [NewTolerant]: it never returns a nil tree. It returns prev itself and
// reused true when prev was built by NewTolerant from a list with
// problems and queues is that list again, entry for entry in the same
// order (the repairs depend on the order), and then the problems
// NewTolerant reported for it again; or when queues describes exactly
// prev's queues (as Update checks) and prev has no repairs, with no
// problems. A clean list that describes a repaired prev's queues gets a
// copy of prev without the repairs (reused false: it is not the list prev
// was built from). Otherwise it returns NewTolerant(queues). A nil or
// zero prev is never reused.
//
// Cost when reused: O(n), as Update, plus for a repaired prev one string
// comparison per entry; a repaired tree keeps a copy of its input list.
// A changed list without problems costs what it costs Update (the
// incremental rebuild; the tree is the one New and NewTolerant build).
// Else NewTolerant's.
func UpdateTolerant(prev *Tree, queues []Queue) (t *Tree, reused bool, problems []error) {
	if prev != nil && prev.repaired != nil && slices.Equal(prev.repaired.queues, queues) {
		return prev, true, slices.Clone(prev.repaired.errs)
	}
	ch, same := prev.compare(queues)
	if same {
		t = prev.withoutRepairs()
		return t, t == prev, nil
	}
	if t := prev.patchIfAny(ch); t != nil {
		return t, false, nil
	}
	t, problems = NewTolerant(queues)
	return t, false, problems
}
