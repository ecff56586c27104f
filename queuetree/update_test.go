package queuetree_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/tenurepolicy/tenure/queuetree"
)

// TestUpdateMatchesNew: for a random forest and a next snapshot that is
// the same list in another order, or changed in one way (a move, a
// rename, a removal, a duplicate, an empty name), Update returns exactly
// the tree New builds from the next list (or New's error), and reuses the
// previous tree exactly when the two lists describe the same queues with
// the same parents, by a naive oracle: two name → parent maps, compared.
func TestUpdateMatchesNew(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 150).Draw(t, "queues") // past 62: the bit set is allocated
		qs := make([]queuetree.Queue, n)
		for i := range qs {
			qs[i].Name = fmt.Sprintf("q%d", i)
			if p := rapid.IntRange(-1, i-1).Draw(t, "parent"); p >= 0 {
				qs[i].Parent = qs[p].Name
			}
		}
		prev, err := queuetree.New(qs)
		if err != nil {
			t.Fatal(err)
		}
		next := rapid.Permutation(qs).Draw(t, "order")
		if n > 0 {
			k := rapid.IntRange(0, n-1).Draw(t, "which")
			switch rapid.IntRange(0, 5).Draw(t, "change") {
			case 1: // move to top level (a change unless it already was)
				next[k].Parent = ""
			case 2:
				next[k].Name += "x"
			case 3:
				next = slices.Delete(next, k, k+1)
			case 4:
				next = append(next, next[k])
			case 5:
				next = append(next, queuetree.Queue{Parent: next[k].Name})
			}
		}
		got, reused, err := queuetree.Update(prev, next)
		fresh, ferr := queuetree.New(next)
		if (err == nil) != (ferr == nil) || (err != nil && err.Error() != ferr.Error()) {
			t.Fatalf("Update error %v; New error %v", err, ferr)
		}
		if want := sameQueues(qs, next); reused != want || (reused && got != prev) {
			t.Fatalf("reused = %v (same pointer %v); oracle says %v", reused, got == prev, want)
		}
		if err == nil {
			if diff := cmp.Diff(dump(fresh), dump(got)); diff != "" {
				t.Fatalf("Update differs from New (-new +update):\n%s", diff)
			}
		}
	})
}

// sameQueues is the oracle: both lists hold distinct non-empty names and
// map each name to the same parent.
func sameQueues(a, b []queuetree.Queue) bool {
	ma, okA := parents(a)
	mb, okB := parents(b)
	return okA && okB && cmp.Equal(ma, mb)
}

func parents(qs []queuetree.Queue) (map[string]string, bool) {
	m := map[string]string{}
	for _, q := range qs {
		if _, dup := m[q.Name]; dup || q.Name == "" {
			return nil, false
		}
		m[q.Name] = q.Parent
	}
	return m, true
}

// TestUpdateNeverReusesNothing: a nil or zero previous tree is never
// reused, and a previous tree with problems in the new list gives New's
// error.
func TestUpdateNeverReusesNothing(t *testing.T) {
	for _, prev := range []*queuetree.Tree{nil, {}} {
		got, reused, err := queuetree.Update(prev, nil)
		if reused || err != nil || got.Len() != 1 {
			t.Errorf("Update(%v, nil) = %v, %v, %v; want a fresh empty tree", prev, got, reused, err)
		}
	}
	prev, err := queuetree.New([]queuetree.Queue{{Name: "a"}})
	if err != nil {
		t.Fatal(err)
	}
	if got, reused, err := queuetree.Update(prev, []queuetree.Queue{{Name: "a", Parent: "a"}}); got != nil || reused || err == nil {
		t.Errorf("a cycle: %v, %v, %v; want New's error", got, reused, err)
	}
}
