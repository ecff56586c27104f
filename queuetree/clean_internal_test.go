package queuetree

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"
)

// TestCleanPathEqualsFullPath: on a list without problems, the fast path
// New takes (buildClean) lays out exactly the tree of the full path
// (check, then build) that lists with problems take — same IDs, names,
// parents and every precomputed array — and both index every name; on a
// list with a problem the fast path declines. Names are drawn from a small
// alphabet with zero and high bytes, so siblings share long prefixes and
// tie on their 8-byte keys.
func TestCleanPathEqualsFullPath(t *testing.T) {
	clean := 0
	rapid.Check(t, func(rt *rapid.T) {
		alphabet := rapid.SampledFrom([]byte{0, 'a', 'b', 0xff})
		name := rapid.Custom(func(t *rapid.T) string {
			return string(rapid.SliceOfN(alphabet, 0, 20).Draw(t, "bytes"))
		})
		names := rapid.SliceOfN(name, 0, 40).Draw(rt, "names")
		qs := make([]Queue, len(names))
		for i, nm := range names {
			qs[i].Name = nm
			if i > 0 && rapid.Bool().Draw(rt, "hasParent") {
				// Mostly an earlier entry (acyclic), sometimes any.
				hi := i - 1
				if rapid.IntRange(0, 9).Draw(rt, "anyParent") == 0 {
					hi = len(names) - 1
				}
				qs[i].Parent = names[rapid.IntRange(0, hi).Draw(rt, "parent")]
			}
		}
		qs = rapid.Permutation(qs).Draw(rt, "order")
		fast := buildClean(qs)
		ents, problems := check(qs)
		if len(problems) > 0 {
			if fast != nil {
				rt.Fatalf("fast path built a tree for a list with problems %v", problems)
			}
			return
		}
		clean++
		if fast == nil {
			rt.Fatalf("fast path declined a clean list")
		}
		full := build(ents)
		sameTree(rt, fast, full, nil) // also looks up every name in both
		if _, ok := fast.Lookup(""); ok {
			rt.Fatalf("Lookup(\"\") found a queue")
		}
	})
	if clean == 0 {
		t.Fatal("no clean list was generated")
	}
	t.Logf("%d clean lists", clean)
}

// sameTree fails unless a and b have the same arrays and answer Lookup
// alike for each of a's names.
func sameTree(rt *rapid.T, a, b *Tree, names []string) {
	for _, pair := range []struct {
		what string
		x, y any
	}{
		{"names", a.names, b.names}, {"parent", a.parent, b.parent},
		{"depth", a.depth, b.depth}, {"size", a.size, b.size},
		{"jump", a.jump, b.jump}, {"top", a.top, b.top},
	} {
		if fmt.Sprint(pair.x) != fmt.Sprint(pair.y) {
			rt.Fatalf("%s: got %v, want %v", pair.what, pair.x, pair.y)
		}
	}
	for _, name := range append(append([]string(nil), a.names[Root+1:]...), names...) {
		ga, oka := a.Lookup(name)
		gb, okb := b.Lookup(name)
		if ga != gb || oka != okb {
			rt.Fatalf("Lookup(%q) = %d, %v; want %d, %v", name, ga, oka, gb, okb)
		}
	}
}
