package queuetree_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/tenurepolicy/tenure/queuetree"
)

// designTree is the tree of the worked examples of KAI-Scheduler's min-runtime design (PR #126):
// A → B → {C → {leaf1, leaf2}, D → leaf3}, plus a second top-level queue X → Y.
func designTree(t testing.TB) *queuetree.Tree {
	t.Helper()
	tr, err := queuetree.New([]queuetree.Queue{
		{Name: "leaf3", Parent: "D"},
		{Name: "A"},
		{Name: "B", Parent: "A"},
		{Name: "C", Parent: "B"},
		{Name: "D", Parent: "B"},
		{Name: "leaf1", Parent: "C"},
		{Name: "leaf2", Parent: "C"},
		{Name: "X"},
		{Name: "Y", Parent: "X"},
	})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return tr
}

func id(t testing.TB, tr *queuetree.Tree, name string) queuetree.ID {
	t.Helper()
	if name == "" {
		return queuetree.Root
	}
	v, ok := tr.Lookup(name)
	if !ok {
		t.Fatalf("Lookup(%q) not found", name)
	}
	return v
}

func TestDesignTreeQueries(t *testing.T) {
	tr := designTree(t)
	if got, want := tr.IDLimit(), 11; got != want {
		t.Fatalf("IDLimit() = %d, want %d", got, want)
	}
	// Preorder, children in name order: root, A, B, C, leaf1, leaf2, D, leaf3, X, Y.
	var order []string
	for id := range queuetree.IDs(tr) {
		order = append(order, tr.Name(id))
	}
	if diff := cmp.Diff([]string{"", "A", "B", "C", "leaf1", "leaf2", "D", "leaf3", "X", "Y"}, order); diff != "" {
		t.Errorf("ID order (-want +got):\n%s", diff)
	}

	lca := []struct{ a, b, want string }{
		{"leaf1", "leaf3", "B"},
		{"leaf1", "leaf2", "C"},
		{"leaf3", "leaf1", "B"},
		{"leaf1", "leaf1", "leaf1"},
		{"C", "leaf2", "C"},
		{"leaf2", "C", "C"},
		{"A", "leaf3", "A"},
		{"leaf3", "Y", ""}, // different top-level queues meet at the root
		{"A", "X", ""},
		{"", "leaf1", ""},
		{"D", "C", "B"},
	}
	for _, c := range lca {
		if got, want := queuetree.LCA(tr, id(t, tr, c.a), id(t, tr, c.b)), id(t, tr, c.want); got != want {
			t.Errorf("LCA(%s, %s) = %s, want %s", c.a, c.b, tr.Name(got), c.want)
		}
	}

	toward := []struct{ anc, desc, want string }{
		{"B", "leaf1", "C"},
		{"B", "leaf3", "D"},
		{"A", "leaf2", "B"},
		{"", "leaf3", "A"},
		{"", "Y", "X"},
		{"C", "leaf2", "leaf2"},
	}
	for _, c := range toward {
		if got, want := queuetree.ChildToward(tr, id(t, tr, c.anc), id(t, tr, c.desc)), id(t, tr, c.want); got != want {
			t.Errorf("ChildToward(%s, %s) = %s, want %s", c.anc, c.desc, tr.Name(got), c.want)
		}
	}
	for _, c := range []struct{ anc, desc string }{{"leaf1", "leaf1"}, {"D", "leaf1"}, {"leaf1", "C"}, {"X", "leaf1"}} {
		if got := queuetree.ChildToward(tr, id(t, tr, c.anc), id(t, tr, c.desc)); got != queuetree.None {
			t.Errorf("ChildToward(%s, %s) = %d, want None", c.anc, c.desc, got)
		}
	}

	ofLCA := []struct{ a, b, want string }{
		{"leaf1", "leaf3", "D"}, // design example: leaf1 reclaims from leaf3 at D
		{"leaf1", "leaf2", "leaf2"},
		{"leaf3", "leaf1", "C"},
		{"Y", "leaf3", "A"}, // different top-level queues: b's top-level queue
		{"leaf3", "B", "B"}, // b is an ancestor of a: b itself
		{"leaf3", "leaf3", "leaf3"},
		{"B", "leaf3", "D"}, // a is an ancestor of b
		{"", "leaf3", "A"},
		{"leaf3", "", ""},
	}
	for _, c := range ofLCA {
		if got, want := tr.ChildOfLCA(id(t, tr, c.a), id(t, tr, c.b)), id(t, tr, c.want); got != want {
			t.Errorf("ChildOfLCA(%s, %s) = %s, want %s", c.a, c.b, tr.Name(got), c.want)
		}
	}

	anc := []struct {
		a, d string
		want bool
	}{
		{"A", "leaf3", true}, {"leaf3", "leaf3", true}, {"", "Y", true}, {"C", "leaf3", false},
		{"leaf3", "A", false}, {"X", "A", false},
	}
	for _, c := range anc {
		if got := queuetree.IsAncestor(tr, id(t, tr, c.a), id(t, tr, c.d)); got != c.want {
			t.Errorf("IsAncestor(%s, %s) = %v, want %v", c.a, c.d, got, c.want)
		}
	}

	depths := map[string]int{"": 0, "A": 1, "B": 2, "C": 3, "D": 3, "leaf1": 4, "leaf3": 4, "X": 1, "Y": 2}
	for name, want := range depths {
		if got := queuetree.Depth(tr, id(t, tr, name)); got != want {
			t.Errorf("Depth(%q) = %d, want %d", name, got, want)
		}
	}
	if got := tr.Parent(id(t, tr, "A")); got != queuetree.Root {
		t.Errorf("Parent(A) = %d, want Root", got)
	}
	if got := tr.Parent(queuetree.Root); got != queuetree.None {
		t.Errorf("Parent(Root) = %d, want None", got)
	}
	if got := queuetree.SubtreeSize(tr, id(t, tr, "B")); got != 6 {
		t.Errorf("SubtreeSize(B) = %d, want 6", got)
	}

	names := func(seq func(func(queuetree.ID) bool)) []string {
		var out []string
		for x := range seq {
			out = append(out, tr.Name(x))
		}
		return out
	}
	if diff := cmp.Diff([]string{"leaf3", "D", "B", "A", ""}, names(queuetree.Ancestors(tr, id(t, tr, "leaf3")))); diff != "" {
		t.Errorf("Ancestors(leaf3) (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"C", "D"}, names(queuetree.Children(tr, id(t, tr, "B")))); diff != "" {
		t.Errorf("Children(B) (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"leaf1", "leaf2"}, names(queuetree.Children(tr, id(t, tr, "C")))); diff != "" {
		t.Errorf("Children(C) (-want +got):\n%s", diff) // the last child is a leaf
	}
	if diff := cmp.Diff([]string{"A", "X"}, names(queuetree.Children(tr, queuetree.Root))); diff != "" {
		t.Errorf("Children(Root) (-want +got):\n%s", diff)
	}
	if got := names(queuetree.Children(tr, id(t, tr, "leaf1"))); len(got) != 0 {
		t.Errorf("Children(leaf1) = %v, want none", got)
	}
	// Early break from the iterators.
	for range queuetree.Ancestors(tr, id(t, tr, "leaf3")) {
		break
	}
	for range queuetree.Children(tr, queuetree.Root) {
		break
	}
	if diff := cmp.Diff([]string{"A", "B", "D", "leaf3"}, queuetree.Path(tr, id(t, tr, "leaf3"))); diff != "" {
		t.Errorf("Path(leaf3) (-want +got):\n%s", diff)
	}
	if got := queuetree.Path(tr, queuetree.Root); got != nil {
		t.Errorf("Path(Root) = %v, want nil", got)
	}
}

func TestInvalidIDsNeverPanic(t *testing.T) {
	tr := designTree(t)
	for _, bad := range []queuetree.ID{queuetree.None, -7, queuetree.ID(tr.IDLimit()), 1 << 30} {
		if tr.Valid(bad) || tr.Name(bad) != "" || tr.Parent(bad) != queuetree.None || queuetree.Depth(tr, bad) != 0 ||
			queuetree.SubtreeSize(tr, bad) != 0 || queuetree.LCA(tr, bad, 1) != queuetree.None || queuetree.LCA(tr, 1, bad) != queuetree.None ||
			queuetree.ChildToward(tr, bad, 1) != queuetree.None || queuetree.ChildToward(tr, queuetree.Root, bad) != queuetree.None ||
			tr.ChildOfLCA(bad, 1) != queuetree.None || tr.ChildOfLCA(1, bad) != queuetree.None ||
			queuetree.IsAncestor(tr, bad, 1) || queuetree.IsAncestor(tr, queuetree.Root, bad) || queuetree.Path(tr, bad) != nil {
			t.Errorf("invalid ID %d gave a non-empty answer", bad)
		}
		for range queuetree.Ancestors(tr, bad) {
			t.Errorf("Ancestors(%d) yielded", bad)
		}
		for range queuetree.Children(tr, bad) {
			t.Errorf("Children(%d) yielded", bad)
		}
	}
	if got, ok := tr.Lookup("nope"); ok || got != queuetree.None {
		t.Errorf("Lookup(unknown) = %d, %v; want None, false", got, ok)
	}
	if got, ok := tr.Lookup(""); ok || got != queuetree.None {
		t.Errorf(`Lookup("") = %d, %v; want None, false (the root is not looked up by name)`, got, ok)
	}
}

// TestNilAndZeroTree checks that a nil *Tree (what New returns with an
// error) and the zero Tree have no IDs and answer every query as for an
// invalid ID, without panicking.
func TestNilAndZeroTree(t *testing.T) {
	for name, tr := range map[string]*queuetree.Tree{"nil": nil, "zero": {}} {
		if tr.IDLimit() != 0 {
			t.Errorf("%s: IDLimit() = %d, want 0", name, tr.IDLimit())
		}
		if got, ok := tr.Lookup("a"); ok || got != queuetree.None {
			t.Errorf("%s: Lookup = %d, %v; want None, false", name, got, ok)
		}
		for _, x := range []queuetree.ID{queuetree.Root, 1, queuetree.None} {
			if tr.Valid(x) || tr.Name(x) != "" || tr.Parent(x) != queuetree.None || queuetree.Depth(tr, x) != 0 ||
				queuetree.SubtreeSize(tr, x) != 0 || queuetree.IsAncestor(tr, x, x) || queuetree.LCA(tr, x, x) != queuetree.None ||
				tr.ChildOfLCA(x, x) != queuetree.None || queuetree.ChildToward(tr, x, x) != queuetree.None || queuetree.Path(tr, x) != nil {
				t.Errorf("%s: ID %d gave a non-empty answer", name, x)
			}
			for range queuetree.Ancestors(tr, x) {
				t.Errorf("%s: Ancestors(%d) yielded", name, x)
			}
			for range queuetree.Children(tr, x) {
				t.Errorf("%s: Children(%d) yielded", name, x)
			}
		}
	}
}

func TestEmptyTree(t *testing.T) {
	tr, err := queuetree.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	if tr.IDLimit() != 2 || queuetree.LCA(tr, queuetree.Root, queuetree.Root) != queuetree.Root {
		t.Fatalf("empty tree: IDLimit=%d", tr.IDLimit())
	}
}

func TestStrictReportsEveryProblem(t *testing.T) {
	_, err := queuetree.New([]queuetree.Queue{
		{Name: "a", Parent: "b"},
		{Name: "b", Parent: "c"},
		{Name: "c", Parent: "a"},       // cycle a -> b -> c -> a
		{Name: ""},                     // empty name, entry #3
		{Name: "self", Parent: "self"}, // self-parent
		{Name: "orphan", Parent: "ghost"},
		{Name: "dup"},
		{Name: "dup", Parent: "a"}, // duplicate, entry #7
	})
	if err == nil {
		t.Fatal("New accepted a broken list")
	}
	want := []string{
		"queuetree: entry #3 has an empty name (repaired: entry dropped)",
		`queuetree: duplicate queue "dup" (entries #6 and #7) (repaired: later entry dropped)`,
		`queuetree: queue "orphan" has unknown parent "ghost" (repaired: made top-level)`,
		"queuetree: cycle a -> b -> c -> a (repaired: made a top-level)",
		"queuetree: cycle self -> self (repaired: made self top-level)",
	}
	if diff := cmp.Diff(want, strings.Split(err.Error(), "\n")); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
	var p *queuetree.Problem
	if !errors.As(err, &p) || p.Kind != "empty_name" {
		t.Errorf("errors.As gave %+v, want the empty_name problem first", p)
	}
}

// TestProblemsInInputOrder checks New's promise that each group of problems
// is reported in input order, not in the name order used internally.
func TestProblemsInInputOrder(t *testing.T) {
	_, err := queuetree.New([]queuetree.Queue{
		{Name: "zeta", Parent: "ghost"},
		{Name: "alpha", Parent: "ghost"},
		{Name: "y"},
		{Name: "x"},
		{Name: "y"},
		{Name: "x"},
		{Name: "b", Parent: "c"},
		{Name: "c", Parent: "b"},
		{Name: "a", Parent: "z1"}, // found first in name order, leads to z1's cycle
		{Name: "z1", Parent: "z2"},
		{Name: "z2", Parent: "z1"},
	})
	want := []string{
		`queuetree: duplicate queue "y" (entries #2 and #4) (repaired: later entry dropped)`,
		`queuetree: duplicate queue "x" (entries #3 and #5) (repaired: later entry dropped)`,
		`queuetree: queue "zeta" has unknown parent "ghost" (repaired: made top-level)`,
		`queuetree: queue "alpha" has unknown parent "ghost" (repaired: made top-level)`,
		"queuetree: cycle b -> c -> b (repaired: made b top-level)",
		"queuetree: cycle z1 -> z2 -> z1 (repaired: made z1 top-level)",
	}
	if err == nil {
		t.Fatal("New accepted a broken list")
	}
	if diff := cmp.Diff(want, strings.Split(err.Error(), "\n")); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
}

// TestDroppedEntriesAnalysed checks that New reports, in one pass, the
// problems of the entries it cannot keep (empty names, later duplicates):
// fixing the reported problems must not reveal new ones. A dropped
// duplicate is checked as if it replaced the kept entry of its name.
func TestDroppedEntriesAnalysed(t *testing.T) {
	_, err := queuetree.New([]queuetree.Queue{
		{Name: "a"},
		{Name: "b", Parent: "a"},
		{Name: "a", Parent: "b"},     // #2: duplicate; kept instead of #0 it closes a -> b -> a
		{Name: "", Parent: "ghost"},  // #3: empty name, and its parent is unknown
		{Name: "c", Parent: "a"},     // #4
		{Name: "c", Parent: "nope"},  // #5: duplicate with an unknown parent
		{Name: "c", Parent: "c"},     // #6: duplicate that is its own parent
		{Name: "b", Parent: "a"},     // #7: the same entry again: nothing more to say
		{Name: "", Parent: "a"},      // #8: empty name, known parent
		{Name: "d", Parent: "ghost"}, // #9: plain orphan
	})
	if err == nil {
		t.Fatal("New accepted a broken list")
	}
	want := []string{
		"queuetree: entry #3 has an empty name (repaired: entry dropped)",
		"queuetree: entry #8 has an empty name (repaired: entry dropped)",
		`queuetree: duplicate queue "a" (entries #0 and #2) (repaired: later entry dropped)`,
		`queuetree: duplicate queue "c" (entries #4 and #5) (repaired: later entry dropped)`,
		`queuetree: duplicate queue "c" (entries #4 and #6) (repaired: later entry dropped)`,
		`queuetree: duplicate queue "b" (entries #1 and #7) (repaired: later entry dropped)`,
		`queuetree: queue "" has unknown parent "ghost" (entry #3, an empty name) (repaired: entry dropped)`,
		`queuetree: queue "c" has unknown parent "nope" (entry #5, a later duplicate) (repaired: entry dropped)`,
		`queuetree: queue "d" has unknown parent "ghost" (repaired: made top-level)`,
		"queuetree: cycle a -> b -> a (entry #2, a later duplicate) (repaired: entry dropped)",
		"queuetree: cycle c -> c (entry #6, a later duplicate) (repaired: entry dropped)",
	}
	if diff := cmp.Diff(want, strings.Split(err.Error(), "\n")); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
	var cyc []*queuetree.Problem
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		if p := e.(*queuetree.Problem); p.Kind == "cycle" {
			cyc = append(cyc, p)
		}
	}
	if len(cyc) != 2 || cyc[0].Index != 2 || cyc[1].Index != 6 {
		t.Errorf("cycle problems %+v, want the dropped entries #2 and #6", cyc)
	}
}

// TestDroppedDuplicateClosesDeepCycle: a duplicate of the root of a
// 50,000-deep chain, parented to its deepest queue, would close a cycle of
// every queue; New reports it without recursion, starting at the smallest
// name.
func TestDroppedDuplicateClosesDeepCycle(t *testing.T) {
	const n = 50_000
	qs := make([]queuetree.Queue, 0, n+1)
	name := func(i int) string { return fmt.Sprintf("q%06d", i) }
	qs = append(qs, queuetree.Queue{Name: name(0)})
	for i := 1; i < n; i++ {
		qs = append(qs, queuetree.Queue{Name: name(i), Parent: name(i - 1)})
	}
	qs = append(qs, queuetree.Queue{Name: name(0), Parent: name(n - 1)})
	_, err := queuetree.New(qs)
	var ps []*queuetree.Problem
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		ps = append(ps, e.(*queuetree.Problem))
	}
	if len(ps) != 2 || ps[0].Kind != "duplicate_name" || ps[1].Kind != "cycle" {
		t.Fatalf("problems %v, want a duplicate and the cycle it closes", err)
	}
	m := ps[1].Members
	if len(m) != n || m[0] != name(0) || m[1] != name(n-1) || m[n-1] != name(1) || ps[1].Index != n {
		t.Errorf("cycle members: %d, starting %v, index %d", len(m), m[:2], ps[1].Index)
	}
}

// TestProblemError covers Problem values New never builds: they still
// describe themselves instead of panicking.
func TestProblemError(t *testing.T) {
	for _, tt := range []struct {
		p    queuetree.Problem
		want string
	}{
		{queuetree.Problem{Kind: "cycle", Queue: "a"}, `queuetree: cycle through "a"`},
		{queuetree.Problem{}, `queuetree: problem ""`},
		{queuetree.Problem{Kind: "other", Repair: "none"}, `queuetree: problem "other" (repaired: none)`},
	} {
		if got := tt.p.Error(); got != tt.want {
			t.Errorf("%+v.Error() = %q, want %q", tt.p, got, tt.want)
		}
	}
}

func TestNewRepairs(t *testing.T) {
	in := []queuetree.Queue{
		{Name: "b", Parent: "a"},
		{Name: "a", Parent: "b"}, // cycle: a (smallest) becomes top-level
		{Name: "orphan", Parent: "ghost"},
		{Name: "x"},
		{Name: "x", Parent: "a"}, // duplicate: the first (top-level) wins
		{Name: "", Parent: "x"},
		{Name: "kid", Parent: "orphan"},
	}
	tr, err := queuetree.New(in)
	if tr == nil || err == nil {
		t.Fatalf("New = %v, %v; want the repaired tree and an error", tr, err)
	}
	msgs := strings.Split(err.Error(), "\n")
	want := []string{
		"queuetree: entry #5 has an empty name (repaired: entry dropped)",
		`queuetree: duplicate queue "x" (entries #3 and #4) (repaired: later entry dropped)`,
		`queuetree: queue "orphan" has unknown parent "ghost" (repaired: made top-level)`,
		"queuetree: cycle a -> b -> a (repaired: made a top-level)",
	}
	if diff := cmp.Diff(want, msgs); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
	paths := map[string][]string{}
	for id := range queuetree.IDs(tr) {
		if id != queuetree.Root {
			paths[tr.Name(id)] = queuetree.Path(tr, id)
		}
	}
	wantPaths := map[string][]string{
		"a": {"a"}, "b": {"a", "b"}, "orphan": {"orphan"}, "kid": {"orphan", "kid"}, "x": {"x"},
	}
	if diff := cmp.Diff(wantPaths, paths); diff != "" {
		t.Errorf("repaired tree (-want +got):\n%s", diff)
	}
}

// dump renders every ID's name, parent and depth, for whole-tree comparison.
func dump(tr *queuetree.Tree) []string {
	out := make([]string, 0, tr.IDLimit())
	for x := range queuetree.IDs(tr) {
		out = append(out, tr.Name(x)+"<"+tr.Name(tr.Parent(x))+"@"+strings.Repeat("+", queuetree.Depth(tr, x)))
	}
	return out
}

func TestDeepChainAndWideStar(t *testing.T) {
	const n = 100_000
	chain := make([]queuetree.Queue, n)
	for i := range chain {
		chain[i] = queuetree.Queue{Name: name(i)}
		if i > 0 {
			chain[i].Parent = name(i - 1)
		}
	}
	slices.Reverse(chain) // input order must not matter
	tr, err := queuetree.New(chain)
	if err != nil {
		t.Fatal(err)
	}
	deep, _ := tr.Lookup(name(n - 1))
	mid, _ := tr.Lookup(name(n / 2))
	top, _ := tr.Lookup(name(0))
	if got := queuetree.Depth(tr, deep); got != n {
		t.Fatalf("chain: Depth(deepest) = %d, want %d", got, n)
	}
	if got := queuetree.LCA(tr, deep, mid); got != mid {
		t.Errorf("chain: LCA(deepest, mid) = %s, want %s", tr.Name(got), tr.Name(mid))
	}
	if got := queuetree.LCA(tr, mid, deep); got != mid {
		t.Errorf("chain: LCA(mid, deepest) = %s, want %s", tr.Name(got), tr.Name(mid))
	}
	if got, want := queuetree.ChildToward(tr, mid, deep), mustLookup(t, tr, name(n/2+1)); got != want {
		t.Errorf("ChildToward on chain = %s, want %s", tr.Name(got), tr.Name(want))
	}
	if got := queuetree.ChildToward(tr, queuetree.Root, deep); got != top {
		t.Errorf("ChildToward(Root, deepest) = %s, want %s", tr.Name(got), name(0))
	}

	// A two-branch deep tree: the LCA sits far above both queries.
	var fork []queuetree.Queue
	fork = append(fork, queuetree.Queue{Name: "r"})
	for b := 0; b < 2; b++ {
		prev := "r"
		for i := 0; i < n/2; i++ {
			nm := string(rune('a'+b)) + name(i)
			fork = append(fork, queuetree.Queue{Name: nm, Parent: prev})
			prev = nm
		}
	}
	ft, err := queuetree.New(fork)
	if err != nil {
		t.Fatal(err)
	}
	r := mustLookup(t, ft, "r")
	a, b := mustLookup(t, ft, "a"+name(n/2-1)), mustLookup(t, ft, "b"+name(n/2-1))
	if got := queuetree.LCA(ft, a, b); got != r {
		t.Errorf("LCA of two deep branches = %s, want r", ft.Name(got))
	}
	if got := queuetree.ChildToward(ft, r, b); got != mustLookup(t, ft, "b"+name(0)) {
		t.Errorf("ChildToward(r, deep b) = %s", ft.Name(got))
	}
	if got := ft.ChildOfLCA(a, b); got != mustLookup(t, ft, "b"+name(0)) {
		t.Errorf("ChildOfLCA(deep a, deep b) = %s, want %s", ft.Name(got), "b"+name(0))
	}
	bMid := mustLookup(t, ft, "b"+name(n/4))
	if got := ft.ChildOfLCA(b, bMid); got != bMid {
		t.Errorf("ChildOfLCA(deep b, its ancestor) = %s, want the ancestor", ft.Name(got))
	}
	if allocs := testing.AllocsPerRun(100, func() { ft.ChildOfLCA(a, b); queuetree.LCA(ft, a, b) }); allocs != 0 {
		t.Errorf("LCA/ChildOfLCA allocate %v times", allocs)
	}
}

func mustLookup(t testing.TB, tr *queuetree.Tree, s string) queuetree.ID {
	t.Helper()
	v, ok := tr.Lookup(s)
	if !ok {
		t.Fatalf("Lookup(%q) failed", s)
	}
	return v
}

// name returns a fixed-width name so that name order equals numeric order.
func name(i int) string {
	const digits = "0123456789"
	b := []byte("q0000000")
	for p := len(b) - 1; p > 0 && i > 0; p-- {
		b[p] = digits[i%10]
		i /= 10
	}
	return string(b)
}
