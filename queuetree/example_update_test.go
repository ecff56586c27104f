package queuetree_test

import (
	"fmt"

	"github.com/tenurepolicy/tenure/queuetree"
)

// A scheduler rebuilds its view of the queues every session, from a list
// in map order. Update hands back the previous tree while the queues stay
// the same, and builds a new one when they change.
func ExampleUpdate() {
	session1 := []queuetree.Queue{{Name: "research"}, {Name: "vision", Parent: "research"}, {Name: "prod"}}
	tree, err := queuetree.New(session1)
	if err != nil {
		fmt.Println(err)
		return
	}
	// The same queues in another order: the tree is reused.
	session2 := []queuetree.Queue{{Name: "prod"}, {Name: "vision", Parent: "research"}, {Name: "research"}}
	tree2, reused, err := queuetree.Update(tree, session2)
	fmt.Println(reused, tree2 == tree, err)
	// vision moved under prod: a new tree.
	session3 := []queuetree.Queue{{Name: "prod"}, {Name: "vision", Parent: "prod"}, {Name: "research"}}
	tree3, reused, err := queuetree.Update(tree2, session3)
	vision, _ := tree3.Lookup("vision")
	fmt.Println(reused, tree3.Path(vision), err)
	// Output:
	// true true <nil>
	// false [prod vision] <nil>
}

// The zero ID is None, never a queue: a Queue field left unset, or filled
// from a Lookup whose ok was ignored, names no queue at all.
func ExampleID() {
	tree, _ := queuetree.New([]queuetree.Queue{{Name: "prod"}})
	var unset queuetree.ID
	missing, ok := tree.Lookup("prdo")
	fmt.Println(unset == queuetree.None, missing == queuetree.None, ok, tree.Valid(unset))
	for id := range tree.IDs() {
		fmt.Printf("%d %q\n", id, tree.Name(id))
	}
	// Output:
	// true true false false
	// 1 ""
	// 2 "prod"
}
