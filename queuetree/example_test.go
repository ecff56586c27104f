package queuetree_test

import (
	"fmt"
	"strings"

	"github.com/tenurepolicy/tenure/queuetree"
)

// The tree of the worked examples of KAI-Scheduler's min-runtime design (PR #126).
func ExampleNew() {
	tree, err := queuetree.New([]queuetree.Queue{
		{Name: "A"},
		{Name: "B", Parent: "A"},
		{Name: "C", Parent: "B"},
		{Name: "D", Parent: "B"},
		{Name: "leaf1", Parent: "C"},
		{Name: "leaf2", Parent: "C"},
		{Name: "leaf3", Parent: "D"},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	leaf3, _ := tree.Lookup("leaf3")
	fmt.Println(tree.Len()-1, "queues;", strings.Join(tree.Path(leaf3), " → "))

	// Every problem is reported at once.
	_, err = queuetree.New([]queuetree.Queue{{Name: "x", Parent: "ghost"}, {Name: "y", Parent: "y"}})
	fmt.Println(err)
	// Output:
	// 7 queues; A → B → D → leaf3
	// queuetree: queue "x" has unknown parent "ghost"
	// queuetree: cycle y -> y
}

func ExampleNewTolerant() {
	tree, repaired := queuetree.NewTolerant([]queuetree.Queue{
		{Name: "team-a", Parent: "deleted-dept"},
		{Name: "team-b"},
	})
	for _, p := range repaired {
		fmt.Println(p)
	}
	a, _ := tree.Lookup("team-a")
	fmt.Println(tree.Depth(a))
	// Output:
	// queuetree: queue "team-a" has unknown parent "deleted-dept" (repaired: made top-level)
	// 1
}

func ExampleTree_LCA() {
	tree, _ := queuetree.New([]queuetree.Queue{
		{Name: "A"}, {Name: "B", Parent: "A"}, {Name: "C", Parent: "B"}, {Name: "D", Parent: "B"},
		{Name: "leaf1", Parent: "C"}, {Name: "leaf3", Parent: "D"}, {Name: "X"},
	})
	leaf1, _ := tree.Lookup("leaf1")
	leaf3, _ := tree.Lookup("leaf3")
	x, _ := tree.Lookup("X")
	fmt.Println(tree.Name(tree.LCA(leaf1, leaf3)))
	fmt.Println(tree.LCA(leaf1, x) == queuetree.Root) // different top-level queues
	// Output:
	// B
	// true
}

// ChildToward steps one level down from an ancestor toward a descendant.
func ExampleTree_ChildToward() {
	tree, _ := queuetree.New([]queuetree.Queue{
		{Name: "A"}, {Name: "B", Parent: "A"}, {Name: "C", Parent: "B"}, {Name: "D", Parent: "B"},
		{Name: "leaf1", Parent: "C"}, {Name: "leaf3", Parent: "D"},
	})
	reclaimer, _ := tree.Lookup("leaf1")
	victim, _ := tree.Lookup("leaf3")
	lca := tree.LCA(reclaimer, victim)
	fmt.Println(tree.Name(tree.ChildToward(lca, victim)))
	// Output: D
}

// ChildOfLCA is the queue at which the LCA reclaim method resolves: the
// child of the common ancestor on the victim's side (KAI's min-runtime design: leaf1
// reclaiming from leaf3 resolves at D), or the victim's queue itself when
// the reclaimer is below it.
func ExampleTree_ChildOfLCA() {
	tree, _ := queuetree.New([]queuetree.Queue{
		{Name: "A"}, {Name: "B", Parent: "A"}, {Name: "C", Parent: "B"}, {Name: "D", Parent: "B"},
		{Name: "leaf1", Parent: "C"}, {Name: "leaf3", Parent: "D"}, {Name: "X"},
	})
	id := func(name string) queuetree.ID { q, _ := tree.Lookup(name); return q }
	fmt.Println(tree.Name(tree.ChildOfLCA(id("leaf1"), id("leaf3"))))
	fmt.Println(tree.Name(tree.ChildOfLCA(id("leaf1"), id("B")))) // the reclaimer is below B
	fmt.Println(tree.Name(tree.ChildOfLCA(id("X"), id("leaf3")))) // meet at the root: the victim's top-level queue
	// Output:
	// D
	// B
	// A
}

func ExampleTree_Ancestors() {
	tree, _ := queuetree.New([]queuetree.Queue{{Name: "org"}, {Name: "team", Parent: "org"}})
	team, _ := tree.Lookup("team")
	for q := range tree.Ancestors(team) {
		if q == queuetree.Root {
			fmt.Println("(root)")
			continue
		}
		fmt.Println(tree.Name(q))
	}
	// Output:
	// team
	// org
	// (root)
}
