package queuetree

import "slices"

// ApplyTolerant is [Apply] for a scheduler that must apply every event it
// gets, as [NewTolerant] is for [New]: it never returns a nil tree. A
// watch delivers a queue's deletion while its children remain, or a
// queue before its parent; Apply refuses such edits, and an event refused
// is an event lost. ApplyTolerant returns the tree NewTolerant builds from
// prev's input list changed by edits, and the problems, repaired:
//
//   - an edit with an empty name, or one that removes a queue the list
//     does not have at that point, is skipped and reported;
//   - the changed list's own problems are NewTolerant's: a queue whose
//     parent is unknown (removed, or not yet added) becomes top-level, a
//     cycle is broken at its smallest name.
//
// prev's input list is the list NewTolerant built prev from when prev has
// repairs (so a repair is redone on every change: a queue made top-level
// for an unknown parent keeps that parent's name, and moves under it as
// soon as an edit adds it), and prev's own queues otherwise. A tree with
// repairs keeps a copy of its input list, as NewTolerant's do. prev
// itself is returned when the edits leave its input list as it was (for
// a repaired prev, with its problems again). For prev without repairs and
// a clean result, the tree is exactly the one Apply returns and the
// problems are those of the skipped edits (nil when there are none).
//
// Each [Problem.Index] is a position in the changed list written out as
// follows. For prev without repairs: its queues in ID order, a removed
// one left out and a moved one's parent changed in place, then the added
// queues in the order of their first edit. For a repaired prev: its input
// list with every entry of a removed name dropped and every entry of a
// moved name given the new parent in place, and each added queue
// appended at the edit that adds it (a queue removed and added again
// counts as added).
//
// Cost: Apply's when the changed list is clean and prev has no repairs;
// otherwise NewTolerant's on the changed list.
func ApplyTolerant(prev *Tree, edits ...Edit) (*Tree, []error) {
	ch, valid, skipped := prev.finalStates(edits, true)
	if prev != nil && prev.repaired != nil {
		list := editList(prev.repaired.queues, valid)
		if slices.Equal(list, prev.repaired.queues) {
			return prev, append(skipped, slices.Clone(prev.repaired.errs)...)
		}
		t, problems := NewTolerant(list)
		return t, append(skipped, problems...)
	}
	switch {
	case prev.Len() == 0:
		t, problems := NewTolerant(prev.changedList(ch))
		return t, append(skipped, problems...)
	case !effective(ch):
		return prev, skipped
	}
	if t := prev.patch(ch); t != nil {
		return t, skipped
	}
	t, problems := NewTolerant(prev.changedList(ch))
	return t, append(skipped, problems...)
}

// editList returns a copy of queues changed by edits (each valid for the
// list at its point): a removal drops every entry of the name; any other
// edit gives every entry of the name its parent, or appends an entry when
// there is none. Entries with an empty name stay, as they were given.
// O(n + e).
func editList(queues []Queue, edits []Edit) []Queue {
	out := make([]Queue, 0, len(queues)+len(edits))
	out = append(out, queues...)
	at := map[string][]int{}
	for i, q := range out {
		at[q.Name] = append(at[q.Name], i)
	}
	var drop []bool // by entry; nil until a removal
	for _, e := range edits {
		switch idx := at[e.Name]; {
		case e.Remove:
			if drop == nil {
				drop = make([]bool, len(out), cap(out))
			}
			for _, i := range idx {
				drop[i] = true
			}
			delete(at, e.Name)
		case len(idx) > 0:
			for _, i := range idx {
				out[i].Parent = e.Parent
			}
		default:
			at[e.Name] = []int{len(out)}
			out = append(out, Queue{Name: e.Name, Parent: e.Parent})
			if drop != nil {
				drop = append(drop, false)
			}
		}
	}
	if drop == nil {
		return out
	}
	kept := out[:0]
	for i, q := range out {
		if !drop[i] {
			kept = append(kept, q)
		}
	}
	return kept
}
