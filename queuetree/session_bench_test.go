package queuetree_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tenurepolicy/tenure/queuetree"
)

// sessionList returns n KAI-like queues (departments of 100 queues, each
// under a random earlier queue of its department, depth at most 8) in a
// shuffled order, as a scheduler reads them from a map each session. It is
// the tree half of runtime's BenchmarkSessionBuild (sessionQueues there
// draws lists of the same shape, with settings).
func sessionList(n int) []queuetree.Queue {
	rng := rand.New(rand.NewPCG(7, uint64(n)))
	qs := make([]queuetree.Queue, 0, n)
	depth := make([]int, 0, n)
	for len(qs) < n {
		i := len(qs)
		q := queuetree.Queue{Name: fmt.Sprintf("dept%d-queue%d", i/100, i)}
		d := 1
		if i%100 != 0 {
			for {
				p := i - i%100 + rng.IntN(i%100)
				if depth[p] < 8 {
					q.Parent, d = qs[p].Name, depth[p]+1
					break
				}
			}
		}
		qs, depth = append(qs, q), append(depth, d)
	}
	rng.Shuffle(len(qs), func(i, j int) { qs[i], qs[j] = qs[j], qs[i] })
	return qs
}

// BenchmarkBuildSession is the tree alone of a session's build, at 1,000,
// 4,000 and 100,000 queues.
func BenchmarkBuildSession(b *testing.B) {
	for _, n := range []int{1_000, 4_000, 100_000} {
		qs := sessionList(n)
		b.Run(fmt.Sprintf("queues-%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if _, err := queuetree.New(qs); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkChangedSession is the cost of a session whose queue list
// changed a little, at 1,000, 4,000 and 100,000 queues: Update with the
// whole list (an exact check that also finds the change, then the
// incremental rebuild) and Apply with the edit alone, for one queue added
// (then removed again: the runs alternate) and one leaf moved to another
// parent (and back), beside New on the changed list, the full build.
func BenchmarkChangedSession(b *testing.B) {
	for _, n := range []int{1_000, 4_000, 100_000} {
		qs := sessionList(n)
		isParent := map[string]bool{}
		for _, q := range qs {
			isParent[q.Parent] = true
		}
		// A leaf other than the first entry (whose parent changes).
		leaf := slices.IndexFunc(qs[1:], func(q queuetree.Queue) bool { return !isParent[q.Name] && q.Parent != "" }) + 1
		// A queue added under the first entry's parent, and the leaf moved
		// under the first entry.
		add := queuetree.Queue{Name: "added-queue", Parent: qs[0].Parent}
		added := append(slices.Clone(qs), add)
		moved := slices.Clone(qs)
		moved[leaf].Parent = qs[0].Name
		for _, c := range []struct {
			what        string
			list        []queuetree.Queue
			there, back queuetree.Edit
		}{
			{"1-added", added, queuetree.Edit{Name: add.Name, Parent: add.Parent}, queuetree.Edit{Name: add.Name, Remove: true}},
			{"1-moved", moved, queuetree.Edit{Name: qs[leaf].Name, Parent: qs[0].Name}, queuetree.Edit{Name: qs[leaf].Name, Parent: qs[leaf].Parent}},
		} {
			b.Run(fmt.Sprintf("queues-%d/%s/update", n, c.what), func(b *testing.B) {
				benchAlternate(b, qs, func(t *queuetree.Tree, i int) (*queuetree.Tree, error) {
					list := qs
					if i%2 == 0 {
						list = c.list
					}
					t, _, err := queuetree.Update(t, list)
					return t, err
				})
			})
			b.Run(fmt.Sprintf("queues-%d/%s/apply", n, c.what), func(b *testing.B) {
				benchAlternate(b, qs, func(t *queuetree.Tree, i int) (*queuetree.Tree, error) {
					e := c.back
					if i%2 == 0 {
						e = c.there
					}
					return queuetree.Apply(t, e)
				})
			})
			b.Run(fmt.Sprintf("queues-%d/%s/new", n, c.what), func(b *testing.B) {
				b.ReportAllocs()
				for i := 0; i < b.N; i++ {
					if _, err := queuetree.New(c.list); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// benchAlternate builds the tree of qs, then calls step b.N times with the
// current tree and the step number, each step's tree the next one's.
func benchAlternate(b *testing.B, qs []queuetree.Queue, step func(*queuetree.Tree, int) (*queuetree.Tree, error)) {
	t, err := queuetree.New(qs)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		next, err := step(t, i)
		if err != nil || next == t {
			b.Fatal("no new tree", err)
		}
		t = next
	}
}
