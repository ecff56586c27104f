package queuetree

import "slices"

// Update returns a tree for queues, reusing prev when it can: when queues
// describes exactly the tree prev was built from — the same names with
// the same parents, in any order, each name once and none empty — it
// returns prev itself and reused true; otherwise it returns [New](queues).
// A nil or zero prev is never reused.
//
// It is for a scheduler that rebuilds its view of the queues every
// scheduling session (KAI-Scheduler's framework.Session), where the queue
// list rarely changes between sessions and comes in map order: an
// unchanged list costs O(n) (one index read and one string comparison per
// queue, no sort; it allocates only a bit set of one bit per queue),
// against New's O(n log n).
// Because a Tree is immutable, handing prev out again is safe even while
// other goroutines read it, and every ID it issued keeps its meaning.
//
// The check is exact, never a hash comparison: every name of queues is
// looked up in prev, its parent compared by name, and the count of queues
// compared with prev's, so a list that differs from prev's in any way
// (a rename, a move, an added, removed or duplicated queue) is rebuilt.
//
// Update is strict, as New is: a list with a problem is an error and a nil
// tree, even when prev was built from that very list by [NewTolerant]. A
// scheduler that builds tolerantly updates with [UpdateTolerant].
func Update(prev *Tree, queues []Queue) (t *Tree, reused bool, err error) {
	if prev.describes(queues) {
		return prev, true, nil
	}
	t, err = New(queues)
	return t, false, err
}

// describes reports whether queues lists exactly t's queues with their
// parents. With as many entries as t has queues, every entry found in t
// with its parent, and no name empty, the entries are distinct: two
// entries with one name would leave one of t's queues unlisted while the
// count still matches, so duplicates are caught by marking each ID seen.
// O(n); allocates the bit set for trees of more than 62 queues.
func (t *Tree) describes(queues []Queue) bool {
	if t.Len() == 0 || len(queues) != t.Len()-1 {
		return false
	}
	var small [1]uint64
	seen := small[:]
	if words := (t.Len() + 64) / 64; words > 1 {
		seen = make([]uint64, words)
	}
	for i := range queues {
		q := &queues[i]
		v := t.index.lookup(t.names, q.Name)
		if v == 0 {
			return false
		}
		id := ID(v)
		if t.names[t.parent[id]] != q.Parent {
			return false
		}
		w, bit := id/64, uint64(1)<<(id%64)
		if seen[w]&bit != 0 {
			return false
		}
		seen[w] |= bit
	}
	return true
}

// UpdateTolerant is [Update] for a scheduler that builds with
// [NewTolerant]: it never returns a nil tree. It returns prev itself and
// reused true when queues describes exactly prev's queues (as Update
// checks; the problems are then nil), or when prev was built by
// NewTolerant from a list with problems and queues is that list again,
// entry for entry in the same order (the repairs depend on the order); the
// problems NewTolerant reported for it are then returned again. Otherwise
// it returns NewTolerant(queues). A nil or zero prev is never reused.
//
// Cost when reused: O(n), as Update, plus for a repaired prev one string
// comparison per entry; a repaired tree keeps a copy of its input list.
// Else NewTolerant's.
func UpdateTolerant(prev *Tree, queues []Queue) (t *Tree, reused bool, problems []error) {
	if prev.describes(queues) {
		return prev, true, nil
	}
	if prev != nil && prev.repaired != nil && slices.Equal(prev.repaired.queues, queues) {
		return prev, true, slices.Clone(prev.repaired.errs)
	}
	t, problems = NewTolerant(queues)
	return t, false, problems
}
