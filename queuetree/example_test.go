package queuetree_test

import (
	"fmt"

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
	fmt.Println(leaf3, tree.Name(leaf3), "under", tree.Name(tree.Parent(leaf3)))

	// Every problem is reported at once, beside the tree of the list
	// repaired: a scheduler that must keep running uses it and logs err.
	tree, err = queuetree.New([]queuetree.Queue{{Name: "x", Parent: "ghost"}, {Name: "y", Parent: "y"}})
	fmt.Println(err)
	x, _ := tree.Lookup("x")
	fmt.Println(tree.Parent(x) == queuetree.Root)
	// Output:
	// 8 leaf3 under D
	// queuetree: queue "x" has unknown parent "ghost" (repaired: made top-level)
	// queuetree: cycle y -> y (repaired: made y top-level)
	// true
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

// The zero ID is None, never a queue: a Queue field left unset, or filled
// from a Lookup whose ok was ignored, names no queue at all.
func ExampleID() {
	tree, _ := queuetree.New([]queuetree.Queue{{Name: "prod"}})
	var unset queuetree.ID
	missing, ok := tree.Lookup("prdo")
	fmt.Println(unset == queuetree.None, missing == queuetree.None, ok, tree.Valid(unset))
	for id := queuetree.Root; tree.Valid(id); id++ {
		fmt.Printf("%d %q\n", id, tree.Name(id))
	}
	// Output:
	// true true false false
	// 1 ""
	// 2 "prod"
}

// A slice indexed by ID is sized with IDLimit: IDs run from None (0)
// through Root (1) to the last queue, so n queues need n+2 slots.
func ExampleTree_IDLimit() {
	tree, _ := queuetree.New([]queuetree.Queue{{Name: "org"}, {Name: "team-a", Parent: "org"}, {Name: "team-b", Parent: "org"}})
	running := make([]int, tree.IDLimit()) // running[id]: jobs running in queue id
	for _, q := range []string{"team-a", "team-b", "team-b"} {
		id, _ := tree.Lookup(q)
		running[id]++
	}
	for id := queuetree.Root + 1; tree.Valid(id); id++ {
		fmt.Println(tree.Name(id), running[id])
	}
	// Output:
	// org 0
	// team-a 1
	// team-b 2
}
