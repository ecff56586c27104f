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

// Problem is one thing wrong with the input of [New] or [NewTolerant]. It is
// an error; use errors.As on the error New returns to inspect each one.
type Problem struct {
	// Kind is what is wrong, a stable label: "empty_name" (an entry has
	// no name), "duplicate_name" (two entries share a name),
	// "unknown_parent" (an entry names a parent not in the list) or
	// "cycle" (following parents from an entry returns to it).
	Kind string
	// Index is the position in the input of the entry concerned (for a
	// duplicate, the later entry; for a cycle, the entry whose parent link
	// NewTolerant cut, or the dropped entry that closes it).
	Index int
	// Queue and Parent are that entry's names.
	Queue, Parent string
	// First is, for duplicate_name, the position of the entry that was kept.
	First int
	// Members lists a cycle's queues, starting with the smallest name and
	// following parent links.
	Members []string
	// Dropped is set on an unknown_parent or cycle problem of an entry
	// that is not kept: "empty_name" for an entry without a name,
	// "duplicate_name" for a later duplicate (checked as if it replaced the
	// kept entry of its name), so that every problem shows in one pass;
	// "" otherwise.
	Dropped string
	// Repaired is true when NewTolerant repaired the problem; Repair says how.
	Repaired bool
	Repair   string
}

// Error describes the problem, and the repair when there was one. The message
// starts with "queuetree:".
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
		if len(p.Members) == 0 { // not built by New or NewTolerant
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
	if p.Repaired {
		msg += " (repaired: " + p.Repair + ")"
	}
	return msg
}
