package queuetree_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/tenurepolicy/tenure/queuetree"
)

// randomForest draws a valid forest of up to 60 queues: queue i's parent is
// either none or one of queues 0..i-1, then the list is shuffled.
func randomForest(t *rapid.T) []queuetree.Queue {
	n := rapid.IntRange(0, 60).Draw(t, "n")
	qs := make([]queuetree.Queue, n)
	for i := range qs {
		qs[i].Name = fmt.Sprintf("q%d", i)
		if i > 0 {
			if p := rapid.IntRange(-1, i-1).Draw(t, fmt.Sprintf("parent%d", i)); p >= 0 {
				qs[i].Parent = fmt.Sprintf("q%d", p)
			}
		}
	}
	return rapid.Permutation(qs).Draw(t, "order")
}

// oracle answers every query by materialising ancestor lists from the input
// by name — no IDs, no jump pointers.
type oracle struct{ parent map[string]string }

func newOracle(qs []queuetree.Queue) oracle {
	o := oracle{parent: map[string]string{}}
	for _, q := range qs {
		o.parent[q.Name] = q.Parent
	}
	return o
}

// ancestors returns name, its parent, ..., the top-level queue, then "" (root).
func (o oracle) ancestors(name string) []string {
	out := []string{name}
	for name != "" {
		name = o.parent[name]
		out = append(out, name)
	}
	return out
}

func (o oracle) lca(a, b string) string {
	inA := map[string]bool{}
	for _, x := range o.ancestors(a) {
		inA[x] = true
	}
	for _, x := range o.ancestors(b) {
		if inA[x] {
			return x
		}
	}
	return "" // unreachable: the root is common
}

func (o oracle) isAncestor(a, d string) bool {
	for _, x := range o.ancestors(d) {
		if x == a {
			return true
		}
	}
	return false
}

func (o oracle) childToward(a, d string) (string, bool) {
	anc := o.ancestors(d)
	for i := 1; i < len(anc); i++ {
		if anc[i] == a {
			return anc[i-1], true
		}
	}
	return "", false
}

func TestQueriesMatchOracle(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		qs := randomForest(t)
		tr, err := queuetree.New(qs)
		if err != nil {
			t.Fatalf("New: %v", err)
		}
		o := newOracle(qs)
		names := []string{""}
		for _, q := range qs {
			names = append(names, q.Name)
		}
		idOf := func(s string) queuetree.ID {
			if s == "" {
				return queuetree.Root
			}
			v, ok := tr.Lookup(s)
			if !ok {
				t.Fatalf("Lookup(%q) failed", s)
			}
			return v
		}
		nameList := func(seq func(func(queuetree.ID) bool)) []string {
			out := []string{}
			for x := range seq {
				out = append(out, tr.Name(x))
			}
			return out
		}
		for _, n := range names {
			x := idOf(n)
			if got := tr.Name(x); got != n {
				t.Fatalf("Name(Lookup(%q)) = %q", n, got)
			}
			anc := o.ancestors(n)
			if got, want := queuetree.Depth(tr, x), len(anc)-1; got != want {
				t.Fatalf("Depth(%q) = %d, want %d", n, got, want)
			}
			if n != "" {
				if p := tr.Parent(x); p >= x || tr.Name(p) != o.parent[n] {
					t.Fatalf("Parent(%q) = %q (ID %d >= %d?), want %q", n, tr.Name(p), p, x, o.parent[n])
				}
			}
			if diff := cmp.Diff(anc, nameList(queuetree.Ancestors(tr, x))); diff != "" {
				t.Fatalf("Ancestors(%q) (-want +got):\n%s", n, diff)
			}
			path := slices.Clone(anc[:len(anc)-1]) // top-level queue first, no root
			slices.Reverse(path)
			if diff := cmp.Diff(path, queuetree.Path(tr, x)); n != "" && diff != "" {
				t.Fatalf("Path(%q) (-want +got):\n%s", n, diff)
			}
			kids, size := []string{}, 0
			for _, m := range names {
				if m != "" && o.parent[m] == n {
					kids = append(kids, m)
				}
				if o.isAncestor(n, m) {
					size++
				}
			}
			slices.Sort(kids)
			if diff := cmp.Diff(kids, nameList(queuetree.Children(tr, x))); diff != "" {
				t.Fatalf("Children(%q) (-want +got):\n%s", n, diff)
			}
			if got := queuetree.SubtreeSize(tr, x); got != size {
				t.Fatalf("SubtreeSize(%q) = %d, want %d", n, got, size)
			}
		}
		for i := 0; i < 40; i++ {
			a := rapid.SampledFrom(names).Draw(t, "a")
			b := rapid.SampledFrom(names).Draw(t, "b")
			if got, want := tr.Name(queuetree.LCA(tr, idOf(a), idOf(b))), o.lca(a, b); got != want {
				t.Fatalf("LCA(%q, %q) = %q, want %q", a, b, got, want)
			}
			if got, want := queuetree.IsAncestor(tr, idOf(a), idOf(b)), o.isAncestor(a, b); got != want {
				t.Fatalf("IsAncestor(%q, %q) = %v, want %v", a, b, got, want)
			}
			// ChildOfLCA(a, b): the child of LCA on b's side, or b when b is the LCA.
			wantC := b
			if l := o.lca(a, b); l != b {
				wantC, _ = o.childToward(l, b)
			}
			if got := tr.Name(tr.ChildOfLCA(idOf(a), idOf(b))); got != wantC {
				t.Fatalf("ChildOfLCA(%q, %q) = %q, want %q", a, b, got, wantC)
			}
			want, ok := o.childToward(a, b)
			got := queuetree.ChildToward(tr, idOf(a), idOf(b))
			if !ok && got != queuetree.None || ok && tr.Name(got) != want {
				t.Fatalf("ChildToward(%q, %q) = %q (%d), want %q (ok=%v)", a, b, tr.Name(got), got, want, ok)
			}
		}
	})
}

func TestInputOrderIndependence(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		qs := randomForest(t)
		other := rapid.Permutation(qs).Draw(t, "other")
		a, err := queuetree.New(qs)
		if err != nil {
			t.Fatal(err)
		}
		b, err := queuetree.New(other)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(dump(a), dump(b)); diff != "" {
			t.Fatalf("IDs depend on input order (-a +b):\n%s", diff)
		}
	})
}

// TestNewAlwaysUsable feeds arbitrary lists (with duplicates, orphans,
// cycles and empty names) to New and checks the repaired tree
// against the documented repairs, computed naively from the input: it keeps
// exactly the distinct non-empty names; each keeps the parent of its first
// entry unless that parent is unknown or the queue is the smallest name of
// a cycle, which become top-level; and one problem is reported per empty
// entry, later duplicate, orphan and cycle, plus one per dropped entry
// (empty, or a duplicate with a parent of its own) whose parent is unknown
// and one per such duplicate that would close a cycle in place of the kept
// entry.
func TestNewAlwaysUsable(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nameGen := rapid.SampledFrom([]string{"", "a", "b", "c", "d", "e", "f"})
		qs := rapid.SliceOfN(rapid.Custom(func(t *rapid.T) queuetree.Queue {
			return queuetree.Queue{Name: nameGen.Draw(t, "name"), Parent: nameGen.Draw(t, "parent")}
		}), 0, 12).Draw(t, "queues")
		tr, err := queuetree.New(qs)
		if tr == nil {
			t.Fatal("New returned a nil tree")
		}
		var problems []error
		if err != nil {
			problems = err.(interface{ Unwrap() []error }).Unwrap()
		}

		firstParent := map[string]string{}
		wantCount := map[string]int{}
		var droppedEntries []queuetree.Queue
		for _, q := range qs {
			first, seen := firstParent[q.Name]
			switch {
			case q.Name == "":
				wantCount["empty_name"]++
				droppedEntries = append(droppedEntries, q)
			case seen:
				wantCount["duplicate_name"]++
				if q.Parent != first {
					droppedEntries = append(droppedEntries, q)
				}
			default:
				firstParent[q.Name] = q.Parent
			}
		}
		for _, q := range droppedEntries {
			if q.Parent == "" {
				continue
			}
			if _, known := firstParent[q.Parent]; !known {
				wantCount["unknown_parent"]++
				continue
			}
			if q.Name == "" {
				continue
			}
			// Follow the kept links from the new parent: back to the name?
			x := q.Parent
			for steps := 0; x != "" && x != q.Name && steps <= len(firstParent); steps++ {
				x = firstParent[x]
			}
			if x == q.Name {
				wantCount["cycle"]++
			}
		}
		wantParent := map[string]string{}
		for nm, p := range firstParent {
			if _, known := firstParent[p]; p != "" && !known {
				wantCount["unknown_parent"]++
				p = ""
			}
			wantParent[nm] = p
		}
		for nm := range firstParent {
			// nm is on a cycle iff following the input's parents from nm
			// comes back to it (the walks read firstParent, so cutting
			// wantParent does not disturb them).
			cycle := []string{nm}
			for x := firstParent[nm]; x != "" && x != nm && len(cycle) <= len(firstParent); x = firstParent[x] {
				cycle = append(cycle, x)
			}
			if firstParent[cycle[len(cycle)-1]] == nm && slices.Min(cycle) == nm {
				wantCount["cycle"]++
				wantParent[nm] = ""
			}
		}

		if got, want := tr.IDLimit()-2, len(firstParent); got != want {
			t.Fatalf("tree has %d queues, want %d distinct names", got, want)
		}
		for nm, p := range wantParent {
			x, ok := tr.Lookup(nm)
			if !ok {
				t.Fatalf("queue %q lost", nm)
			}
			if got := tr.Name(tr.Parent(x)); got != p {
				t.Fatalf("queue %q got parent %q, want %q", nm, got, p)
			}
		}
		gotCount := map[string]int{}
		for _, err := range problems {
			var p *queuetree.Problem
			if !errors.As(err, &p) || p.Repair == "" {
				t.Fatalf("problem %v is not a repaired *Problem", err)
			}
			gotCount[p.Kind]++
		}
		if diff := cmp.Diff(wantCount, gotCount); diff != "" {
			t.Fatalf("problems by kind (-want +got):\n%s", diff)
		}
	})
}

// TestStrictOnePass checks that New reports every problem in one pass: for
// any list, and any way of resolving one duplicated name (keeping any one of
// its entries, the other names keeping their first) with the empty-name
// entries named afresh, every problem of the resolved list was already
// reported for the original list (an unknown parent by queue and parent, a
// cycle by its members).
func TestStrictOnePass(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nameGen := rapid.SampledFrom([]string{"", "a", "b", "c", "d", "e"})
		qs := rapid.SliceOfN(rapid.Custom(func(t *rapid.T) queuetree.Queue {
			return queuetree.Queue{Name: nameGen.Draw(t, "name"), Parent: nameGen.Draw(t, "parent")}
		}), 0, 10).Draw(t, "queues")
		_, err := queuetree.New(qs)
		reported := map[string]bool{}
		if err != nil {
			for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
				reported[onePassKey(e.(*queuetree.Problem), false)] = true
			}
		}
		// Resolve: the chosen name keeps its k-th entry; empty names become
		// fresh names (their unknown parents were reported without a name).
		byName := map[string][]int{}
		for i, q := range qs {
			byName[q.Name] = append(byName[q.Name], i)
		}
		names := make([]string, 0, len(byName))
		for nm := range byName {
			if nm != "" {
				names = append(names, nm)
			}
		}
		slices.Sort(names)
		if len(names) == 0 {
			return
		}
		chosen := rapid.SampledFrom(names).Draw(t, "chosen")
		keep := rapid.IntRange(0, len(byName[chosen])-1).Draw(t, "keep")
		var resolved []queuetree.Queue
		fresh := map[string]bool{}
		for i, q := range qs {
			switch {
			case q.Name == "":
				q.Name = fmt.Sprintf("fresh%d", i)
				fresh[q.Name] = true
			case q.Name == chosen && i != byName[chosen][keep]:
				continue
			case q.Name != chosen && i != byName[q.Name][0]:
				continue
			}
			resolved = append(resolved, q)
		}
		_, err = queuetree.New(resolved)
		if err == nil {
			return
		}
		for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
			p := e.(*queuetree.Problem)
			if fresh[p.Queue] {
				p.Queue = ""
			}
			if k := onePassKey(p, true); !reported[k] {
				t.Fatalf("resolving %q to entry #%d revealed %v, not reported for the original list (%v)", chosen, byName[chosen][keep], p, reported)
			}
		}
	})
}

// onePassKey identifies a problem independently of entry positions.
func onePassKey(p *queuetree.Problem, resolved bool) string {
	switch p.Kind {
	case "unknown_parent":
		return "unknown " + p.Queue + ">" + p.Parent
	case "cycle":
		return "cycle " + fmt.Sprint(p.Members)
	}
	if resolved {
		return "unexpected " + p.Error()
	}
	return p.Error()
}

// TestIDLimitSizesPerIDSlices: a slice of IDLimit() elements holds an
// entry for None, Root and every queue, and no more: the last queue's ID
// is IDLimit()-1, so a slice one shorter (the number of queues plus one,
// what Len() used to return, or the number of queues) misses the last
// queue. An adapter that counts per queue in such a slice sees each queue
// exactly once.
func TestIDLimitSizesPerIDSlices(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		qs := randomForest(rt)
		tr, err := queuetree.New(qs)
		if err != nil {
			rt.Fatal(err)
		}
		if got, want := tr.IDLimit(), len(qs)+2; got != want {
			rt.Fatalf("IDLimit() = %d for %d queues, want %d", got, len(qs), want)
		}
		count := make([]int, tr.IDLimit())
		count[queuetree.None]++
		count[queuetree.Root]++
		last := queuetree.Root
		for _, q := range qs {
			id, ok := tr.Lookup(q.Name)
			if !ok {
				rt.Fatalf("Lookup(%q) failed", q.Name)
			}
			count[id]++ // panics if the slice is too short for id
			last = max(last, id)
		}
		for id, c := range count {
			if c != 1 {
				rt.Fatalf("ID %d counted %d times, want once (IDLimit %d)", id, c, tr.IDLimit())
			}
		}
		if int(last) != tr.IDLimit()-1 || !tr.Valid(last) || tr.Valid(queuetree.ID(tr.IDLimit())) {
			rt.Fatalf("largest ID %d, IDLimit %d: want IDLimit-1 valid and IDLimit not", last, tr.IDLimit())
		}
	})
}
