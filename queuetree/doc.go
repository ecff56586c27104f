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
// integer [ID]s inside. Two constructors ([Update], below, reuses a tree):
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
// IDs are a preorder from Root with children in name order, so the same set
// of queues gets the same IDs whatever the input order, every parent has a
// smaller ID than its children, and a subtree is a contiguous ID range.
//
// Name order is kept on purpose, although numbering children in input
// order would answer every query the same: schedulers read their queues
// from maps, in a different order each session, and IDs that moved with
// that order would make logs, reports and test outputs that print IDs or
// iterate Children differ from run to run. It costs little: a clean list
// sorts only each queue's own children (most groups are small and sorted
// by insertion on the names; larger ones on the 8 bytes after their
// common prefix), never the whole list. The rest of a clean build is one
// hash per name, one lookup per parent name, and one preorder pass that
// numbers and links each queue (depth, top-level queue, jump pointer)
// while its parent's entries are still in cache.
//
// # The zero ID is no queue
//
// [None], "no queue", is the zero ID, and [Root] is 1, the queues 2 and up.
// The zero value of an ID field is therefore never a real queue: a job
// whose Queue was forgotten, or filled from a [Tree.Lookup] whose ok was
// ignored, carries None, and the decisions above (package eligibility)
// deny it with their own reason instead of resolving it to some queue's
// protection. Were Root the zero ID, such a job would silently get the
// node-pool defaults (often 0: no protection at all). Numbering from 1
// costs one unused slot per array; every query keeps its cost.
//
// # Rebuilding per scheduling session
//
// A scheduler that rebuilds its view of the queues each session, from a
// list that rarely changes and comes in map order, calls [Update] with the
// previous tree: when the list describes the same queues with the same
// parents (an exact check, not a hash), Update returns the previous tree
// in O(n) — one index read and one string comparison per queue, no sort.
// A changed list is rebuilt incrementally: the same check finds what
// changed, and the previous tree is patched (below). Only a list with a
// problem, or one that changes more than half of the queues, pays for
// [New].
//
// A scheduler that learns of each change from a watch (an added, changed
// or deleted queue object, as a controller does) calls [Apply] with the
// [Edit]s alone and skips the check. Either way the result is exactly the
// tree New builds from the changed list, so IDs stay a preorder in name
// order. Apply refuses edits that leave a problem (a deletion that
// orphans queues, a queue before its parent), and an event refused is an
// event lost; [ApplyTolerant] applies every event, as NewTolerant builds
// every list: it repairs what the list lacks, reports it, and redoes the
// repairs on each change, so a queue whose parent arrives later moves
// under it then. (Apply itself changes the tree's own list; for a tree
// NewTolerant repaired, the list after the repairs, which then stay.)
// runtime.ApplyResolver follows the same one-queue patch for the
// min-runtime settings and takes the event's own setting.
//
// Which rebuild this is, precisely: incremental, not O(changed queues).
// IDs are a preorder, so adding, removing or moving one queue shifts the
// IDs after it, and a Tree is immutable, so a patch copies its arrays.
// That is a choice: the preorder is what makes IsAncestor one range test
// and lets a resolver inherit settings in one pass in ID order, and plain
// arrays are what make every query one or two reads. A rebuild in
// O(changed queues) on an immutable tree needs IDs that never shift and
// arrays shared between versions (persistent arrays, or chunks copied on
// write), so every query would pay an extra indirection, or ancestry by
// climbing, to make the rare queue change cheaper; queries run per
// victim per scheduling cycle, changes once in a while. What a patch does
// not do is the string work of a build: no unchanged queue's name is
// hashed again, and the only names compared are those of the sibling
// groups a changed queue joins. Two patches:
//
//   - one queue added, or one queue without children removed or moved
//     (what a watch reports, one event at a time): one pass of copies over
//     the arrays with one entry inserted or cut out and the stored IDs
//     after it shifted, plus a hash of the changed name and a walk over
//     the new parent's children. [Tree.ShiftsFrom] then reports the ID
//     shifts, so that arrays kept by ID (runtime's resolver) are patched
//     the same way;
//   - any other changes, e edits: a hash per changed name and new parent
//     name, a sort of the changed queues by parent and name, and a merge
//     into each sibling group that gained one (each sibling compared
//     once), then linear integer passes that renumber and relink every
//     queue.
//
// The name index is copied and patched; a removed name leaves a marker
// that lookups pass over, and the index is rebuilt when names and markers
// would fill half of it. The README gives the measured costs beside New's
// (section Benchmarks).
//
// # Queries and their cost
//
// After an O(n log n) build (a clean list sorts only each queue's children
// by name; a list with problems sorts all input positions by name; no
// recursion, so a 100,000-deep chain is fine), every query is
// allocation-free:
//
//	Lookup                         one hash-index read
//	Name, Parent, Depth,           O(1)
//	IsAncestor, SubtreeSize
//	LCA, ChildOfLCA                O(1) across top-level queues, else
//	                               O(log depth): one skew-binary jump pointer
//	                               per queue (E. W. Myers, "An applicative
//	                               random-access stack", 1983)
//	ChildToward                    O(log depth)
//	Ancestors, Children, IDs       iter.Seq, O(1) per step
//	Path                           O(depth), allocates its result (display)
//	Update                         O(n) when unchanged; else the same check
//	                               plus Apply's patch
//	Apply                          O(e log e) string work for e edits,
//	                               plus linear integer passes
//
// [Tree.ChildOfLCA] fuses the two steps of the min-runtime reclaim rule
// (the LCA, then one level down toward the victim) into one climb.
//
// A Tree never changes after it is built and is safe for concurrent reads.
// Queries given an ID the tree did not issue return [None], false, "" or 0;
// they never panic. [Tree.Lookup] of an unknown name returns None and
// false. A nil *Tree (what New returns with its error) and the zero Tree
// have no IDs, not even Root, and answer every query that way.
package queuetree
