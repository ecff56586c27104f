package queuetree

import "fmt"

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
// removed while its children were kept, or a cycle), and the error then
// wraps New's for the changed list written out as prev's queues in ID
// order followed by the added ones in the order of their first edit (the
// positions each [Problem.Index] gives). The tree is then nil, and prev
// is unchanged (a Tree never changes). A scheduler that must apply every
// event it gets, even one that orphans queues or arrives before its
// parent's, uses [ApplyTolerant].
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
	ch, _, errs := prev.finalStates(edits, false)
	switch {
	case errs != nil:
		return nil, errs[0]
	case prev.Len() != 0 && !effective(ch):
		return prev, nil
	}
	if prev.Len() != 0 {
		if t := prev.patch(ch); t != nil {
			return t, nil
		}
	}
	t, err := New(prev.changedList(ch))
	if err != nil {
		err = fmt.Errorf("queuetree: edits refused, the edited list has problems: %w", err)
	}
	return t, err
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
// it in. An edit with an empty name, or one that removes a queue the list
// lacks at that point, is an error: without tolerant the replay stops at
// the first one (ch is then nil); with tolerant the edit is skipped, and
// valid holds the edits kept, in order.
func (t *Tree) finalStates(edits []Edit, tolerant bool) (ch []change, valid []Edit, errs []error) {
	at := make(map[string]int, len(edits))
	ch = make([]change, 0, len(edits))
	for i, e := range edits {
		if err := t.replay(e, i, at, &ch); err != nil {
			if !tolerant {
				return nil, nil, []error{err}
			}
			errs = append(errs, err)
			continue
		}
		if tolerant {
			valid = append(valid, e)
		}
	}
	return ch, valid, errs
}

// replay applies edit e (the i-th) to the states ch, whose index by name
// is at, or returns why it cannot.
func (t *Tree) replay(e Edit, i int, at map[string]int, ch *[]change) error {
	if e.Name == "" {
		return fmt.Errorf("queuetree: edit %d has an empty name", i)
	}
	k, seen := at[e.Name]
	if !seen {
		id, ok := t.Lookup(e.Name)
		from := t.Name(t.Parent(id))
		k = len(*ch)
		at[e.Name] = k
		*ch = append(*ch, change{name: e.Name, absent: !ok, id: id, parent: from, from: from})
	}
	c := &(*ch)[k]
	switch {
	case !e.Remove:
		c.absent, c.parent = false, e.Parent
	case c.absent:
		return fmt.Errorf("queuetree: edit %d removes queue %q, which the list does not have", i, e.Name)
	default:
		c.absent = true
	}
	return nil
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
