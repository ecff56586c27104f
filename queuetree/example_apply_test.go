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
	// queuetree: queue "nlp" has unknown parent "research"
	// true
}
