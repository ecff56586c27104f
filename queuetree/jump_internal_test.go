package queuetree

import (
	"fmt"
	"math/bits"
	"testing"
)

// TestJumpPointers checks the structure the O(log depth) queries rely on,
// which no query result can show (a tree whose jump pointers were all
// parents would answer the same, in O(depth)): every jump pointer and top
// entry points to the right kind of ancestor, and the greedy descent the
// queries use ("take the jump unless it overshoots, else the parent")
// reaches any ancestor of a 100,000-deep chain in O(log depth) steps.
func TestJumpPointers(t *testing.T) {
	const n = 100_000
	qs := make([]Queue, n)
	for i := range qs {
		qs[i].Name = fmt.Sprintf("q%06d", i)
		if i > 0 {
			qs[i].Parent = qs[i-1].Name
		}
	}
	tr, err := New(qs)
	if err != nil {
		t.Fatal(err)
	}
	if tr.jump[Root] != Root || tr.top[Root] != Root {
		t.Fatalf("Root: jump %d, top %d; want Root, Root", tr.jump[Root], tr.top[Root])
	}
	for x := Root + 1; tr.Valid(x); x++ {
		if j := tr.jump[x]; j == x || !IsAncestor(tr, j, x) {
			t.Fatalf("jump[%d] = %d is not a strict ancestor", x, j)
		}
		if top := tr.top[x]; Depth(tr, top) != 1 || !IsAncestor(tr, top, x) {
			t.Fatalf("top[%d] = %d is not x's top-level queue", x, top)
		}
	}
	// The bound: each skew-binary digit costs at most a jump and a parent
	// step; 3 steps per bit of the depth leaves room without admitting
	// anything linear (a parents-only table needs up to n steps).
	limit := 3 * bits.Len(uint(n))
	deepest := ID(n)
	worst := 0
	for target := int32(0); target < n; target += 997 {
		steps := 0
		for x := deepest; tr.depth[x] > target; steps++ {
			if j := tr.jump[x]; tr.depth[j] >= target {
				x = j
			} else {
				x = tr.parent[x]
			}
		}
		worst = max(worst, steps)
	}
	if worst > limit {
		t.Errorf("reaching an ancestor of a %d-deep queue takes up to %d steps; want at most %d", n, worst, limit)
	}
}
