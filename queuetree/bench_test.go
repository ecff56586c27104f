package queuetree_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/tenurepolicy/tenure/queuetree"
)

// realistic returns KAI-like queue lists: 10 top-level departments of 100
// queues each, every queue hanging under a random earlier queue of its
// department with depth at most 8. Deterministic.
func realistic() []queuetree.Queue {
	r := rand.New(rand.NewPCG(1, 2))
	var qs []queuetree.Queue
	for d := 0; d < 10; d++ {
		names := []string{fmt.Sprintf("dept%d", d)}
		depth := []int{1}
		qs = append(qs, queuetree.Queue{Name: names[0]})
		for len(names) < 100 {
			p := r.IntN(len(names))
			if depth[p] >= 8 {
				continue
			}
			nm := fmt.Sprintf("dept%d-q%d", d, len(names))
			names = append(names, nm)
			depth = append(depth, depth[p]+1)
			qs = append(qs, queuetree.Queue{Name: nm, Parent: names[p]})
		}
	}
	return qs
}

func chain(n int) []queuetree.Queue {
	qs := make([]queuetree.Queue, n)
	for i := range qs {
		qs[i].Name = name(i)
		if i > 0 {
			qs[i].Parent = name(i - 1)
		}
	}
	return qs
}

// naiveLCA is the straightforward parent walk a plugin would write: lift the
// deeper queue to the other's depth, then lift both until they meet. O(depth).
func naiveLCA(parent []queuetree.ID, depth []int, a, b queuetree.ID) queuetree.ID {
	for depth[a] > depth[b] {
		a = parent[a]
	}
	for depth[b] > depth[a] {
		b = parent[b]
	}
	for a != b {
		a, b = parent[a], parent[b]
	}
	return a
}

type lcaFixture struct {
	tree   *queuetree.Tree
	parent []queuetree.ID
	depth  []int
	pairs  [][2]queuetree.ID
}

func newLCAFixture(b *testing.B, qs []queuetree.Queue, deepPairs bool) lcaFixture {
	b.Helper()
	tr, err := queuetree.New(qs)
	if err != nil {
		b.Fatal(err)
	}
	fx := lcaFixture{tree: tr, parent: make([]queuetree.ID, tr.IDLimit()), depth: make([]int, tr.IDLimit())}
	for id := range queuetree.IDs(tr) {
		fx.parent[id] = tr.Parent(id)
		fx.depth[id] = queuetree.Depth(tr, id)
	}
	fx.parent[queuetree.Root] = queuetree.Root
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 1024; i++ {
		a, c := queuetree.ID(2+r.IntN(tr.IDLimit()-2)), queuetree.ID(2+r.IntN(tr.IDLimit()-2))
		if deepPairs { // the deep end of the chain against anything: a long walk for the naive LCA
			a = queuetree.ID(tr.IDLimit() - 1 - r.IntN(100))
		}
		fx.pairs = append(fx.pairs, [2]queuetree.ID{a, c})
	}
	return fx
}

var sinkID queuetree.ID

func benchLCA(b *testing.B, fx lcaFixture) {
	b.Run("tenure", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			p := fx.pairs[i&1023]
			sinkID = queuetree.LCA(fx.tree, p[0], p[1])
		}
	})
	b.Run("naive-parent-walk", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			p := fx.pairs[i&1023]
			sinkID = naiveLCA(fx.parent, fx.depth, p[0], p[1])
		}
	})
}

// BenchmarkLCA/realistic-1000: 1,000 queues (10 × 100, depth ≤ 8).
// BenchmarkLCA/chain-100000: a 100,000-deep chain.
func BenchmarkLCA(b *testing.B) {
	b.Run("realistic-1000", func(b *testing.B) { benchLCA(b, newLCAFixture(b, realistic(), false)) })
	b.Run("chain-100000", func(b *testing.B) { benchLCA(b, newLCAFixture(b, chain(100_000), true)) })
	b.Run("fork-2x50000", func(b *testing.B) { benchLCA(b, newForkFixture(b)) })
}

// newForkFixture: two 50,000-deep branches under one top-level queue; every
// pair takes one queue deep in each branch, so the LCA is far above both.
func newForkFixture(b *testing.B) lcaFixture {
	const half = 50_000
	qs := []queuetree.Queue{{Name: "r"}}
	for br := 0; br < 2; br++ {
		prev := "r"
		for i := 0; i < half; i++ {
			nm := fmt.Sprintf("%c%s", 'a'+br, name(i))
			qs = append(qs, queuetree.Queue{Name: nm, Parent: prev})
			prev = nm
		}
	}
	fx := newLCAFixture(b, qs, false)
	r := rand.New(rand.NewPCG(7, 8))
	for i := range fx.pairs {
		// IDs 2..half+1 are branch a, half+2..2*half+1 branch b (preorder).
		fx.pairs[i] = [2]queuetree.ID{queuetree.ID(half + 1 - r.IntN(100)), queuetree.ID(2*half + 1 - r.IntN(100))}
	}
	return fx
}

func BenchmarkChildOfLCA(b *testing.B) {
	fx := newLCAFixture(b, realistic(), false)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p := fx.pairs[i&1023]
		sinkID = fx.tree.ChildOfLCA(p[0], p[1])
	}
}

func BenchmarkChildToward(b *testing.B) {
	fx := newLCAFixture(b, realistic(), false)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p := fx.pairs[i&1023]
		sinkID = queuetree.ChildToward(fx.tree, queuetree.Root, p[1])
	}
}

// wide returns n queues in a 3-level tree: n/1000 top-level, 10 below each,
// the rest as leaves (shuffled input).
func wide(n int) []queuetree.Queue {
	qs := make([]queuetree.Queue, n)
	for i := range qs {
		qs[i].Name = name(i)
		if i >= 100 {
			qs[i].Parent = name(i / 10)
		}
	}
	r := rand.New(rand.NewPCG(5, 6))
	r.Shuffle(len(qs), func(i, j int) { qs[i], qs[j] = qs[j], qs[i] })
	return qs
}

func BenchmarkBuild(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000} {
		qs := wide(n)
		b.Run(fmt.Sprintf("wide-%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := queuetree.New(qs); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	qs := chain(100_000)
	b.Run("chain-100000", func(b *testing.B) {
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			if _, err := queuetree.New(qs); err != nil {
				b.Fatal(err)
			}
		}
	})
}
