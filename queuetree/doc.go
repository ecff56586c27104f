// Package queuetree is an immutable, precomputed queue hierarchy with a
// fast lowest-common-ancestor (LCA) query.
//
// Queues form a forest; an implicit [Root] joins the top-level queues so
// that any two queues have an LCA. KAI-Scheduler's min-runtime reclaim
// rule, "step one level down from the LCA toward the victim"
// (pkg/scheduler/plugins/minruntime), is [Tree.ChildOfLCA].
//
// Queues are named by strings at the edge ([Queue]) and by dense [ID]s
// inside: [None] (the zero ID, "no queue") is 0, Root is 1, the queues 2 to
// IDLimit()-1, a preorder from Root with children in name order. So the
// same queues get the same IDs whatever the input order (schedulers read
// them from maps), a parent's ID is below its children's, and an unset ID
// field never names a real queue. IDs belong to the tree that issued them.
//
//	count := make([]int, tree.IDLimit())
//	for id := queuetree.Root; tree.Valid(id); id++ { ... }
//
// [New] reports every empty name, duplicate, unknown parent and cycle at
// once, entries it cannot keep included, so that fixing them reveals no
// new ones, and returns the tree of the list repaired beside that error,
// for a scheduler that must keep running on whatever snapshot it has.
//
// # Costs
//
//	New                     O(n log n) time at worst, O(n) memory, no recursion
//	IDLimit, Valid, Name,   O(1)
//	Parent
//	Lookup                  one hash-index read
//	ChildOfLCA              O(log depth) by skew-binary jump pointers (E. W.
//	                        Myers, "An applicative random-access stack", 1983);
//	                        O(1) across top-level queues
//
// No query allocates or panics: an ID the tree did not issue gives None,
// false or "". A Tree is safe for concurrent reads; a nil or zero Tree has
// no IDs (IDLimit() is 0).
package queuetree
