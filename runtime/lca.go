package runtime

import (
	"fmt"

	"github.com/tenurepolicy/tenure/queuetree"
)

// link is one queue's place in the tree, packed so that the LCA climb
// reads one 16-byte entry per step.
type link struct {
	end    queuetree.ID // the subtree of id is the ID range [id, end)
	parent queuetree.ID // None for Root
	jump   queuetree.ID // skew-binary jump pointer: an ancestor; Root for Root
	top    queuetree.ID // the top-level queue above id (id itself if top-level); Root for Root
}

// newLinks copies t's shape (parent, depth, subtree range) and derives one
// skew-binary jump pointer per queue (Myers 1983, the scheme
// queuetree.Tree.LCA uses): jump(v) is jump(jump(p)) when the jumps from p
// and from jump(p) have the same length, else p itself. Any ancestor is
// then reachable in O(log depth) steps of jump or parent. O(n), one pass in
// increasing ID order, which visits parents first since IDs are preorder;
// it checks that invariant rather than trusting it.
func newLinks(t *queuetree.Tree) ([]link, error) {
	n := t.Len()
	links := make([]link, n)
	depth := make([]int32, n) // only needed to build the jump pointers
	links[queuetree.Root] = link{end: queuetree.ID(n), parent: queuetree.None, jump: queuetree.Root, top: queuetree.Root}
	for id := queuetree.ID(1); int(id) < n; id++ {
		p := t.Parent(id)
		size := t.SubtreeSize(id)
		if p < 0 || p >= id || size < 1 || int(id)+size > n {
			return nil, fmt.Errorf("runtime: queue tree is not in preorder at ID %d (parent %d, subtree size %d)", id, p, size)
		}
		jump := p
		pj := links[p].jump
		if depth[p]-depth[pj] == depth[pj]-depth[links[pj].jump] {
			jump = links[pj].jump
		}
		top := links[p].top
		if p == queuetree.Root {
			top = id
		}
		depth[id] = depth[p] + 1
		links[id] = link{end: id + queuetree.ID(size), parent: p, jump: jump, top: top}
	}
	return links, nil
}

// childOfLCA returns c for a reclaim of victim by reclaimer (both valid):
// the child of l = LCA(reclaimer, victim) on the path to victim, or victim
// itself when victim is l. That is the highest ancestor of victim (victim
// included) whose subtree does not contain reclaimer. When that is the
// victim's top-level queue (the two queues are under different top-level
// queues: the common case across departments) it is found in O(1);
// otherwise in one climb from victim, taking the jump pointer whenever it
// stays below l. It equals tree.ChildToward(tree.LCA(reclaimer, victim),
// victim) (tested), in one climb instead of two. O(log depth), no
// allocation.
func (r *Resolver) childOfLCA(reclaimer, victim queuetree.ID) queuetree.ID {
	links := r.links
	// contains reports whether the subtree of a contains reclaimer; Root's
	// contains every queue, so the climb stops at a top-level queue at the
	// latest.
	contains := func(a queuetree.ID) bool { return a <= reclaimer && reclaimer < links[a].end }
	if contains(victim) {
		return victim
	}
	v := links[victim]
	if !contains(v.top) {
		return v.top
	}
	x := victim // invariant: x is victim or an ancestor, not containing reclaimer
	for {
		l := links[x]
		if !contains(l.jump) {
			x = l.jump
		} else if !contains(l.parent) {
			x = l.parent
		} else {
			return x
		}
	}
}
