package runtime_test

import (
	"fmt"
	"time"

	"github.com/tenurepolicy/tenure/queuetree"
	"github.com/tenurepolicy/tenure/runtime"
)

// A watch reports each Queue object as it changes, with its min-runtime
// fields: the tree takes the queue's edit and the resolver its setting,
// and neither compares the whole list.
func ExampleApplyResolver() {
	tree, _ := queuetree.New([]queuetree.Queue{{Name: "research"}, {Name: "vision", Parent: "research"}})
	r, _ := runtime.NewResolver(tree, runtime.Config{DefaultPreempt: time.Minute, Queues: []runtime.QueueSetting{
		{Queue: "research", Preempt: runtime.Explicit(time.Hour)},
	}})

	// Created: queue "speech" under research, with its own preemptMinRuntime.
	tree, _ = queuetree.Apply(tree, queuetree.Edit{Name: "speech", Parent: "research"})
	r, _ = runtime.ApplyResolver(r, tree, runtime.QueueSetting{Queue: "speech", Preempt: runtime.Explicit(2 * time.Hour)})
	speech, _ := tree.Lookup("speech")
	fmt.Println(r.Preempt(speech))

	// Changed: research's setting cleared; vision inherits the default now.
	r, _ = runtime.ApplyResolver(r, tree, runtime.QueueSetting{Queue: "research"})
	vision, _ := tree.Lookup("vision")
	fmt.Println(r.Preempt(vision))

	// Deleted: speech's setting goes with it.
	tree, _ = queuetree.Apply(tree, queuetree.Edit{Name: "speech", Remove: true})
	r, _ = runtime.ApplyResolver(r, tree)
	_, err := runtime.ApplyResolver(r, tree, runtime.QueueSetting{Queue: "speech", Preempt: runtime.Explicit(time.Hour)})
	fmt.Println(err)
	// Output:
	// preempt min-runtime 2h from queue speech (queue)
	// preempt min-runtime 1m from default (queue)
	// runtime: queue "speech" has min-runtime settings but is not in the queue tree
}
