package queuetree_test

import (
	"fmt"

	"github.com/tenurepolicy/tenure/queuetree"
)

// A scheduler that learns of each queue change from a watch applies the
// changes to its tree instead of rebuilding it; the result is the tree
// New would build from the changed list, and a removal that would orphan
// a queue is an error that leaves the old tree as it was.
func ExampleApply() {
	tree, _ := queuetree.New([]queuetree.Queue{{Name: "research"}, {Name: "vision", Parent: "research"}, {Name: "prod"}})
	tree2, err := queuetree.Apply(tree,
		queuetree.Edit{Name: "nlp", Parent: "research"}, // added
		queuetree.Edit{Name: "vision", Parent: "prod"},  // moved
	)
	if err != nil {
		fmt.Println(err)
		return
	}
	for id := range tree2.IDs() {
		fmt.Println(id, tree2.Path(id))
	}
	_, err = queuetree.Apply(tree2, queuetree.Edit{Name: "research", Remove: true})
	fmt.Println(err)
	same, _ := queuetree.Apply(tree2, queuetree.Edit{Name: "vision", Parent: "prod"})
	fmt.Println(same == tree2)
	// Output:
	// 1 []
	// 2 [prod]
	// 3 [prod vision]
	// 4 [research]
	// 5 [research nlp]
	// queuetree: edits refused, the edited list has problems: queuetree: queue "nlp" has unknown parent "research"
	// true
}

// A caller that keeps its own arrays by queue ID patches them the way the
// tree was patched, instead of rebuilding them: ShiftsFrom says where the
// IDs moved.
func ExampleTree_ShiftsFrom() {
	tree, _ := queuetree.New([]queuetree.Queue{{Name: "a"}, {Name: "c"}})
	weight := []int{0, 0, 10, 30} // by ID: None, Root, a, c
	next, _ := queuetree.Apply(tree, queuetree.Edit{Name: "b"})
	shifts, ok := next.ShiftsFrom(tree)
	fmt.Println(ok, shifts)
	moved := make([]int, next.Len()+1)
	for id, w := range weight {
		if to := shifts[0].Map(queuetree.ID(id)); to != queuetree.None {
			moved[to] = w
		}
	}
	moved[shifts[0].At] = 20 // b, the queue added
	for id := range next.IDs() {
		fmt.Printf("%d %q %d\n", id, next.Name(id), moved[id])
	}
	// Output:
	// true [{3 1}]
	// 1 "" 0
	// 2 "a" 10
	// 3 "b" 20
	// 4 "c" 30
}

// A watch may deliver a queue's deletion while its children remain, or a
// queue before its parent. ApplyTolerant applies every event: it repairs
// what the list lacks, reports it, and redoes the repair on the next
// change, so the child moves under its parent once the parent arrives.
func ExampleApplyTolerant() {
	tree, _ := queuetree.New([]queuetree.Queue{{Name: "research"}, {Name: "nlp", Parent: "research"}})
	tree, problems := queuetree.ApplyTolerant(tree,
		queuetree.Edit{Name: "research", Remove: true},   // nlp is orphaned
		queuetree.Edit{Name: "vision", Parent: "robots"}, // before its parent
	)
	for _, p := range problems {
		fmt.Println(p)
	}
	for id := range tree.IDs() {
		fmt.Println(id, tree.Path(id))
	}
	// robots arrives: vision moves under it; nlp's parent is still gone.
	tree, problems = queuetree.ApplyTolerant(tree, queuetree.Edit{Name: "robots"})
	vision, _ := tree.Lookup("vision")
	fmt.Println(tree.Path(vision), problems)
	// Output:
	// queuetree: queue "nlp" has unknown parent "research" (repaired: made top-level)
	// queuetree: queue "vision" has unknown parent "robots" (repaired: made top-level)
	// 1 []
	// 2 [nlp]
	// 3 [vision]
	// [robots vision] [queuetree: queue "nlp" has unknown parent "research" (repaired: made top-level)]
}
