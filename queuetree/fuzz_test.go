package queuetree_test

import (
	"strings"
	"testing"

	"github.com/tenurepolicy/tenure/queuetree"
)

// parseList reads one queue per line as "name" or "name>parent".
func parseList(data string) []queuetree.Queue {
	var qs []queuetree.Queue
	for _, line := range strings.Split(data, "\n") {
		name, parent, _ := strings.Cut(line, ">")
		qs = append(qs, queuetree.Queue{Name: name, Parent: parent})
	}
	return qs
}

// FuzzBuild builds trees from arbitrary name/parent lists. It checks that
// neither constructor panics or hangs, that the tolerant tree is always
// consistent, and that strict and tolerant agree whenever strict succeeds.
func FuzzBuild(f *testing.F) {
	for _, seed := range []string{
		"A\nB>A\nC>B\nleaf1>C\nleaf2>C\nD>B\nleaf3>D",
		"a>b\nb>c\nc>a",
		"self>self",
		"x\nx>y\n>x\norphan>ghost",
		"",
		"\n\n",
		"a>\xff\n\xff>a",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data string) {
		qs := parseList(data)
		tol, err := queuetree.New(qs)
		if tol == nil {
			t.Fatal("New returned a nil tree")
		}
		if err != nil {
			for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
				if p, ok := e.(*queuetree.Problem); !ok || p.Repair == "" {
					t.Fatalf("problem %v is not a repaired *Problem", e)
				}
			}
		}
		for x := range queuetree.IDs(tol) {
			if x == queuetree.Root {
				continue
			}
			p := tol.Parent(x)
			if p < queuetree.Root || p >= x || queuetree.Depth(tol, x) != queuetree.Depth(tol, p)+1 || queuetree.LCA(tol, x, p) != p || queuetree.ChildToward(tol, p, x) != x {
				t.Fatalf("inconsistent tree at %q", tol.Name(x))
			}
			if got, ok := tol.Lookup(tol.Name(x)); !ok || got != x {
				t.Fatalf("Lookup(Name(%d)) = %d, %v", x, got, ok)
			}
		}
	})
}
