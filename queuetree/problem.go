package queuetree

import (
	"fmt"
	"strings"
)

// The kinds of problem, the values of Problem.Kind and Problem.Dropped.
const (
	kindEmptyName     = "empty_name"     // an entry has no name
	kindDuplicateName = "duplicate_name" // two entries share a name
	kindUnknownParent = "unknown_parent" // a parent not in the list
	kindCycle         = "cycle"          // parent links return to an entry
)

// Problem is one thing wrong with the input of [New] (errors.As finds it
// in New's error).
type Problem struct {
	// Kind is what is wrong, a stable label: "empty_name" (an entry has
	// no name), "duplicate_name" (two entries share a name),
	// "unknown_parent" (an entry names a parent not in the list) or
	// "cycle" (following parents from an entry returns to it).
	Kind string
	// Index is the input position of the entry concerned (a duplicate's
	// later entry; a cycle's cut entry, or the dropped entry closing it).
	Index int
	// Queue and Parent are that entry's names.
	Queue, Parent string
	// First is, for duplicate_name, the position of the entry that was kept.
	First int
	// Members lists a cycle's queues, starting with the smallest name and
	// following parent links.
	Members []string
	// Dropped is, on an unknown_parent or cycle problem of an entry not
	// kept, why it is not: "empty_name" or "duplicate_name".
	Dropped string
	// Repair says how New repaired the problem ("entry dropped",
	// "later entry dropped", "made top-level", "made <queue> top-level").
	Repair string
}

// Error describes the problem and its repair, starting with "queuetree:".
func (p *Problem) Error() string {
	var msg string
	switch p.Kind {
	case kindEmptyName:
		msg = fmt.Sprintf("queuetree: entry #%d has an empty name", p.Index)
	case kindDuplicateName:
		msg = fmt.Sprintf("queuetree: duplicate queue %q (entries #%d and #%d)", p.Queue, p.First, p.Index)
	case kindUnknownParent:
		msg = fmt.Sprintf("queuetree: queue %q has unknown parent %q", p.Queue, p.Parent)
	case kindCycle:
		if len(p.Members) == 0 { // not built by New
			msg = fmt.Sprintf("queuetree: cycle through %q", p.Queue)
			break
		}
		msg = fmt.Sprintf("queuetree: cycle %s -> %s", strings.Join(p.Members, " -> "), p.Members[0])
	default:
		msg = fmt.Sprintf("queuetree: problem %q", p.Kind)
	}
	switch p.Dropped {
	case kindEmptyName:
		msg += fmt.Sprintf(" (entry #%d, an empty name)", p.Index)
	case kindDuplicateName:
		msg += fmt.Sprintf(" (entry #%d, a later duplicate)", p.Index)
	}
	if p.Repair != "" {
		msg += " (repaired: " + p.Repair + ")"
	}
	return msg
}
