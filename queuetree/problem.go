package queuetree

import (
	"fmt"
	"strings"
)

// ProblemKind classifies what is wrong with a queue list.
type ProblemKind uint8

const (
	// EmptyName: an entry has no name.
	EmptyName ProblemKind = iota + 1
	// DuplicateName: two entries share a name.
	DuplicateName
	// UnknownParent: an entry names a parent that is not in the list.
	UnknownParent
	// Cycle: following parents from an entry returns to it (a queue that is its
	// own parent included).
	Cycle
)

// String returns a stable lower-case name for the kind.
func (k ProblemKind) String() string {
	switch k {
	case EmptyName:
		return "empty_name"
	case DuplicateName:
		return "duplicate_name"
	case UnknownParent:
		return "unknown_parent"
	case Cycle:
		return "cycle"
	}
	return fmt.Sprintf("ProblemKind(%d)", uint8(k))
}

// Problem is one thing wrong with the input of [New] or [NewTolerant]. It is
// an error; use errors.As on the error New returns to inspect each one.
type Problem struct {
	Kind ProblemKind
	// Index is the position in the input of the entry concerned (for a
	// duplicate, the later entry; for a cycle, the entry whose parent link
	// NewTolerant cut, or the dropped entry that closes it).
	Index int
	// Queue and Parent are that entry's names.
	Queue, Parent string
	// First is, for DuplicateName, the position of the entry that was kept.
	First int
	// Members lists a cycle's queues, starting with the smallest name and
	// following parent links.
	Members []string
	// Dropped is set on an UnknownParent or Cycle problem of an entry that
	// is not kept: EmptyName for an entry without a name, DuplicateName for
	// a later duplicate (checked as if it replaced the kept entry of its
	// name). Such problems are reported so that every problem shows in one
	// pass; zero otherwise.
	Dropped ProblemKind
	// Repaired is true when NewTolerant repaired the problem; Repair says how.
	Repaired bool
	Repair   string
}

// Error describes the problem, and the repair when there was one. The message
// starts with "queuetree:".
func (p *Problem) Error() string {
	var msg string
	switch p.Kind {
	case EmptyName:
		msg = fmt.Sprintf("queuetree: entry #%d has an empty name", p.Index)
	case DuplicateName:
		msg = fmt.Sprintf("queuetree: duplicate queue %q (entries #%d and #%d)", p.Queue, p.First, p.Index)
	case UnknownParent:
		msg = fmt.Sprintf("queuetree: queue %q has unknown parent %q", p.Queue, p.Parent)
	case Cycle:
		if len(p.Members) == 0 { // not built by New or NewTolerant
			msg = fmt.Sprintf("queuetree: cycle through %q", p.Queue)
			break
		}
		msg = fmt.Sprintf("queuetree: cycle %s -> %s", strings.Join(p.Members, " -> "), p.Members[0])
	default:
		msg = "queuetree: " + p.Kind.String()
	}
	switch p.Dropped {
	case EmptyName:
		msg += fmt.Sprintf(" (entry #%d, an empty name)", p.Index)
	case DuplicateName:
		msg += fmt.Sprintf(" (entry #%d, a later duplicate)", p.Index)
	}
	if p.Repaired {
		msg += " (repaired: " + p.Repair + ")"
	}
	return msg
}
