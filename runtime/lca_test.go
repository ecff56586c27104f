package runtime

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"github.com/tenurepolicy/tenure/queuetree"
)

// TestChildOfLCAMatchesQueuetree checks the fused climb against
// queuetree's own LCA and ChildToward on random trees biased toward deep
// chains (so that the jump pointers are exercised), for every pair.
func TestChildOfLCAMatchesQueuetree(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 120).Draw(t, "queues")
		chain := rapid.Float64Range(0, 1).Draw(t, "chainBias")
		qs := make([]queuetree.Queue, n)
		for i := range qs {
			qs[i].Name = fmt.Sprintf("q%03d", i)
			if i == 0 {
				continue
			}
			switch {
			case rapid.Float64Range(0, 1).Draw(t, "coin") < chain:
				qs[i].Parent = qs[i-1].Name
			default:
				if p := rapid.IntRange(-1, i-1).Draw(t, "parent"); p >= 0 {
					qs[i].Parent = qs[p].Name
				}
			}
		}
		tree, err := queuetree.New(qs)
		if err != nil {
			t.Fatal(err)
		}
		r, err := NewResolver(tree, Config{})
		if err != nil {
			t.Fatal(err)
		}
		for v := queuetree.ID(0); int(v) < tree.Len(); v++ {
			for rc := queuetree.ID(0); int(rc) < tree.Len(); rc++ {
				want := v
				if l := tree.LCA(rc, v); l != v {
					want = tree.ChildToward(l, v)
				}
				if got := r.childOfLCA(rc, v); got != want {
					t.Fatalf("childOfLCA(%d, %d) = %d; queuetree says %d", rc, v, got, want)
				}
			}
		}
	})
}

// TestChildOfLCADeepChain checks a 10,000-deep chain with a side branch
// half-way, where the climb must cover 5,000 levels (BenchmarkReclaimDeep
// shows it takes O(log depth) steps), and that it does not allocate.
func TestChildOfLCADeepChain(t *testing.T) {
	const n = 10_000
	qs := make([]queuetree.Queue, n)
	for i := range qs {
		qs[i].Name = fmt.Sprintf("c%05d", i)
		if i > 0 {
			qs[i].Parent = qs[i-1].Name
		}
	}
	qs = append(qs, queuetree.Queue{Name: "side", Parent: qs[n/2].Name})
	tree, err := queuetree.New(qs)
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewResolver(tree, Config{})
	if err != nil {
		t.Fatal(err)
	}
	side, _ := tree.Lookup("side")
	deepest, _ := tree.Lookup(qs[n-1].Name)
	want := tree.ChildToward(tree.LCA(side, deepest), deepest)
	if got := r.childOfLCA(side, deepest); got != want {
		t.Fatalf("childOfLCA(side, deepest) = %d; want %d", got, want)
	}
	if allocs := testing.AllocsPerRun(100, func() { r.childOfLCA(side, deepest) }); allocs != 0 {
		t.Errorf("childOfLCA allocates %v times", allocs)
	}
}
