// Package queuetree is an immutable, precomputed queue hierarchy with fast
// lowest-common-ancestor (LCA) queries.
//
// Schedulers organise queues as a forest (departments → teams → projects).
// tenure joins the top-level queues under an implicit [Root] so that any two
// queues have an LCA; the min-runtime reclaim rule ("step one level down from
// the LCA toward the victim") is [Tree.ChildOfLCA], which runtime's Resolver
// calls for every LCA-method reclaim.
//
// # Building
//
// Queues are named by strings at the edge ([Queue]{Name, Parent}) and by dense
// integer [ID]s inside. Two constructors:
//
//   - [New] is strict: any empty name, duplicate, unknown parent or cycle
//     (a queue that is its own parent included) is an error, and the error
//     lists every problem at once (errors.Join of [*Problem]). Entries that
//     cannot be kept are analysed too: an empty-name entry or a later
//     duplicate with an unknown parent, and a duplicate that would close a
//     cycle if it were kept instead of the first, are reported as well
//     ([Problem.Dropped]), so fixing the reported problems does not reveal
//     new ones.
//   - [NewTolerant] is for a scheduler that must keep running on whatever
//     snapshot it has: it repairs the list (drops empty names and later
//     duplicates, makes orphans top-level, breaks each cycle at its smallest
//     name) and returns what it repaired. On a clean list it returns exactly
//     the tree New returns.
//
// A tree never changes: a scheduler whose queues changed builds a new one
// (at 4,000 queues, about a millisecond with the min-runtime resolver; the
// README gives the measured costs).
//
// # IDs
//
// [None], "no queue", is the zero ID, [Root] is 1, and the queues are 2
// and up, to IDLimit()-1. The zero value of an ID field is therefore never
// a real queue: a job whose Queue was forgotten, or filled from a
// [Tree.Lookup] whose ok was ignored, carries None, and the decisions above
// (package eligibility) deny it with their own reason instead of resolving
// it to some queue's protection. A slice indexed by ID has [Tree.IDLimit]
// elements (n+2 for n queues, not n), and the IDs are walked with
// [Tree.Valid]:
//
//	count := make([]int, tree.IDLimit())
//	for id := queuetree.Root; tree.Valid(id); id++ { ... }
//
// IDs are a preorder from Root with children in name order, so the same set
// of queues gets the same IDs whatever the input order, every parent has a
// smaller ID than its children, and a subtree is a contiguous ID range. Name
// order is kept on purpose: schedulers read their queues from maps, in a
// different order each session, and IDs that moved with that order would
// make logs and test outputs that print IDs differ from run to run. IDs
// belong to the tree that issued them: after a rebuild, look names up again.
//
// # Costs
//
//	New, NewTolerant      O(n log n) time at worst, O(n) memory, no recursion
//	                      (a 100,000-deep chain is fine); a clean list sorts
//	                      only each queue's children by name
//	IDLimit, Valid,       O(1)
//	Name, Parent
//	Lookup                one hash-index read, usually one string comparison
//	ChildOfLCA            O(1) across top-level queues, else O(log depth): one
//	                      skew-binary jump pointer per queue (E. W. Myers, "An
//	                      applicative random-access stack", 1983)
//
// No query allocates. A Tree is safe for concurrent reads. Queries given an
// ID the tree did not issue return [None], false or ""; they never panic.
// [Tree.Lookup] of an unknown name returns None and false. A nil *Tree (what
// New returns with its error) and the zero Tree have no IDs, not even Root
// (IDLimit() is 0), and answer every query that way. An unknown queue name
// anywhere in tenure is an error wrapping [ErrUnknownQueue].
package queuetree
